#!/usr/bin/env python3
"""Load a table (CSV, TSV, JSON records, or a Markdown table such as Fawn's Excel conversions) and profile it,
convert it to CSV, or group and aggregate it. Standard library only, so it works offline in Fawn's sandbox.

Usage:
  python3 table_tool.py profile FILE [--sheet NAME] [--json]
  python3 table_tool.py sheets FILE
  python3 table_tool.py to-csv FILE OUT.csv [--sheet NAME]
  python3 table_tool.py group FILE --by COL[,COL] [--agg FUNC:COL ...] [--where EXPR] [--sort COL] [--desc]
                         [--limit N] [--sheet NAME] [--out OUT.csv]

FUNC is one of count, sum, mean, median, min, max, stdev, distinct. EXPR is a simple filter such as
"region == North", "amount > 100" or "status != closed" (several joined with " and ").

As a module:  sys.path.insert(0, "/mnt/skills/public/data-analysis/scripts"); from table_tool import load_table
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import statistics
import sys
from collections import Counter, OrderedDict
from datetime import datetime

MISSING = {"", "na", "n/a", "nan", "null", "none", "-", "--", "#n/a"}
DATE_FORMATS = ("%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y", "%m/%d/%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%d.%m.%Y")


# ---------------------------------------------------------------- loading


def _sniff_dialect(sample: str, fallback: str) -> type[csv.Dialect] | csv.Dialect:
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel_tab if fallback == "\t" else csv.excel


def _rows_from_delimited(text: str, path: str) -> list[list[str]]:
    fallback = "\t" if path.lower().endswith((".tsv", ".tab")) else ","
    dialect = _sniff_dialect(text[:20000], fallback)
    return [row for row in csv.reader(io.StringIO(text), dialect) if any(cell.strip() for cell in row)]


def _split_markdown_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells, current, escaped = [], [], False
    for char in body:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(char)
    cells.append("".join(current))
    return [cell.strip().replace("<br>", "\n") for cell in cells]


def markdown_tables(text: str) -> "OrderedDict[str, list[list[str]]]":
    """Every pipe table in a Markdown document, named by the heading above it (Excel conversions: the sheet)."""
    tables: OrderedDict[str, list[list[str]]] = OrderedDict()
    heading = "table"
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            heading = line.lstrip("#").strip() or heading
        is_separator = index + 1 < len(lines) and re.match(r"^\s*\|?\s*:?-{3,}", lines[index + 1] or "")
        if line.strip().startswith("|") and is_separator:
            rows = [_split_markdown_row(line)]
            index += 2
            while index < len(lines) and lines[index].strip().startswith("|"):
                rows.append(_split_markdown_row(lines[index]))
                index += 1
            name, suffix = heading, 2
            while name in tables:
                name, suffix = f"{heading} ({suffix})", suffix + 1
            tables[name] = rows
            continue
        index += 1
    return tables


def _rows_from_json(text: str) -> list[list[str]]:
    data = json.loads(text)
    if isinstance(data, dict):
        # {"rows": [...]} or {"data": [...]}: take the first list of records.
        data = next((value for value in data.values() if isinstance(value, list)), [data])
    if not isinstance(data, list) or not data:
        raise ValueError("JSON must be a list of records (objects) or of rows (lists)")
    if all(isinstance(item, dict) for item in data):
        header: list[str] = []
        for item in data:
            header.extend(key for key in item if key not in header)
        return [header] + [["" if item.get(key) is None else str(item.get(key)) for key in header] for item in data]
    return [[("" if cell is None else str(cell)) for cell in row] for row in data]


def load_table(path: str, sheet: str | None = None) -> tuple[list[str], list[list[str]]]:
    """The table in `path` as (header, rows of strings); rows are padded to the header's width."""
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        text = handle.read()
    lower = path.lower()
    if lower.endswith((".md", ".markdown")):
        tables = markdown_tables(text)
        if not tables:
            raise ValueError(f"no Markdown table found in {path}")
        if sheet is None:
            name = next(iter(tables))
        else:
            matches = [name for name in tables if name.lower() == sheet.lower()]
            if not matches:
                raise ValueError(f"no table named {sheet!r}; found: {', '.join(tables)}")
            name = matches[0]
        rows = tables[name]
    elif lower.endswith((".json", ".jsonl", ".ndjson")):
        if lower.endswith((".jsonl", ".ndjson")):
            text = "[" + ",".join(line for line in text.splitlines() if line.strip()) + "]"
        rows = _rows_from_json(text)
    else:
        rows = _rows_from_delimited(text, path)
    if not rows:
        raise ValueError(f"{path} holds no rows")
    header = [cell.strip() or f"column_{index + 1}" for index, cell in enumerate(rows[0])]
    width = max(len(header), *(len(row) for row in rows))
    header += [f"column_{index + 1}" for index in range(len(header), width)]
    body = [row + [""] * (width - len(row)) for row in rows[1:]]
    return header, body


# ---------------------------------------------------------------- values


def is_missing(value: str) -> bool:
    return value.strip().lower() in MISSING


