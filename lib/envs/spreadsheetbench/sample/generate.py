"""Deterministic generator of the SpreadsheetBench offline sample (invented data, written by us).

    /usr/bin/python3 lib/envs/spreadsheetbench/sample/generate.py

Writes, next to this file:
  spreadsheet/<id>/<no>_<id>_input.xlsx + <no>_<id>_answer.xlsx   one or two test cases per task
  {train,val,test}/items.json                                      items with hidden `sim` annotations
  solutions.json                                                   the simulated code writer's scripts

Every task comes from one of four families (line totals, a category summary sheet, grade results,
inventory status). A task "needs" 0-2 of the sim rules, and its data has the matching trait (text
numbers, a blank row, a notes sheet in front, ...). For each task we write the correct script and, per
needed rule, the same script with that rule's characteristic mistake. The gold workbook is the correct
script's output. Each flawed script is run and compared with the gold workbook right here: it must
fail, and the first wrong cell (or its exception line) becomes `sim.wrong[rule]` — exactly the text
the environment puts into the trajectory's failure reason when the simulated target makes that mistake.
"""
import datetime
import json
import os
import random
import re
import shutil
import sys
import tempfile
import traceback
import zipfile

from openpyxl import Workbook

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from xlsx_tool import evaluate  # noqa: E402

CELL = "Cell-Level Manipulation"
SHEET = "Sheet-Level Manipulation"
FIXED_TIME = datetime.datetime(2026, 1, 1)

REGIONS = ["North", "South", "East", "West"]
PRODUCTS = ["Stapler", "Paper", "Toner", "Pens", "Folders", "Labels"]
CATEGORIES = ["Travel", "Meals", "Office", "Software", "Training"]
STUDENTS = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Mo", "Nia"]
ITEMS = ["Bolts", "Nuts", "Washers", "Screws", "Hinges", "Brackets", "Rivets", "Clamps", "Springs", "Pins"]

NUM_TEXT = '''def num(value):
    if isinstance(value, str):
        value = value.replace(",", "").replace("$", "").strip()
    return float(value)
'''
NUM_PLAIN = '''def num(value):
    return float(value)
'''


def money_text(rng, value):
    """An amount stored as text the way exports write it: "$1,250.00" (float() cannot read it)."""
    return f"${value:,.2f}"


def place_blank(rows, rng):
    """Insert an empty row so that it lands on sheet row 4 or 5."""
    at = rng.choice([2, 3])
    return rows[:at] + [None] + rows[at:]


def write_sheet(ws, header, rows):
    ws.append(header)
    for row in rows:
        if row is None:
            ws.append([])
        else:
            ws.append(row)


def front_sheet(wb, title):
    ws = wb.active
    ws.title = title
    ws["A1"] = "This workbook was exported from the office system."
    ws["A2"] = "Do not edit this sheet."


# ---------------------------------------------------------------------------------------- families

def line_total(rng, needs, variant):
    sheet = rng.choice(["Sales", "Orders", "Q1 Sales", "Shop Orders"]) + ("" if variant == 0 else f" {variant}")
    text = "text_numbers" in needs

    def build(case_rng):
        n = case_rng.randint(7, 11)
        rows = []
        for i in range(n):
            price = case_rng.choice([2.5, 4.75, 12.0, 19.99, 35.5, 1250.0])
            rows.append([datetime.datetime(2025, 3, 1 + i), case_rng.choice(REGIONS), case_rng.choice(PRODUCTS),
                         case_rng.randint(1, 40), money_text(case_rng, price) if text and i % 2 == 1 else price])
        if "skip_blank_rows" in needs:
            rows = place_blank(rows, case_rng)
        wb = Workbook()
        if "target_sheet" in needs:
            front_sheet(wb, "Notes")
            ws = wb.create_sheet(sheet)
        else:
            ws = wb.active
            ws.title = sheet
        write_sheet(ws, ["Date", "Region", "Product", "Qty", "Unit Price", "Total"], rows)
        return wb, len(rows) + 1

    def code(flaw):
        get_ws = "ws = wb.active" if flaw == "target_sheet" else f"ws = wb[{sheet!r}]"
        value = "f\"=D{r}*E{r}\"" if flaw == "write_values" else "round(num(qty) * num(price), 2)"
        helper = NUM_PLAIN if flaw == "text_numbers" or not text else NUM_TEXT
        body = (f"    qty = ws.cell(row=r, column=4).value\n"
                f"    price = ws.cell(row=r, column=5).value\n")
        if flaw == "skip_blank_rows":
            loop = "r = 2\nwhile ws.cell(row=r, column=4).value is not None:\n" + body + \
                   f"    ws.cell(row=r, column=6).value = {value}\n    r += 1\n"
        else:
            stop = "7" if flaw == "dynamic_rows" else "ws.max_row + 1"
            loop = f"for r in range(2, {stop}):\n" + body + \
                   "    if qty is None or price is None:\n        continue\n" + \
                   f"    ws.cell(row=r, column=6).value = {value}\n"
        return f"from openpyxl import load_workbook\n\n{helper}\nwb = load_workbook(INPUT_PATH)\n{get_ws}\n{loop}wb.save(OUTPUT_PATH)\n"

    instruction = (f"In the '{sheet}' sheet, fill the Total column (F) of every order with Qty multiplied by "
                   f"Unit Price, rounded to 2 decimals.")
    return {"instruction": instruction, "type": CELL, "build": build, "code": code,
            "position": lambda last: f"{quote(sheet)}!F2:F{last}"}


