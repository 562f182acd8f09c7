#!/usr/bin/env python3
"""Print the outline of a long text or Markdown document with line numbers, so it can be read in parts.
Standard library only.

Usage: python3 outline.py FILE [--chunk-lines 400]

Prints the size (lines, words, rough tokens), every Markdown heading (including Fawn's "## Page N" and
"## Slide N" sections of converted PDF and PowerPoint files) with its line number and length, and a suggested
split into read_file ranges of about --chunk-lines lines that start at headings where possible.
"""
from __future__ import annotations

import argparse
import re
import sys


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--chunk-lines", type=int, default=400)
    parser.add_argument("--max-headings", type=int, default=200)
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        print(f"outline: {error}", file=sys.stderr)
        return 1

    words = sum(len(line.split()) for line in lines)
    characters = sum(len(line) for line in lines)
    print(f"{args.file}: {len(lines):,} lines, {words:,} words, about {characters // 4:,} tokens")

    headings = []
    in_code = False
    for number, line in enumerate(lines, start=1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        match = None if in_code else re.match(r"^(#{1,6})\s+(.+?)\s*#*\s*$", line)
        if match:
            headings.append((number, len(match.group(1)), match.group(2)))

    if headings:
        print(f"\nOutline ({len(headings)} headings):")
        for index, (number, level, title) in enumerate(headings[: args.max_headings]):
            end = headings[index + 1][0] - 1 if index + 1 < len(headings) else len(lines)
            print(f"{'  ' * (level - 1)}- L{number}-{end} ({end - number + 1} lines) {title[:100]}")
        if len(headings) > args.max_headings:
            print(f"  … {len(headings) - args.max_headings} more headings")
    else:
        print("\nNo headings: split by line ranges.")

    starts = {number for number, _, _ in headings}
    chunks, start = [], 1
    while start <= len(lines):
        end = min(start + args.chunk_lines - 1, len(lines))
        if end < len(lines):
            # Prefer to end just before a heading in the last quarter of the chunk.
            candidates = [n - 1 for n in starts if start + args.chunk_lines * 3 // 4 <= n - 1 < end]
            if candidates:
                end = max(candidates)
        chunks.append((start, end))
        start = end + 1
    print(f"\nSuggested read_file ranges ({len(chunks)}):")
    for start, end in chunks:
        print(f"- start_line={start} end_line={end}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
