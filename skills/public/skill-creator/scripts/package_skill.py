#!/usr/bin/env python3
"""Check a skill folder against the rules Fawn applies at install, then zip it into <name>.skill.
Standard library only.

Usage:
  python3 package_skill.py /mnt/user-data/workspace/my-skill            # writes /mnt/user-data/outputs/my-skill.skill
  python3 package_skill.py /mnt/user-data/workspace/my-skill -o OUT_DIR
  python3 package_skill.py /mnt/user-data/workspace/my-skill --check    # validate only

The rules (the same Fawn checks when the archive is installed from Settings → Skills):
  - SKILL.md at the folder's root, starting with frontmatter between two '---' lines.
  - Frontmatter keys limited to: name, description, license, allowed-tools, required-secrets,
    secrets-autonomous, metadata, compatibility, version, author.
  - name: hyphen-case (a-z, 0-9, single hyphens inside), at most 64 characters.
  - description: text of at most 1024 characters, without '<' or '>'.
  - allowed-tools, if present: a list of tool names.
  - No other SKILL.md deeper in the folder, no native executables, no files over 10 MiB, at most 100 MiB and
    4096 files in all.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import zipfile

ALLOWED_KEYS = {"name", "description", "license", "allowed-tools", "required-secrets", "secrets-autonomous",
                "metadata", "compatibility", "version", "author"}
EXECUTABLE_MAGIC = (b"\x7fELF", b"MZ", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe",
                    b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
MAX_FILE = 10 * 1024 * 1024
MAX_TOTAL = 100 * 1024 * 1024
MAX_ENTRIES = 4096
SKIPPED_DIRS = {"__pycache__", ".git", "node_modules", "__MACOSX"}


def parse_scalar(value: str) -> object:
    value = value.strip()
    if value in ("", "~", "null"):
        return None
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        return [] if not inner else [parse_scalar(item) for item in inner.split(",")]
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if value in ("true", "false"):
        return value == "true"
    return value


def read_frontmatter(text: str) -> tuple[dict, list[str]]:
    """A small reader for the frontmatter shapes skills use: key: value, folded/literal blocks, lists."""
    problems: list[str] = []
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    match = re.match(r"^---[ \t]*\n(?:(.*?)\n)?---[ \t]*(?:\n|$)", text, re.S)
    if not match:
        return {}, ["SKILL.md must start with frontmatter: a line '---', the fields, then another line '---'"]
    lines = (match.group(1) or "").split("\n")
    data: dict = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip() or line.lstrip().startswith("#"):
            index += 1
            continue
        if line[0] in " \t":
            index += 1
            continue  # nested content of a mapping such as metadata:
        key_match = re.match(r"^([^:#]+?)\s*:(?:\s+(.*)|\s*)$", line)
        if not key_match:
            problems.append(f"frontmatter line {index + 2} is not 'key: value': {line.strip()}")
            index += 1
            continue
        key, value = key_match.group(1).strip(), (key_match.group(2) or "").strip()
        if value and not value[0] in "'\"[{|>" and ": " in value:
            problems.append(f'frontmatter line {index + 2}: the value contains ": " and must be quoted, e.g. {key}: "{value}"')
        index += 1
        if value in ("|", ">", "|-", ">-", "|+", ">+"):
            block = []
            while index < len(lines) and (not lines[index].strip() or lines[index][0] in " \t"):
                block.append(lines[index].strip())
                index += 1
            data[key] = ("\n" if value.startswith("|") else " ").join(part for part in block if part).strip()
        elif value == "":
            items = []
            while index < len(lines) and (not lines[index].strip() or lines[index][0] in " \t"):
                item = lines[index].strip()
                if item.startswith("- "):
                    items.append(parse_scalar(item[2:]))
                index += 1
            data[key] = items if items else None
        else:
            data[key] = parse_scalar(value)
    return data, problems


def validate_frontmatter(text: str) -> list[str]:
    data, problems = read_frontmatter(text)
    if problems:
        return problems
    for key in data:
        if key not in ALLOWED_KEYS:
            problems.append(f"unexpected key '{key}' (allowed: {', '.join(sorted(ALLOWED_KEYS))})")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append("'name' is missing or not text")
    else:
        if not re.fullmatch(r"[a-z0-9-]+", name):
            problems.append(f"name '{name}' must be hyphen-case: lowercase letters, digits and hyphens")
        elif name.startswith("-") or name.endswith("-") or "--" in name:
            problems.append(f"name '{name}' must not start or end with a hyphen or contain '--'")
        if len(name) > 64:
            problems.append(f"name '{name}' is too long ({len(name)} > 64)")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append("'description' is missing or not text")
    else:
        if "<" in description or ">" in description:
            problems.append("'description' must not contain '<' or '>'")
        if len(description) > 1024:
            problems.append(f"'description' is too long ({len(description)} > 1024)")
    tools = data.get("allowed-tools")
    if "allowed-tools" in data and tools is not None:
        if not isinstance(tools, list) or not all(isinstance(tool, str) and tool.strip() for tool in tools):
            problems.append("'allowed-tools' must be a list of tool names, e.g. [bash, read_file]")
    for key in ("license", "author", "compatibility"):
        if data.get(key) is not None and not isinstance(data[key], str):
            problems.append(f"'{key}' must be text")
    return problems


def collect(folder: str) -> tuple[list[tuple[str, str]], list[str]]:
    """(archive path, file path) pairs, and problems."""
    files, problems, total = [], [], 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            path = os.path.join(root, name)
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            if os.path.islink(path):
                problems.append(f"{relative} is a symbolic link; copy the real file instead")
                continue
            size = os.path.getsize(path)
            total += size
            if size > MAX_FILE:
                problems.append(f"{relative} is {size / 1024 / 1024:.1f} MiB; at most 10 MiB per file")
            with open(path, "rb") as handle:
                if handle.read(4).startswith(EXECUTABLE_MAGIC):
                    problems.append(f"{relative} is a native executable; skills may ship scripts, not programs")
            if name == "SKILL.md" and relative != "SKILL.md":
                problems.append(f"{relative}: only one SKILL.md, at the root, is allowed")
            files.append((relative, path))
    if total > MAX_TOTAL:
        problems.append(f"the skill holds {total / 1024 / 1024:.1f} MiB; at most 100 MiB")
    if len(files) > MAX_ENTRIES:
        problems.append(f"the skill holds {len(files)} files; at most {MAX_ENTRIES}")
    return files, problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="the skill's folder (it holds SKILL.md)")
    parser.add_argument("-o", "--output-dir", default="/mnt/user-data/outputs")
    parser.add_argument("--check", action="store_true", help="validate without writing the archive")
    args = parser.parse_args(argv)
    folder = os.path.abspath(args.folder)
    skill_md = os.path.join(folder, "SKILL.md")
    if not os.path.isfile(skill_md):
        print(f"package_skill: no SKILL.md in {folder}", file=sys.stderr)
        return 1
    with open(skill_md, encoding="utf-8") as handle:
        text = handle.read()
    problems = validate_frontmatter(text)
    files, file_problems = collect(folder)
    problems += file_problems
    data, _ = read_frontmatter(text)
    name = data.get("name")
    if isinstance(name, str) and name != os.path.basename(folder):
        print(f"note: the folder is '{os.path.basename(folder)}' but the skill is named '{name}'; "
              f"it installs as '{name}'")
    if problems:
        print("The skill is not ready:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    if args.check:
        print(f"OK: '{name}' is valid ({len(files)} files)")
        return 0
    os.makedirs(args.output_dir, exist_ok=True)
    archive = os.path.join(args.output_dir, f"{name}.skill")
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for relative, path in files:
            bundle.write(path, f"{name}/{relative}")
    print(f"Wrote {archive} ({len(files)} files, {os.path.getsize(archive):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