def summary_sheet(rng, needs, variant):
    data = rng.choice(["Expenses", "Transactions", "Ledger"])
    target = rng.choice(["Summary", "Totals", "By Category", "Category Totals"]) + ("" if variant == 0 else f" {variant}")
    label = rng.choice(["Category", "Cost Type"])
    text = "text_numbers" in needs
    holder = {}

    def build(case_rng):
        n = case_rng.randint(8, 12)
        cats = case_rng.sample(CATEGORIES, 4)
        rows = []
        for i in range(n):
            amount = round(case_rng.uniform(20, 1500), 2)
            rows.append([datetime.datetime(2025, 5, 2 + i), cats[i % 4] if i < 4 else case_rng.choice(cats),
                         money_text(case_rng, amount) if text and i % 3 == 2 else amount])
        if "skip_blank_rows" in needs:
            rows = place_blank(rows, case_rng)
        wb = Workbook()
        ws = wb.active
        ws.title = data
        write_sheet(ws, ["Date", label, "Amount"], rows)
        holder["k"] = len({r[1] for r in rows if r is not None})
        return wb, holder["k"] + 1

    def code(flaw):
        helper = NUM_PLAIN if flaw == "text_numbers" or not text else NUM_TEXT
        add = ("    if not isinstance(amount, (int, float)):\n        continue\n" if flaw == "text_numbers" and text else "")
        stop = "7" if flaw == "dynamic_rows" else "ws.max_row + 1"
        if flaw == "skip_blank_rows":
            loop = ("r = 2\nwhile ws.cell(row=r, column=2).value is not None:\n"
                    "    cat = ws.cell(row=r, column=2).value\n    amount = ws.cell(row=r, column=3).value\n"
                    "    totals[cat] = totals.get(cat, 0) + num(amount)\n    r += 1\n")
        else:
            loop = (f"for r in range(2, {stop}):\n"
                    "    cat = ws.cell(row=r, column=2).value\n    amount = ws.cell(row=r, column=3).value\n"
                    "    if cat is None or amount is None:\n        continue\n" + add +
                    "    totals[cat] = totals.get(cat, 0) + num(amount)\n")
        out = "out = wb.active" if flaw == "target_sheet" else f"out = wb.create_sheet({target!r})"
        if flaw == "keep_header":
            head, start = "", 1
        else:
            head, start = f"out.cell(row=1, column=1).value = {label!r}\nout.cell(row=1, column=2).value = \"Total\"\n", 2
        return (f"from openpyxl import load_workbook\n\n{helper}\nwb = load_workbook(INPUT_PATH)\nws = wb[{data!r}]\n"
                f"totals = {{}}\n{loop}{out}\n{head}"
                f"for i, (cat, total) in enumerate(totals.items(), start={start}):\n"
                "    out.cell(row=i, column=1).value = cat\n    out.cell(row=i, column=2).value = round(total, 2)\n"
                "wb.save(OUTPUT_PATH)\n")

    instruction = (f"Add a sheet named '{target}' that lists every {label.lower()} of the '{data}' sheet once, in order of "
                   f"first appearance, in column A with its total Amount in column B (rounded to 2 decimals), "
                   f"under the headers '{label}' and 'Total'.")
    return {"instruction": instruction, "type": SHEET, "build": build, "code": code,
            "position": lambda last: f"{quote(target)}!A1:B{last}"}