def to_number(value: str) -> float | None:
    """A number from text such as 1,234.5, $12, 45%, (300) or 1.2e3; None when it is not one."""
    text = value.strip()
    if not text:
        return None
    negative = text.startswith("(") and text.endswith(")")
    if negative:
        text = text[1:-1]
    percent = text.endswith("%")
    text = text.rstrip("%").strip()
    text = re.sub(r"^[€$£¥₹]\s*|\s*[€$£¥₹]$", "", text)
    if re.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    try:
        number = float(text)
    except ValueError:
        return None
    if math.isnan(number) or math.isinf(number):
        return None
    number = -number if negative else number
    return number / 100 if percent else number


def to_date(value: str) -> datetime | None:
    text = value.strip()
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def column_kind(values: list[str]) -> str:
    present = [value for value in values if not is_missing(value)]
    if not present:
        return "empty"
    if sum(to_number(value) is not None for value in present) >= 0.95 * len(present):
        return "number"
    if sum(to_date(value) is not None for value in present) >= 0.95 * len(present):
        return "date"
    return "text"


def fmt(number: float | None) -> str:
    if number is None:
        return ""
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number):,}"
    return f"{number:,.4g}" if abs(number) < 1e-3 or abs(number) >= 1e6 else f"{number:,.3f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------- profile


def profile(header: list[str], rows: list[list[str]]) -> dict:
    columns = []
    for index, name in enumerate(header):
        values = [row[index] for row in rows]
        present = [value for value in values if not is_missing(value)]
        kind = column_kind(values)
        info: dict = {
            "name": name,
            "kind": kind,
            "missing": len(values) - len(present),
            "distinct": len(set(present)),
        }
        if kind == "number":
            numbers = sorted(n for n in (to_number(value) for value in present) if n is not None)
            info.update(
                min=numbers[0],
                max=numbers[-1],
                mean=statistics.fmean(numbers),
                median=statistics.median(numbers),
                stdev=statistics.stdev(numbers) if len(numbers) > 1 else 0.0,
                sum=math.fsum(numbers),
            )
            if len(numbers) >= 4:
                q1, _, q3 = statistics.quantiles(numbers, n=4)
                info.update(q1=q1, q3=q3)
        elif kind == "date":
            dates = sorted(d for d in (to_date(value) for value in present) if d is not None)
            info.update(first=dates[0].date().isoformat(), last=dates[-1].date().isoformat())
        if kind == "text" or info["distinct"] <= 10:
            info["top"] = Counter(present).most_common(5)
        columns.append(info)
    return {"rows": len(rows), "columns": columns}


def profile_markdown(path: str, result: dict) -> str:
    lines = [f"# Profile of {path}", "", f"{result['rows']:,} rows × {len(result['columns'])} columns", ""]
    lines += ["| column | kind | missing | distinct | summary |", "| --- | --- | --- | --- | --- |"]
    for column in result["columns"]:
        if column["kind"] == "number":
            summary = (
                f"min {fmt(column['min'])} · median {fmt(column['median'])} · mean {fmt(column['mean'])}"
                f" · max {fmt(column['max'])} · sd {fmt(column['stdev'])}"
            )
        elif column["kind"] == "date":
            summary = f"{column['first']} → {column['last']}"
        else:
            summary = ", ".join(f"{value[:30]} ({count})" for value, count in column.get("top", []))
        name = column["name"].replace("|", "\\|")
        summary = summary.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {name} | {column['kind']} | {column['missing']} | {column['distinct']} | {summary} |")
    return "\n".join(lines)


# ---------------------------------------------------------------- group


AGGREGATES = {
    "count": lambda values: len(values),
    "sum": lambda values: math.fsum(values),
    "mean": lambda values: statistics.fmean(values) if values else None,
    "median": lambda values: statistics.median(values) if values else None,
    "min": lambda values: min(values) if values else None,
    "max": lambda values: max(values) if values else None,
    "stdev": lambda values: statistics.stdev(values) if len(values) > 1 else None,
}

CONDITION = re.compile(r"^\s*(.+?)\s*(==|!=|>=|<=|>|<|~)\s*(.*?)\s*$")


def row_filter(header: list[str], expression: str | None):
    if not expression:
        return lambda row: True
    tests = []
    for part in re.split(r"\s+and\s+", expression):
        match = CONDITION.match(part)
        if not match or match.group(1) not in header:
            raise ValueError(f"cannot read the condition {part!r}; columns are: {', '.join(header)}")
        column, operator, expected = header.index(match.group(1)), match.group(2), match.group(3).strip("'\"")
        tests.append((column, operator, expected))

    def keep(row: list[str]) -> bool:
        for column, operator, expected in tests:
            actual = row[column]
            if operator == "~":
                if expected.lower() not in actual.lower():
                    return False
                continue
            left, right = to_number(actual), to_number(expected)
            pair = (left, right) if left is not None and right is not None else (actual.strip(), expected)
            ok = {
                "==": pair[0] == pair[1],
                "!=": pair[0] != pair[1],
                ">": pair[0] > pair[1],
                "<": pair[0] < pair[1],
                ">=": pair[0] >= pair[1],
                "<=": pair[0] <= pair[1],
            }[operator]
            if not ok:
                return False
        return True

    return keep


