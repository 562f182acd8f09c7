#!/usr/bin/env python3
"""Build a self-contained HTML slide deck from a Markdown file. Standard library only.

Usage:
  python3 md_to_deck.py SLIDES.md -o /mnt/user-data/outputs/deck.html [--title T] [--lang en] [--theme dark]
                        [--template my-deck.html]

Markdown rules:
  - Slides are separated by a line containing only ---.
  - An optional YAML-like header before the first slide (title:, lang:, theme:) between --- lines is read too.
  - The first slide, and any slide made only of a "# " heading and short paragraphs, is styled as a title slide.
  - Supported: # / ## / ### headings, paragraphs, - or * bullets (nested by two or more spaces), 1. lists,
    > quotes, ``` code blocks, | tables |, **bold**, *italic*, `code`, [links](url), ![images](path).
  - A paragraph starting with "Notes:" (and everything after it on the slide) becomes speaker notes (press n).
  - Local images (.svg, .png, .jpg, .gif, .webp) are embedded: SVG inline, others as data: URLs, so the deck
    stays one file. Paths are read as given (absolute, or relative to the Markdown file).
"""
from __future__ import annotations

import argparse
import base64
import os
import re
import sys
from html import escape

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "templates", "deck.html")
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}


class Converter:
    def __init__(self, base_dir: str):
        self.base_dir = base_dir
        self.warnings: list[str] = []

    # ------------------------------------------------------------ inline

    def image(self, alt: str, src: str) -> str:
        path = src if os.path.isabs(src) else os.path.join(self.base_dir, src)
        extension = os.path.splitext(src)[1].lower()
        if re.match(r"^(https?:)?//", src):
            self.warnings.append(f"image {src} is remote; it will not show offline. Save it locally instead.")
            return f'<img alt="{escape(alt)}" src="{escape(src)}">'
        try:
            if extension == ".svg":
                with open(path, encoding="utf-8") as handle:
                    svg = handle.read()
                svg = re.sub(r"^\s*<\?xml[^>]*>\s*", "", svg)
                return f'<figure role="img" aria-label="{escape(alt)}">{svg}</figure>'
            if extension in IMAGE_TYPES:
                with open(path, "rb") as handle:
                    data = base64.b64encode(handle.read()).decode("ascii")
                return f'<img alt="{escape(alt)}" src="data:{IMAGE_TYPES[extension]};base64,{data}">'
        except OSError:
            self.warnings.append(f"image {src} was not found at {path}")
            return f"<em>[missing image: {escape(alt or src)}]</em>"
        self.warnings.append(f"image {src} has an unsupported type")
        return f"<em>[image: {escape(alt or src)}]</em>"

    def inline(self, text: str) -> str:
        placeholders: list[str] = []

        def keep(html: str) -> str:
            placeholders.append(html)
            return f"\x00{len(placeholders) - 1}\x00"

        text = re.sub(r"`([^`]+)`", lambda m: keep(f"<code>{escape(m.group(1))}</code>"), text)
        text = re.sub(r"!\[([^\]]*)\]\(([^)\s]+)\)", lambda m: keep(self.image(m.group(1), m.group(2))), text)
        text = re.sub(
            r"\[([^\]]+)\]\(([^)\s]+)\)",
            lambda m: keep(f'<a href="{escape(m.group(2))}" target="_blank" rel="noopener">{escape(m.group(1))}</a>'),
            text,
        )
        text = escape(text, quote=False)
        text = re.sub(r"\*\*(.+?)\*\*|__(.+?)__", lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
        text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)",
                      lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
        return re.sub(r"\x00(\d+)\x00", lambda m: placeholders[int(m.group(1))], text)

    # ------------------------------------------------------------ blocks

    def list_block(self, lines: list[str]) -> str:
        """Nested lists from lines like "- a", "  - b", "1. c"."""
        html: list[str] = []
        stack: list[tuple[int, str]] = []
        for line in lines:
            match = re.match(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$", line)
            if not match:
                if html:
                    html[-1] = html[-1].replace("</li>", f" {self.inline(line.strip())}</li>")
                continue
            indent = len(match.group(1).replace("\t", "    "))
            tag = "ol" if match.group(2)[0].isdigit() else "ul"
            while stack and indent < stack[-1][0]:
                html.append(f"</{stack.pop()[1]}></li>")
            if not stack or indent > stack[-1][0]:
                if stack and html and html[-1].endswith("</li>"):
                    html[-1] = html[-1][: -len("</li>")]
                stack.append((indent, tag))
                html.append(f"<{tag}>")
            html.append(f"<li>{self.inline(match.group(3))}</li>")
        while stack:
            html.append(f"</{stack.pop()[1]}>")
            if stack:
                html.append("</li>")
        return "".join(html)

    def table_block(self, lines: list[str]) -> str:
        def cells(line: str) -> list[str]:
            return [cell.strip() for cell in line.strip().strip("|").split("|")]

        header, rows = cells(lines[0]), [cells(line) for line in lines[2:]]
        head = "".join(f'<th scope="col">{self.inline(cell)}</th>' for cell in header)
        body = "".join("<tr>" + "".join(f"<td>{self.inline(cell)}</td>" for cell in row) + "</tr>" for row in rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def slide(self, source: str, index: int) -> str:
        lines = source.strip("\n").split("\n")
        blocks: list[str] = []
        notes: list[str] = []
        target = blocks
        position = 0
        while position < len(lines):
            line = lines[position]
            stripped = line.strip()
            if not stripped:
                position += 1
                continue
            if stripped.lower().startswith(("notes:", "note:")) and target is blocks:
                target = notes
                rest = stripped.split(":", 1)[1].strip()
                if rest:
                    notes.append(f"<p>{self.inline(rest)}</p>")
                position += 1
                continue
            if stripped.startswith("```"):
                language = stripped[3:].strip()
                code: list[str] = []
                position += 1
                while position < len(lines) and not lines[position].strip().startswith("```"):
                    code.append(lines[position])
                    position += 1
                position += 1
                attribute = f' class="language-{escape(language)}"' if language else ""
                target.append(f"<pre><code{attribute}>{escape(chr(10).join(code))}</code></pre>")
                continue
            heading = re.match(r"^(#{1,3})\s+(.*)$", stripped)
            if heading:
                level = len(heading.group(1))
                target.append(f"<h{level}>{self.inline(heading.group(2))}</h{level}>")
                position += 1
                continue
            if stripped.startswith("|") and position + 1 < len(lines) and re.match(r"^\s*\|?\s*:?-{3,}", lines[position + 1]):
                table = []
                while position < len(lines) and lines[position].strip().startswith("|"):
                    table.append(lines[position])
                    position += 1
                target.append(self.table_block(table))
                continue
            if re.match(r"^([-*+]|\d+[.)])\s+", stripped):
                items = []
                while position < len(lines) and lines[position].strip():
                    items.append(lines[position])
                    position += 1
                target.append(self.list_block(items))
                continue
            if stripped.startswith(">"):
                quote = []
                while position < len(lines) and lines[position].strip().startswith(">"):
                    quote.append(lines[position].strip()[1:].strip())
                    position += 1
                target.append(f"<blockquote><p>{self.inline(' '.join(quote))}</p></blockquote>")
                continue
            paragraph = []
            while position < len(lines) and lines[position].strip() and not re.match(
                r"^(#{1,3}\s|```|>|\||([-*+]|\d+[.)])\s)", lines[position].strip()
            ):
                paragraph.append(lines[position].strip())
                position += 1
            text = " ".join(paragraph)
            only_image = re.fullmatch(r"!\[[^\]]*\]\([^)\s]+\)", text)
            target.append(self.inline(text) if only_image else f"<p>{self.inline(text)}</p>")

        is_title = index == 0 or (
            blocks and blocks[0].startswith("<h1>") and all(block.startswith(("<h1>", "<p>")) for block in blocks)
            and len(blocks) <= 3
        )
        classes = "slide title-slide" if is_title else "slide"
        notes_html = f'<aside class="notes">{"".join(notes)}</aside>' if notes else ""
        return (f'<section class="{classes}" aria-roledescription="slide" aria-label="Slide {index + 1}">'
                f'{"".join(blocks)}{notes_html}</section>')


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    match = re.match(r"^---\s*\n(.*?)\n---\s*\n", text, re.S)
    if not match or not all(re.match(r"^\s*[\w-]+\s*:", line) for line in match.group(1).splitlines() if line.strip()):
        return {}, text
    fields = {}
    for line in match.group(1).splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip().lower()] = value.strip().strip("'\"")
    return fields, text[match.end():]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("markdown")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--title")
    parser.add_argument("--lang")
    parser.add_argument("--theme", choices=["light", "dark"])
    parser.add_argument("--template", default=TEMPLATE, help="an HTML template with {{TITLE}}, {{LANG}}, {{SLIDES}}")
    args = parser.parse_args(argv)
    try:
        with open(args.markdown, encoding="utf-8") as handle:
            text = handle.read().replace("\r\n", "\n")
        with open(args.template, encoding="utf-8") as handle:
            template = handle.read()
    except OSError as error:
        print(f"md_to_deck: {error}", file=sys.stderr)
        return 1
    fields, body = split_front_matter(text)
    sources = [part for part in re.split(r"\n[ \t]*---[ \t]*\n", "\n" + body + "\n") if part.strip()]
    if not sources:
        print("md_to_deck: the Markdown file has no slides", file=sys.stderr)
        return 1
    converter = Converter(os.path.dirname(os.path.abspath(args.markdown)))
    slides = [converter.slide(source, index) for index, source in enumerate(sources)]
    first_heading = re.search(r"^#\s+(.+)$", sources[0], re.M)
    title = args.title or fields.get("title") or (first_heading.group(1).strip() if first_heading else "Slides")
    lang = args.lang or fields.get("lang") or "en"
    html = (template.replace("{{TITLE}}", escape(title)).replace("{{LANG}}", escape(lang))
            .replace("{{SLIDES}}", "\n      ".join(slides)))
    if (args.theme or fields.get("theme")) == "dark":
        html = html.replace('<html lang="', '<html class="theme-dark" lang="', 1)
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(html)
    for warning in converter.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"Wrote {args.output}: {len(slides)} slides, {len(html.encode('utf-8')):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