def grades(rng, needs, variant):
    sheet = rng.choice(["Grades", "Scores", "Term 2", "Class 7B"]) + ("" if variant == 0 else f" {variant}")
    threshold = rng.choice([50, 55, 60, 65])

    def build(case_rng):
        n = case_rng.randint(7, 11)
        names = case_rng.sample(STUDENTS, n)
        rows = [[name, case_rng.randint(30, 100), case_rng.randint(30, 100), case_rng.randint(30, 100)] for name in names]
        if "skip_blank_rows" in needs:
            rows = place_blank(rows, case_rng)
        wb = Workbook()
        if "target_sheet" in needs:
            front_sheet(wb, "Info")
            ws = wb.create_sheet(sheet)
        else:
            ws = wb.active
            ws.title = sheet
        write_sheet(ws, ["Student", "Test 1", "Test 2", "Test 3", "Average", "Result"], rows)
        return wb, len(rows) + 1

    def code(flaw):
        get_ws = "ws = wb.active" if flaw == "target_sheet" else f"ws = wb[{sheet!r}]"
        if flaw == "write_values":
            write = ("    ws.cell(row=r, column=5).value = f\"=ROUND(AVERAGE(B{r}:D{r}),1)\"\n"
                     f"    ws.cell(row=r, column=6).value = f'=IF(E{{r}}>={threshold},\"Pass\",\"Fail\")'\n")
        else:
            write = ("    ws.cell(row=r, column=5).value = avg\n"
                     f"    ws.cell(row=r, column=6).value = \"Pass\" if avg >= {threshold} else \"Fail\"\n")
        collect = ("    avg = round(sum(ws.cell(row=r, column=c).value for c in (2, 3, 4)) / 3, 1)\n")
        if flaw == "keep_header":
            return (f"from openpyxl import load_workbook\n\nwb = load_workbook(INPUT_PATH)\n{get_ws}\nresults = []\n"
                    "for r in range(2, ws.max_row + 1):\n    if ws.cell(row=r, column=1).value is None:\n        continue\n"
                    + collect + "    results.append(avg)\n"
                    "for r, avg in enumerate(results, start=1):\n"
                    "    ws.cell(row=r, column=5).value = avg\n"
                    f"    ws.cell(row=r, column=6).value = \"Pass\" if avg >= {threshold} else \"Fail\"\n"
                    "wb.save(OUTPUT_PATH)\n")
        if flaw == "skip_blank_rows":
            loop = "r = 2\nwhile ws.cell(row=r, column=1).value is not None:\n" + collect + write + "    r += 1\n"
        else:
            stop = "7" if flaw == "dynamic_rows" else "ws.max_row + 1"
            loop = (f"for r in range(2, {stop}):\n    if ws.cell(row=r, column=1).value is None:\n        continue\n"
                    + collect + write)
        return f"from openpyxl import load_workbook\n\nwb = load_workbook(INPUT_PATH)\n{get_ws}\n{loop}wb.save(OUTPUT_PATH)\n"

    instruction = (f"On the '{sheet}' sheet, put each student's average of the three tests, rounded to 1 decimal, in "
                   f"column E (Average), and 'Pass' in column F (Result) when that average is at least {threshold}, "
                   f"otherwise 'Fail'.")
    return {"instruction": instruction, "type": CELL, "build": build, "code": code,
            "position": lambda last: f"{quote(sheet)}!E1:F{last}"}


