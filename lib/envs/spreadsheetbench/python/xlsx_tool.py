"""Workbook helpers for the SpreadsheetBench environment (our own port of the benchmark's cell
comparison). Reads one JSON request on stdin and writes one JSON answer on stdout, or, with
`--serve IDLE_SECONDS [MEMORY_MB]`, answers one request per line until stdin closes or it has been idle
that long. The code is ours but the predicted workbooks are the model's output, so the parent runs this
in the same sandbox as the scripts and MEMORY_MB caps the address space (0 = no cap).

  {"op": "evaluate", "gold": path, "pred": path, "answer_position": "...", "answer_sheet": "..."}
  {"op": "preview", "path": path}

Comparison (as the official SpreadsheetBench checker): both workbooks are loaded with cached formula
values (data_only). For every range of the answer position the sheet must exist in the prediction, and
every cell must match after `transform`: numbers, booleans and numeric strings are rounded to 2
decimals; a time loses its last three characters (the seconds); a datetime becomes its Excel serial day
(epoch 1899-12-30) rounded to an integer; None and "" are equal; otherwise type and value must be equal.
No styles or formats are compared.
"""
import datetime
import json
import sys

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter, range_boundaries

EXCEL_EPOCH = datetime.datetime(1899, 12, 30)
MAX_CELLS_LISTED = 2000
MAX_MISMATCHES = 50


def transform(value):
    if isinstance(value, (bool, int, float)):
        return round(float(value), 2)
    if isinstance(value, datetime.datetime):
        delta = value - EXCEL_EPOCH
        return round(delta.days + delta.seconds / 86400.0, 0)
    if isinstance(value, datetime.date):
        return round(float((value - EXCEL_EPOCH.date()).days), 0)
    if isinstance(value, datetime.time):
        return str(value)[:-3]
    if isinstance(value, str):
        try:
            return round(float(value), 2)
        except ValueError:
            return value
    return value


def cells_equal(a, b):
    a, b = transform(a), transform(b)
    if (a is None or a == "") and (b is None or b == ""):
        return True
    return type(a) is type(b) and a == b


def display(value):
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        text = value.isoformat()
    elif isinstance(value, str):
        text = repr(value)
    else:
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def split_ranges(position):
    """Comma-separated ranges; commas inside a quoted sheet name do not split."""
    parts, current, quoted = [], "", False
    for ch in position:
        if ch == "'":
            quoted = not quoted
        if ch == "," and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.strip() for p in parts if p.strip()]


def parse_range(text, default_sheet):
    """`Sheet1!A1:C3`, `'My sheet'!B2`, `A1:B2` -> (sheet or default, cell range)."""
    if "!" in text:
        sheet, cells = text.rsplit("!", 1)
        sheet = sheet.strip()
        if len(sheet) >= 2 and sheet[0] == "'" and sheet[-1] == "'":
            sheet = sheet[1:-1].replace("''", "'")
        return sheet, cells.strip().replace("$", "")
    return default_sheet, text.strip().replace("$", "")


def range_cells(cells, ws_a, ws_b):
    min_col, min_row, max_col, max_row = range_boundaries(cells)
    if min_row is None:
        min_row, max_row = 1, max(ws_a.max_row, ws_b.max_row)
    if min_col is None:
        min_col, max_col = 1, max(ws_a.max_column, ws_b.max_column)
    for row in range(min_row, max_row + 1):
        for col in range(min_col, max_col + 1):
            yield row, col


def evaluate(gold_path, pred_path, position, answer_sheet=""):
    gold = load_workbook(gold_path, data_only=True)
    pred = load_workbook(pred_path, data_only=True)
    formulas = load_workbook(pred_path, data_only=False)
    default_sheet = answer_sheet or gold.sheetnames[0]
    out = {"ok": True, "n_cells": 0, "n_correct": 0, "cells": [], "mismatches": [], "missing_sheets": [],
           "formula_cells": []}
    for part in split_ranges(position):
        sheet, cells = parse_range(part, default_sheet)
        if sheet not in pred.sheetnames or sheet not in gold.sheetnames:
            side = "prediction" if sheet not in pred.sheetnames else "gold workbook"
            out["ok"] = False
            out["missing_sheets"].append(sheet)
            out["mismatches"].append(f"sheet '{sheet}' missing in {side}")
            continue
        ws_gold, ws_pred, ws_form = gold[sheet], pred[sheet], formulas[sheet]
        for row, col in range_cells(cells, ws_gold, ws_pred):
            expected = ws_gold.cell(row, col).value
            got = ws_pred.cell(row, col).value
            ok = cells_equal(got, expected)
            ref = f"{sheet}!{get_column_letter(col)}{row}"
            out["n_cells"] += 1
            out["n_correct"] += 1 if ok else 0
            raw = ws_form.cell(row, col).value
            if got is None and isinstance(raw, str) and raw.startswith("=") and len(out["formula_cells"]) < 10:
                out["formula_cells"].append(ref)
            if len(out["cells"]) < MAX_CELLS_LISTED:
                out["cells"].append({"ref": ref, "got": display(got), "expected": display(expected), "ok": ok,
                                     "empty": got in (None, "") and expected in (None, "")})
            if not ok:
                out["ok"] = False
                if len(out["mismatches"]) < MAX_MISMATCHES:
                    out["mismatches"].append(f"{ref}: got {display(got)}, expected {display(expected)}")
    return out


def preview(path, rows=5, cols=20):
    wb = load_workbook(path)
    sheets = []
    for ws in wb.worksheets:
        cells = []
        for row in ws.iter_rows(min_row=1, max_row=min(rows, ws.max_row), max_col=min(cols, ws.max_column)):
            for cell in row:
                if cell.value is None:
                    continue
                text = str(cell.value)
                cells.append([cell.coordinate, text if len(text) <= 40 else text[:37] + "..."])
        sheets.append({"name": ws.title, "dims": ws.dimensions, "max_row": ws.max_row,
                       "max_col": ws.max_column, "cells": cells})
    return {"sheets": sheets}


def answer(request):
    if request.get("op") == "evaluate":
        return evaluate(request["gold"], request["pred"], request["answer_position"], request.get("answer_sheet") or "")
    if request.get("op") == "preview":
        return preview(request["path"])
    raise ValueError(f"unknown op {request.get('op')!r}")


def serve(idle_seconds):
    """One JSON request per stdin line, one JSON answer per stdout line ({"ok": false, ...} on failure).
    Exits when stdin closes or after `idle_seconds` without a request, so an idle helper never lingers."""
    import os
    import signal

    signal.signal(signal.SIGALRM, lambda *_: os._exit(0))
    while True:
        signal.alarm(max(1, int(idle_seconds)))
        line = sys.stdin.readline()
        signal.alarm(0)
        if not line:
            return
        try:
            reply = {"ok": True, "value": answer(json.loads(line))}
        except Exception as exc:  # noqa: BLE001 - reported to the caller, the helper keeps serving
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


def limit_memory(memory_mb):
    try:
        import resource
    except ImportError:  # not on POSIX: no cap
        return
    if memory_mb > 0:
        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        limit_memory(int(sys.argv[3]) if len(sys.argv) > 3 else 0)
        serve(float(sys.argv[2]))
        return
    sys.stdout.write(json.dumps(answer(json.loads(sys.stdin.read()))))


if __name__ == "__main__":
    main()
