#!/usr/bin/env python3
"""Render a bar, line or pie chart as a standalone SVG file from a JSON spec. Standard library only.

Usage:
  python3 svg_chart.py SPEC.json -o /mnt/user-data/outputs/chart.svg
  echo '{"type": "bar", ...}' | python3 svg_chart.py - -o chart.svg

Spec (only "type", "labels" and "series" are required):
  {
    "type": "bar" | "line" | "pie",
    "title": "Revenue by quarter",
    "subtitle": "2024, in thousands of euros",
    "labels": ["Q1", "Q2", "Q3", "Q4"],
    "series": [{"name": "North", "values": [12, 15, 9, 20]}, {"name": "South", "values": [8, 11, 14, 10]}],
    "x_label": "Quarter", "y_label": "k€",
    "width": 800, "height": 480,
    "stacked": false,           # bar: stack the series instead of placing them side by side
    "horizontal": false,        # bar: bars grow to the right (good for long labels)
    "show_values": false,       # print each value on its bar / point
    "y_min": 0, "y_max": null,  # force the value axis range
    "value_format": "{:,.0f}",  # Python format for values on axes and labels
    "colors": ["#4e79a7", "#f28e2b"],
    "theme": "light" | "dark",
    "donut": 0.55               # pie: hole size as a fraction of the radius (0 = full pie)
  }
A pie chart uses the first series only. Use null in "values" for a missing point (line charts leave a gap).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from html import escape

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
THEMES = {
    "light": {"background": "#ffffff", "text": "#1f2328", "muted": "#57606a", "grid": "#d8dee4", "axis": "#8c959f"},
    "dark": {"background": "#0d1117", "text": "#e6edf3", "muted": "#9da7b3", "grid": "#30363d", "axis": "#6e7681"},
}
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


class SpecError(ValueError):
    pass


def nice_number(value: float, round_it: bool) -> float:
    """A 1, 2 or 5 times a power of ten close to value (Heckbert's nice numbers)."""
    if value <= 0:
        return 1.0
    exponent = math.floor(math.log10(value))
    fraction = value / 10**exponent
    if round_it:
        nice = 1 if fraction < 1.5 else 2 if fraction < 3 else 5 if fraction < 7 else 10
    else:
        nice = 1 if fraction <= 1 else 2 if fraction <= 2 else 5 if fraction <= 5 else 10
    return nice * 10**exponent


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    if high == low:
        high, low = (high + 1, low - 1) if high != 0 else (1, 0)
    step = nice_number(nice_number(high - low, False) / max(count - 1, 1), True)
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    ticks, value = [], start
    while value <= end + step / 2:
        ticks.append(round(value, 10))
        value += step
    return ticks


def text_width(text: str, size: float) -> float:
    """A rough width for layout: average glyph ~0.58em, wide characters ~1em."""
    return sum(size * (1.0 if ord(char) > 0x2E80 else 0.58) for char in text)


def fit(text: str, size: float, width: float) -> str:
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


class Chart:
    def __init__(self, spec: dict):
        self.spec = spec
        self.kind = spec.get("type", "bar")
        if self.kind not in ("bar", "line", "pie"):
            raise SpecError(f'"type" must be "bar", "line" or "pie", not {self.kind!r}')
        self.labels = [str(label) for label in spec.get("labels") or []]
        raw_series = spec.get("series")
        if not isinstance(raw_series, list) or not raw_series:
            raise SpecError('"series" must be a non-empty list of {"name": ..., "values": [...]}')
        self.series = []
        for index, item in enumerate(raw_series):
            if isinstance(item, list):
                item = {"name": f"Series {index + 1}", "values": item}
            values = item.get("values") if isinstance(item, dict) else None
            if not isinstance(values, list):
                raise SpecError(f"series {index + 1} needs a list of values")
            clean = []
            for value in values:
                if value is None:
                    clean.append(None)
                elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                    clean.append(float(value))
                else:
                    raise SpecError(f"series {index + 1} has a value that is not a number: {value!r}")
            self.series.append({"name": str(item.get("name", f"Series {index + 1}")), "values": clean})
        longest = max(len(series["values"]) for series in self.series)
        if not self.labels:
            self.labels = [str(index + 1) for index in range(longest)]
        for series in self.series:
            series["values"] += [None] * (len(self.labels) - len(series["values"]))
            series["values"] = series["values"][: len(self.labels)]
        self.width = int(spec.get("width") or 800)
        self.height = int(spec.get("height") or 480)
        self.theme = THEMES.get(spec.get("theme", "light"), THEMES["light"])
        self.colors = list(spec.get("colors") or []) + PALETTE
        self.value_format = spec.get("value_format") or "{:,.4g}"
        self.parts: list[str] = []

    def fmt(self, value: float) -> str:
        try:
            text = self.value_format.format(value)
        except (ValueError, IndexError, KeyError):
            text = f"{value:,.4g}"
        return text

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x, y, content, size=12, anchor="start", color=None, weight="normal", rotate=None, baseline=None):
        transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate else ""
        base = f' dominant-baseline="{baseline}"' if baseline else ""
        self.add(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}"'
            f' fill="{color or self.theme["text"]}"{transform}{base}>{escape(content)}</text>'
        )

    # ------------------------------------------------------------ layout pieces

    def header(self) -> float:
        top = 16.0
        if self.spec.get("title"):
            top += 20
            self.text(self.width / 2, top, fit(str(self.spec["title"]), 18, self.width - 32), 18, "middle", weight="600")
        if self.spec.get("subtitle"):
            top += 20
            self.text(self.width / 2, top, fit(str(self.spec["subtitle"]), 13, self.width - 32), 13, "middle",
                      self.theme["muted"])
        return top + 14

    def legend_rows(self, names: list[str]) -> list[tuple[list[tuple[int, str, float]], float]]:
        """The legend's items wrapped into centered rows: ([(series index, name, width)], row width)."""
        if len(names) < 2 and self.kind != "pie":
            return []
        rows, row, row_width = [], [], 0.0
        for index, name in enumerate(names):
            width = 18 + text_width(name, 12) + 18
            if row and row_width + width > self.width - 40:
                rows.append((row, row_width))
                row, row_width = [], 0.0
            row.append((index, name, width))
            row_width += width
        if row:
            rows.append((row, row_width))
        return rows

    def legend(self, rows, y: float) -> float:
        """Draws the legend rows from y; returns the height used."""
        for row_index, (row, row_width) in enumerate(rows):
            x = (self.width - row_width) / 2
            line_y = y + row_index * 20
            for index, name, width in row:
                self.add(f'<rect x="{x:.1f}" y="{line_y - 9:.1f}" width="12" height="12" rx="2"'
                         f' fill="{self.colors[index % len(self.colors)]}"/>')
                self.text(x + 18, line_y + 1, name, 12, color=self.theme["muted"])
                x += width
        return len(rows) * 20 + 6 if rows else 0.0

    # ------------------------------------------------------------ charts

    def value_range(self) -> tuple[float, float]:
        stacked = self.kind == "bar" and self.spec.get("stacked")
        if stacked:
            positives = [sum(max(s["values"][i] or 0, 0) for s in self.series) for i in range(len(self.labels))]
            negatives = [sum(min(s["values"][i] or 0, 0) for s in self.series) for i in range(len(self.labels))]
            low, high = min(negatives + [0]), max(positives + [0])
        else:
            values = [v for s in self.series for v in s["values"] if v is not None]
            if not values:
                raise SpecError("there are no values to plot")
            low, high = min(values), max(values)
            if self.kind == "bar":
                low, high = min(low, 0), max(high, 0)
        if self.spec.get("y_min") is not None:
            low = float(self.spec["y_min"])
        if self.spec.get("y_max") is not None:
            high = float(self.spec["y_max"])
        return low, high

    def axes_chart(self) -> None:
        top = self.header()
        names = [series["name"] for series in self.series]
        legend_height = self.legend(self.legend_rows(names), top + 4)
        top += legend_height
        horizontal = self.kind == "bar" and bool(self.spec.get("horizontal"))
        low, high = self.value_range()
        ticks = nice_ticks(low, high)
        if self.spec.get("y_min") is None:
            low = min(low, ticks[0])
        if self.spec.get("y_max") is None:
            high = max(high, ticks[-1])
        ticks = [tick for tick in ticks if low - 1e-9 <= tick <= high + 1e-9]
        tick_labels = [self.fmt(tick) for tick in ticks]

        label_width = max(text_width(label, 12) for label in self.labels)
        if horizontal:
            left = 16 + min(label_width, self.width * 0.3) + (20 if self.spec.get("x_label") else 0)
            bottom = self.height - 36 - (20 if self.spec.get("y_label") else 0)
        else:
            left = 16 + max(text_width(label, 12) for label in tick_labels) + (22 if self.spec.get("y_label") else 0)
            slot = (self.width - left - 24) / max(len(self.labels), 1)
            rotate = label_width > slot - 6
            bottom = self.height - 28 - (min(label_width, 120) * 0.7 if rotate else 0)
            bottom -= 20 if self.spec.get("x_label") else 0
        right = self.width - 24
        plot_top = top + 8

        def value_pos(value: float) -> float:
            span = (high - low) or 1
            if horizontal:
                return left + (value - low) / span * (right - left)
            return bottom - (value - low) / span * (bottom - plot_top)

        # grid and value axis
        for tick, label in zip(ticks, tick_labels):
            position = value_pos(tick)
            if horizontal:
                self.add(f'<line x1="{position:.1f}" y1="{plot_top:.1f}" x2="{position:.1f}" y2="{bottom:.1f}"'
                         f' stroke="{self.theme["grid"]}" stroke-width="1"/>')
                self.text(position, bottom + 16, label, 11, "middle", self.theme["muted"])
            else:
                self.add(f'<line x1="{left:.1f}" y1="{position:.1f}" x2="{right:.1f}" y2="{position:.1f}"'
                         f' stroke="{self.theme["grid"]}" stroke-width="1"/>')
                self.text(left - 8, position + 4, label, 11, "end", self.theme["muted"])
        zero = value_pos(min(max(0.0, low), high))
        if horizontal:
            self.add(f'<line x1="{zero:.1f}" y1="{plot_top:.1f}" x2="{zero:.1f}" y2="{bottom:.1f}"'
                     f' stroke="{self.theme["axis"]}"/>')
        else:
            self.add(f'<line x1="{left:.1f}" y1="{zero:.1f}" x2="{right:.1f}" y2="{zero:.1f}"'
                     f' stroke="{self.theme["axis"]}"/>')

        # category axis
        count = len(self.labels)
        span = (bottom - plot_top) if horizontal else (right - left)
        slot = span / max(count, 1)
        for index, label in enumerate(self.labels):
            center = (plot_top if horizontal else left) + slot * (index + 0.5)
            if horizontal:
                self.text(left - 8, center + 4, fit(label, 12, left - 24), 12, "end", self.theme["muted"])
            elif rotate:
                self.text(center, bottom + 14, fit(label, 12, 120), 12, "end", self.theme["muted"], rotate=-40)
            else:
                self.text(center, bottom + 18, label, 12, "middle", self.theme["muted"])

        # axis titles
        if self.spec.get("x_label"):
            if horizontal:
                self.text(16, (plot_top + bottom) / 2, str(self.spec["x_label"]), 12, "middle", rotate=-90)
            else:
                self.text((left + right) / 2, self.height - 10, str(self.spec["x_label"]), 12, "middle")
        if self.spec.get("y_label"):
            if horizontal:
                self.text((left + right) / 2, self.height - 10, str(self.spec["y_label"]), 12, "middle")
            else:
                self.text(16, (plot_top + bottom) / 2, str(self.spec["y_label"]), 12, "middle", rotate=-90)

        if self.kind == "bar":
            self.bars(value_pos, zero, slot, plot_top, left, horizontal)
        else:
            self.lines(value_pos, slot, left)

    def bars(self, value_pos, zero, slot, plot_top, left, horizontal) -> None:
        stacked = bool(self.spec.get("stacked"))
        groups = 1 if stacked else len(self.series)
        band = slot * 0.72
        bar = band / groups
        show = self.spec.get("show_values")
        for index, label in enumerate(self.labels):
            start = (plot_top if horizontal else left) + slot * index + (slot - band) / 2
            up, down = 0.0, 0.0
            for series_index, series in enumerate(self.series):
                value = series["values"][index]
                if value is None:
                    continue
                color = self.colors[series_index % len(self.colors)]
                if stacked:
                    base = up if value >= 0 else down
                    a, b = value_pos(base), value_pos(base + value)
                    if value >= 0:
                        up += value
                    else:
                        down += value
                    offset = start
                else:
                    a, b = zero, value_pos(value)
                    offset = start + bar * series_index
                tip = f"{series['name']} — {label}: {self.fmt(value)}" if len(self.series) > 1 else f"{label}: {self.fmt(value)}"
                thickness = max(bar - 2, 1)
                if horizontal:
                    x, w = min(a, b), abs(b - a)
                    self.add(f'<rect x="{x:.1f}" y="{offset + 1:.1f}" width="{w:.1f}" height="{thickness:.1f}"'
                             f' fill="{color}"><title>{escape(tip)}</title></rect>')
                    if show and value >= 0:
                        self.text(max(a, b) + 4, offset + bar / 2 + 4, self.fmt(value), 11, color=self.theme["muted"])
                    elif show:
                        self.text(min(a, b) - 4, offset + bar / 2 + 4, self.fmt(value), 11, "end", self.theme["muted"])
                else:
                    y, h = min(a, b), abs(b - a)
                    self.add(f'<rect x="{offset + 1:.1f}" y="{y:.1f}" width="{thickness:.1f}" height="{h:.1f}"'
                             f' fill="{color}"><title>{escape(tip)}</title></rect>')
                    if show:
                        label_y = y - 4 if value >= 0 else y + h + 13
                        self.text(offset + bar / 2, label_y, self.fmt(value), 11, "middle", self.theme["muted"])

    def lines(self, value_pos, slot, left) -> None:
        show = self.spec.get("show_values")
        for series_index, series in enumerate(self.series):
            color = self.colors[series_index % len(self.colors)]
            segments, current = [], []
            points = []
            for index, value in enumerate(series["values"]):
                if value is None:
                    if current:
                        segments.append(current)
                    current = []
                    continue
                point = (left + slot * (index + 0.5), value_pos(value))
                current.append(point)
                points.append((point, value, self.labels[index]))
            if current:
                segments.append(current)
            for segment in segments:
                path = " ".join(f"{x:.1f},{y:.1f}" for x, y in segment)
                self.add(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2.5"'
                         ' stroke-linejoin="round" stroke-linecap="round"/>')
            for (x, y), value, label in points:
                tip = f"{series['name']} — {label}: {self.fmt(value)}"
                self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}"'
                         f' stroke="{self.theme["background"]}" stroke-width="1.5"><title>{escape(tip)}</title></circle>')
                if show:
                    self.text(x, y - 8, self.fmt(value), 11, "middle", self.theme["muted"])

    def pie(self) -> None:
        top = self.header()
        values = self.series[0]["values"]
        items = [(label, value) for label, value in zip(self.labels, values) if value is not None and value > 0]
        if any(value is not None and value < 0 for value in values):
            raise SpecError("a pie chart cannot show negative values; use a bar chart")
        total = sum(value for _, value in items)
        if total <= 0:
            raise SpecError("a pie chart needs at least one positive value")
        names = [f"{label} ({value / total:.0%})" for label, value in items]
        rows = self.legend_rows(names)
        legend_height = self.legend(rows, self.height - 10 - 20 * (len(rows) - 1) - 6)
        radius = max(min(self.width / 2 - 40, (self.height - top - legend_height - 30) / 2), 20)
        cx, cy = self.width / 2, top + 10 + radius
        hole = radius * float(self.spec.get("donut", 0) or 0)
        angle = -math.pi / 2
        for index, (label, value) in enumerate(items):
            sweep = value / total * 2 * math.pi
            color = self.colors[index % len(self.colors)]
            tip = f"{label}: {self.fmt(value)} ({value / total:.1%})"
            if len(items) == 1:
                self.add(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{color}"><title>{escape(tip)}</title></circle>')
            else:
                x1, y1 = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
                x2, y2 = cx + radius * math.cos(angle + sweep), cy + radius * math.sin(angle + sweep)
                large = 1 if sweep > math.pi else 0
                self.add(
                    f'<path d="M{cx:.1f},{cy:.1f} L{x1:.1f},{y1:.1f} A{radius:.1f},{radius:.1f} 0 {large} 1 {x2:.1f},{y2:.1f} Z"'
                    f' fill="{color}" stroke="{self.theme["background"]}" stroke-width="1.5"><title>{escape(tip)}</title></path>'
                )
            if sweep > 0.25:
                middle = angle + sweep / 2
                distance = (radius + hole) / 2 if hole else radius * 0.62
                self.text(cx + distance * math.cos(middle), cy + distance * math.sin(middle) + 4,
                          f"{value / total:.0%}", 12, "middle", "#ffffff", "600")
            angle += sweep
        if hole:
            self.add(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{hole:.1f}" fill="{self.theme["background"]}"/>')

    def render(self) -> str:
        if self.kind == "pie":
            self.pie()
        else:
            self.axes_chart()
        title = str(self.spec.get("title") or f"{self.kind} chart")
        summary = "; ".join(
            f"{series['name']}: " + ", ".join(
                f"{label} {self.fmt(value)}" for label, value in zip(self.labels, series["values"]) if value is not None
            )
            for series in (self.series[:1] if self.kind == "pie" else self.series)
        )
        return "\n".join(
            [
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}"'
                f' viewBox="0 0 {self.width} {self.height}" role="img" aria-labelledby="chart-title chart-desc"'
                f' font-family="{FONT}">',
                f'<title id="chart-title">{escape(title)}</title>',
                f'<desc id="chart-desc">{escape(summary[:2000])}</desc>',
                f'<rect width="100%" height="100%" fill="{self.theme["background"]}"/>',
                *self.parts,
                "</svg>",
                "",
            ]
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", help="path of the JSON spec, or - to read it from stdin")
    parser.add_argument("-o", "--output", required=True, help="where to write the SVG")
    args = parser.parse_args(argv)
    try:
        source = sys.stdin.read() if args.spec == "-" else open(args.spec, encoding="utf-8").read()
        spec = json.loads(source)
        if not isinstance(spec, dict):
            raise SpecError("the spec must be a JSON object")
        svg = Chart(spec).render()
    except json.JSONDecodeError as error:
        print(f"svg_chart: the spec is not valid JSON: {error}", file=sys.stderr)
        return 1
    except (OSError, SpecError) as error:
        print(f"svg_chart: {error}", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(svg)
    print(f"Wrote {args.output} ({len(svg):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