def inventory(rng, needs, variant):
    sheet = rng.choice(["Inventory", "Stock", "Warehouse A", "Parts"]) + ("" if variant == 0 else f" {variant}")
    word = rng.choice(["Reorder", "Order now", "Low"])
    text = "text_numbers" in needs

    def build(case_rng):
        n = case_rng.randint(7, 10)
        names = case_rng.sample(ITEMS, n)
        rows = []
        for i, name in enumerate(names):
            stock = case_rng.randint(0, 2400)
            level = case_rng.choice([100, 250, 500, 1200])
            rows.append([f"SKU-{100 + i}", name, f"{stock:,}" if text and stock >= 1000 or (text and i == 1) else stock, level])
        if "skip_blank_rows" in needs:
            rows = place_blank(rows, case_rng)
        wb = Workbook()
        if "target_sheet" in needs:
            front_sheet(wb, "Readme")
            ws = wb.create_sheet(sheet)
        else:
            ws = wb.active
            ws.title = sheet
        write_sheet(ws, ["SKU", "Item", "In Stock", "Reorder Level", "Status"], rows)
        return wb, len(rows) + 1

    def code(flaw):
        get_ws = "ws = wb.active" if flaw == "target_sheet" else f"ws = wb[{sheet!r}]"
        helper = "" if flaw == "text_numbers" or not text else NUM_TEXT
        stock = "stock" if flaw == "text_numbers" or not text else "num(stock)"
        write = f"    ws.cell(row=r, column=5).value = {word!r} if {stock} < level else \"OK\"\n"
        read = "    stock = ws.cell(row=r, column=3).value\n    level = ws.cell(row=r, column=4).value\n"
        if flaw == "skip_blank_rows":
            loop = "r = 2\nwhile ws.cell(row=r, column=1).value is not None:\n" + read + write + "    r += 1\n"
        else:
            stop = "7" if flaw == "dynamic_rows" else "ws.max_row + 1"
            loop = f"for r in range(2, {stop}):\n" + read + "    if stock is None or level is None:\n        continue\n" + write
        return f"from openpyxl import load_workbook\n\n{helper}\nwb = load_workbook(INPUT_PATH)\n{get_ws}\n{loop}wb.save(OUTPUT_PATH)\n"

    instruction = (f"In the '{sheet}' sheet, write '{word}' in the Status column (E) for every item whose In Stock "
                   f"count is below its Reorder Level, and 'OK' for every other item.")
    return {"instruction": instruction, "type": CELL, "build": build, "code": code,
            "position": lambda last: f"{quote(sheet)}!E2:E{last}"}


FAMILIES = {"A": line_total, "B": summary_sheet, "C": grades, "D": inventory}

PLAN = {
    "train": [("A", ["dynamic_rows"]), ("B", ["target_sheet"]), ("C", ["keep_header"]), ("D", ["text_numbers"]),
              ("A", ["write_values", "skip_blank_rows"]), ("B", ["keep_header", "text_numbers"]),
              ("C", ["dynamic_rows", "write_values"]), ("D", ["skip_blank_rows"]), ("A", ["target_sheet"]),
              ("B", ["skip_blank_rows"]), ("C", ["write_values"]), ("D", ["dynamic_rows", "text_numbers"]),
              ("A", []), ("B", ["dynamic_rows"]), ("C", []), ("D", ["target_sheet"])],
    "val": [("A", ["dynamic_rows"]), ("B", ["target_sheet", "keep_header"]), ("C", ["keep_header", "skip_blank_rows"]),
            ("D", ["text_numbers"]), ("A", ["write_values"]), ("B", ["text_numbers"]),
            ("C", ["write_values", "dynamic_rows"]), ("D", ["skip_blank_rows", "target_sheet"]), ("A", []), ("D", [])],
    "test": [("C", ["dynamic_rows"]), ("B", ["keep_header"]), ("A", ["text_numbers", "target_sheet"]),
             ("D", ["skip_blank_rows"]), ("C", ["write_values", "keep_header"]), ("A", ["write_values", "skip_blank_rows"]),
             ("D", ["dynamic_rows", "text_numbers"]), ("B", ["target_sheet"]), ("B", []), ("C", [])],
}


def quote(sheet):
    return f"'{sheet}'" if " " in sheet else sheet


def run_code(code, input_path, output_path):
    """Our own trusted scripts, run in-process. Returns the exception line or None."""
    try:
        exec(compile(code, "solution.py", "exec"), {"__name__": "__main__", "INPUT_PATH": input_path, "OUTPUT_PATH": output_path})
    except Exception as exc:  # noqa: BLE001
        return traceback.format_exception_only(type(exc), exc)[-1].strip()
    return None


