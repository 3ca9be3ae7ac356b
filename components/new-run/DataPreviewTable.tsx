import type { UploadInfo } from "@/lib/contracts/api";
import { TABLE, TD, TH, THEAD } from "../ui/table";

/** The first rows of an uploaded file, with the mapped columns marked. */
export function DataPreviewTable({ upload, roles }: { upload: UploadInfo; roles: Record<string, string> }) {
  return (
    <div className="max-h-64 overflow-auto rounded-md border border-gray-200" data-testid="data-preview">
      <table className={TABLE}>
        <thead className={THEAD}>
          <tr>
            {upload.columns.map((c) => (
              <th key={c} className={TH}>
                {c}
                {roles[c] && (
                  <span className="ml-1 rounded bg-indigo-50 px-1 text-[10px] text-indigo-700">{roles[c]}</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {upload.preview.map((row, i) => (
            <tr key={i}>
              {upload.columns.map((c) => (
                <td key={c} className={`${TD} max-w-64 truncate text-xs`} title={row[c]}>
                  {row[c] ?? <span className="text-gray-400">—</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