def group(header: list[str], rows: list[list[str]], by: list[str], aggregates: list[str]) -> tuple[list[str], list[list]]:
    for column in by:
        if column not in header:
            raise ValueError(f"no column {column!r}; columns are: {', '.join(header)}")
    specs = []
    for spec in aggregates or ["count"]:
        func, _, column = spec.partition(":")
        if func not in AGGREGATES and func != "distinct":
            raise ValueError(f"unknown aggregate {func!r}; use one of {', '.join([*AGGREGATES, 'distinct'])}")
        if func != "count" and column not in header:
            raise ValueError(f"{spec!r} needs a column, e.g. sum:amount; columns are: {', '.join(header)}")
        specs.append((func, column))
    groups: OrderedDict[tuple, list[list[str]]] = OrderedDict()
    for row in rows:
        groups.setdefault(tuple(row[header.index(column)] for column in by), []).append(row)
    out_header = list(by) + [f"{func}({column})" if column else func for func, column in specs]
    out_rows = []
    for key, members in groups.items():
        values = list(key)
        for func, column in specs:
            if func == "count" and not column:
                values.append(len(members))
                continue
            cells = [member[header.index(column)] for member in members]
            if func == "distinct":
                values.append(len({cell for cell in cells if not is_missing(cell)}))
            elif func == "count":
                values.append(sum(not is_missing(cell) for cell in cells))
            else:
                numbers = [n for n in (to_number(cell) for cell in cells) if n is not None]
                values.append(AGGREGATES[func](numbers))
        out_rows.append(values)
    return out_header, out_rows


# ---------------------------------------------------------------- command line


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p_profile = commands.add_parser("profile", help="columns, kinds, missing values and summary statistics")
    p_profile.add_argument("file")
    p_profile.add_argument("--sheet")
    p_profile.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    p_sheets = commands.add_parser("sheets", help="list the tables of a Markdown file (Excel sheets)")
    p_sheets.add_argument("file")
    p_csv = commands.add_parser("to-csv", help="write the table as a clean CSV file")
    p_csv.add_argument("file")
    p_csv.add_argument("out")
    p_csv.add_argument("--sheet")
    p_group = commands.add_parser("group", help="group rows and aggregate columns")
    p_group.add_argument("file")
    p_group.add_argument("--by", required=True, help="comma-separated columns")
    p_group.add_argument("--agg", action="append", default=[], help="FUNC:COLUMN, repeatable (default: count)")
    p_group.add_argument("--where")
    p_group.add_argument("--sort")
    p_group.add_argument("--desc", action="store_true")
    p_group.add_argument("--limit", type=int)
    p_group.add_argument("--sheet")
    p_group.add_argument("--out", help="also write the result as CSV")
    args = parser.parse_args(argv)

    try:
        if args.command == "sheets":
            with open(args.file, encoding="utf-8-sig", errors="replace") as handle:
                for name, rows in markdown_tables(handle.read()).items():
                    print(f"{name}\t{max(len(rows) - 1, 0)} rows")
            return 0
        header, rows = load_table(args.file, args.sheet)
        if args.command == "profile":
            result = profile(header, rows)
            print(json.dumps(result, indent=2, default=str) if args.json else profile_markdown(args.file, result))
        elif args.command == "to-csv":
            with open(args.out, "w", newline="", encoding="utf-8") as handle:
                writer = csv.writer(handle)
                writer.writerow(header)
                writer.writerows(rows)
            print(f"Wrote {len(rows):,} rows to {args.out}")
        else:
            keep = row_filter(header, args.where)
            out_header, out_rows = group(header, [row for row in rows if keep(row)], args.by.split(","), args.agg)
            if args.sort:
                if args.sort not in out_header:
                    raise ValueError(f"cannot sort by {args.sort!r}; result columns are: {', '.join(out_header)}")
                column = out_header.index(args.sort)
                out_rows.sort(key=lambda row: (row[column] is None, _sort_key(row[column])), reverse=args.desc)
            if args.limit:
                out_rows = out_rows[: args.limit]
            print("| " + " | ".join(out_header) + " |")
            print("|" + " --- |" * len(out_header))
            for row in out_rows:
                print("| " + " | ".join(_cell(value) for value in row) + " |")
            if args.out:
                with open(args.out, "w", newline="", encoding="utf-8") as handle:
                    writer = csv.writer(handle)
                    writer.writerow(out_header)
                    writer.writerows(out_rows)
                print(f"\nWrote {len(out_rows):,} rows to {args.out}")
    except (OSError, ValueError) as error:
        print(f"table_tool: {error}", file=sys.stderr)
        return 1
    return 0


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        return fmt(value)
    return str(value).replace("|", "\\|").replace("\n", " ")


def _sort_key(value):
    if isinstance(value, (int, float)):
        return (0, value, "")
    number = to_number(str(value))
    return (0, number, "") if number is not None else (1, 0, str(value).lower())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