def save(wb, path):
    wb.properties.created = FIXED_TIME
    wb.save(path)
    make_reproducible(path)


def make_reproducible(path):
    """Rewrites an .xlsx with fixed zip timestamps and a fixed 'modified' property, so that running the
    generator again gives byte-identical files (openpyxl stamps both with the current time)."""
    with zipfile.ZipFile(path) as src:
        entries = [(info.filename, src.read(info.filename)) for info in src.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, data in entries:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(<)", rb"\g<1>2026-01-01T00:00:00Z\2", data)
            dst.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)


def first_failure(code, cases, position, scratch):
    """The text the env reports for the first failing case: its first mismatch or exception line."""
    for no, input_path, gold_path in cases:
        out = os.path.join(scratch, f"{no}_out.xlsx")
        error = run_code(code, input_path, out)
        if error is not None:
            return error
        result = evaluate(gold_path, out, position)
        if not result["ok"]:
            return result["mismatches"][0]
    return None


def make_task(task_id, family, needs, rng, folder, scratch, seen):
    variant = 0
    spec = FAMILIES[family](rng, needs, variant)
    while spec["instruction"] in seen:  # same sheet names drawn twice: number the sheet
        variant += 1
        spec = FAMILIES[family](rng, needs, variant)
    n_cases = 2 if int(task_id.split("-")[-1]) % 3 == 0 else 1
    os.makedirs(folder, exist_ok=True)
    cases, last_rows = [], []
    for no in range(1, n_cases + 1):
        wb, last = spec["build"](rng)
        input_path = os.path.join(folder, f"{no}_{task_id}_input.xlsx")
        gold_path = os.path.join(folder, f"{no}_{task_id}_answer.xlsx")
        save(wb, input_path)
        error = run_code(spec["code"](None), input_path, gold_path)
        assert error is None, f"{task_id}: correct script failed: {error}"
        make_reproducible(gold_path)
        cases.append((no, input_path, gold_path))
        last_rows.append(last)
    position = spec["position"](max(last_rows))
    correct = spec["code"](None)
    assert first_failure(correct, cases, position, scratch) is None, task_id
    wrong_code, wrong_text = {}, {}
    for rule in needs:
        code = spec["code"](rule)
        assert code != correct, f"{task_id}: flaw {rule} changes nothing"
        failure = first_failure(code, cases, position, scratch)
        assert failure is not None, f"{task_id}: flawed script for {rule} still passes"
        assert len(failure) >= 12, f"{task_id}: failure text too short: {failure}"
        wrong_code[rule], wrong_text[rule] = code, failure
    texts = list(wrong_text.values())
    for a in texts:
        for b in texts:
            assert a is b or a.lower() not in b.lower(), f"{task_id}: failure texts overlap: {a} / {b}"
    item = {"id": task_id, "instruction": spec["instruction"], "instruction_type": spec["type"],
            "answer_position": position,
            "sim": {"needs": needs, "correct": "every answer cell matches the gold workbook", "wrong": wrong_text}}
    return item, {"correct": correct, "wrong": wrong_code}


def main():
    rng = random.Random(20261129)
    root = os.path.join(HERE, "spreadsheet")
    shutil.rmtree(root, ignore_errors=True)
    solutions, seen = {}, set()
    counter = 0
    with tempfile.TemporaryDirectory() as scratch:
        for split, plan in PLAN.items():
            items = []
            for family, needs in plan:
                counter += 1
                task_id = f"ssb-{counter:03d}"
                item, code = make_task(task_id, family, needs, rng, os.path.join(root, task_id), scratch, seen)
                assert item["instruction"] not in seen, task_id
                seen.add(item["instruction"])
                items.append(item)
                solutions[task_id] = code
            os.makedirs(os.path.join(HERE, split), exist_ok=True)
            with open(os.path.join(HERE, split, "items.json"), "w", encoding="utf-8") as fh:
                json.dump(items, fh, indent=2, ensure_ascii=False)
                fh.write("\n")
    with open(os.path.join(HERE, "solutions.json"), "w", encoding="utf-8") as fh:
        json.dump(solutions, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {counter} tasks")


if __name__ == "__main__":
    main()
