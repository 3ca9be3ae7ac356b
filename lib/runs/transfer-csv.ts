/** The transfer matrix as CSV (RFC 4180 quoting by csv-stringify), for the dashboard's download and the CLI. */
import { stringify } from "csv-stringify/sync";
import { TRANSFER_CSV_COLUMNS, transferRecords, type TransferMatrixRow } from "../contracts/transfer";

export function transferCsv(rows: readonly TransferMatrixRow[]): string {
  return stringify(transferRecords(rows), { header: true, columns: [...TRANSFER_CSV_COLUMNS] });
}
