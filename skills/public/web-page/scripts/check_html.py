#!/usr/bin/env python3
"""Check that an HTML file is self-contained and well formed before handing it over. Standard library only.

Usage: python3 check_html.py /mnt/user-data/outputs/page.html [more.html ...]

Reports (and exits 1 on) errors: resources loaded from the network or from other files (scripts, styles,
images, fonts, iframes, CSS @import/url()), unclosed or mismatched tags, a missing <title> or <html lang>.
Reports warnings: no viewport meta, images without alt text, inputs without a label, alert()/prompt() calls
(blocked in a sandboxed preview), localStorage/sessionStorage used without try/catch, a file over 2 MB.
"""
from __future__ import annotations

import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
# Tags whose end tag may be left out in valid HTML.
OPTIONAL_END = {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup", "colgroup",
                "rt", "rp", "html", "head", "body"}
RESOURCE_ATTRIBUTES = {
    "script": ["src"],
    "link": ["href"],
    "img": ["src", "srcset"],
    "source": ["src", "srcset"],
    "video": ["src", "poster"],
    "audio": ["src"],
    "iframe": ["src"],
    "embed": ["src"],
    "object": ["data"],
    "track": ["src"],
    "input": ["src"],
}
CSS_EXTERNAL = re.compile(r"@import\s+(?:url\()?\s*['\"]?(?!data:)([^'\")\s;]+)|url\(\s*['\"]?(?!data:|#)([^'\")]+)")


def is_external(value: str) -> bool:
    value = value.strip()
    return bool(value) and not value.startswith(("data:", "#", "javascript:", "about:"))


class Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.stack: list[tuple[str, int]] = []
        self.has_title = False
        self.has_lang = False
        self.has_viewport = False
        self.labelled_ids: set[str] = set()
        self.inputs: list[tuple[str | None, int, bool]] = []
        self.in_label = 0
        self.current: str | None = None
        self.scripts: list[str] = []

    def where(self) -> str:
        return f"line {self.getpos()[0]}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: (value or "") for name, value in attrs}
        if tag == "html" and values.get("lang"):
            self.has_lang = True
        if tag == "meta" and values.get("name", "").lower() == "viewport":
            self.has_viewport = True
        if tag == "link" and "stylesheet" not in values.get("rel", "").lower() and "icon" not in values.get("rel", "").lower():
            pass  # preconnect, canonical and the like load nothing themselves
        elif tag in RESOURCE_ATTRIBUTES:
            for attribute in RESOURCE_ATTRIBUTES[tag]:
                value = values.get(attribute, "")
                if is_external(value):
                    self.errors.append(f"{self.where()}: <{tag} {attribute}=\"{value[:80]}\"> loads an outside resource;"
                                       " inline it (or use a data: URL)")
        if tag == "a" and values.get("href", "").startswith(("http://", "https://")) and values.get("target") != "_blank":
            self.warnings.append(f"{self.where()}: external link {values['href'][:60]} opens inside the preview;"
                                 " add target=\"_blank\" rel=\"noopener\"")
        if "style" in values:
            self.check_css(values["style"])
        if tag == "img" and "alt" not in values:
            self.warnings.append(f"{self.where()}: <img> without alt text")
        if tag == "label":
            self.in_label += 1
            if values.get("for"):
                self.labelled_ids.add(values["for"])
        if tag in ("input", "select", "textarea") and values.get("type", "") not in ("hidden", "submit", "button", "reset"):
            labelled = bool(self.in_label or values.get("aria-label") or values.get("aria-labelledby") or values.get("title"))
            self.inputs.append((values.get("id"), self.getpos()[0], labelled))
        if tag in ("script", "style", "title"):
            self.current = tag
            if tag == "title":
                self.has_title = True
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label = max(self.in_label - 1, 0)
        if tag in VOID:
            return
        self.current = None
        if not any(open_tag == tag for open_tag, _ in self.stack):
            self.errors.append(f"{self.where()}: </{tag}> closes nothing")
            return
        while self.stack:
            open_tag, line = self.stack.pop()
            if open_tag == tag:
                return
            if open_tag not in OPTIONAL_END:
                self.errors.append(f"line {line}: <{open_tag}> is not closed before </{tag}> on {self.where()}")

    def handle_data(self, data: str) -> None:
        if self.current == "script":
            self.scripts.append(data)
        elif self.current == "style":
            self.check_css(data)

    def check_css(self, css: str) -> None:
        for match in CSS_EXTERNAL.finditer(css):
            target = match.group(1) or match.group(2) or ""
            if is_external(target):
                self.errors.append(f"{self.where()}: CSS loads {target[:80]}; inline it or use a data: URL")

    def finish(self) -> None:
        for tag, line in self.stack:
            if tag not in OPTIONAL_END:
                self.errors.append(f"line {line}: <{tag}> is never closed")
        script = "\n".join(self.scripts)
        if re.search(r"\b(alert|prompt|confirm)\s*\(", script):
            self.warnings.append("alert()/prompt()/confirm() are blocked in a sandboxed preview; show messages in the page")
        if re.search(r"\b(localStorage|sessionStorage|indexedDB)\b", script) and "try" not in script:
            self.warnings.append("storage APIs may throw in a sandboxed preview; wrap them in try/catch and keep working")
        if re.search(r"\bimport\s*\(\s*['\"]https?:|\bfetch\s*\(\s*['\"]https?:", script):
            self.warnings.append("the script fetches from the network; the page should work without it")
        for element_id, line, labelled in self.inputs:
            if not labelled and element_id not in self.labelled_ids:
                self.warnings.append(f"line {line}: form control without a label (use <label>, aria-label or title)")
        if not self.has_title:
            self.errors.append("no <title>")
        if not self.has_lang:
            self.errors.append('no lang attribute on <html> (e.g. <html lang="en">)')
        if not self.has_viewport:
            self.warnings.append('no <meta name="viewport" content="width=device-width, initial-scale=1">')


def check(path: str) -> int:
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    checker = Checker()
    checker.feed(text)
    checker.close()
    checker.finish()
    size = len(text.encode("utf-8"))
    if size > 2 * 1024 * 1024:
        checker.warnings.append(f"the file is {size / 1024 / 1024:.1f} MB; large inline data slows the preview")
    print(f"{path}: {len(checker.errors)} error(s), {len(checker.warnings)} warning(s), {size:,} bytes")
    for error in checker.errors:
        print(f"  error: {error}")
    for warning in checker.warnings:
        print(f"  warning: {warning}")
    return 1 if checker.errors else 0


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__.strip())
        return 2
    status = 0
    for path in paths:
        try:
            status |= check(path)
        except OSError as error:
            print(f"{path}: {error}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
