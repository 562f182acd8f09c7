// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import * as css from "./diagram-css.ts";
import { sanitizeDiagram as sanitize } from "./diagram-sanitize.ts";
import { guardFrame, guardPage } from "./mermaid-diagram.ts";

const sanitizeDiagram = (markup: string) => sanitize(markup, css)?.svg;

const HOSTILE = `<svg id="fawn-mermaid-1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  onload="alert(1)" role="graphics-document document">
  <style>#fawn-mermaid-1 .node rect{fill:#eee;} @import url(https://evil.example/x.css);
    #fawn-mermaid-1 .label{background:url(https://evil.example/track.png)} .m{marker-end:url(#arrow)}</style>
  <script>alert(2)</script>
  <defs><marker id="arrow"><path d="M0,0 L10,5"/></marker></defs>
  <g class="node" onclick="alert(3)"><rect width="10" height="10" fill="url(https://evil.example/p.svg#g)"/>
    <a xlink:href="javascript:alert(4)" href="javascript:alert(5)"><text>Click me</text></a>
    <a href="https://evil.example/"><text>Away</text></a>
    <a href="#arrow"><text>Here</text></a>
    <text>&lt;script&gt;alert(6)&lt;/script&gt;</text>
  </g>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(7)"/></div></foreignObject>
  <image href="https://evil.example/i.png"/>
  <use href="#arrow"/><path class="m" d="M0,0" marker-end="url(#arrow)"/>
</svg>`;

describe("sanitizeDiagram", () => {
  const svg = sanitizeDiagram(HOSTILE)!;
  const markup = svg.outerHTML;

  it("keeps the drawing: shapes, labels as text, markers, its own scoped style", () => {
    expect(svg.localName).toBe("svg");
    expect(svg.querySelector("rect")).not.toBeNull();
    expect(svg.querySelector("marker#arrow")).not.toBeNull();
    expect(svg.querySelector("path.m")?.getAttribute("marker-end")).toBe("url(#arrow)");
    expect(svg.querySelector("style")?.textContent).toContain("#fawn-mermaid-1 .node rect{fill:#eee}");
    expect(svg.textContent).toContain("Click me");
    expect(svg.textContent).toContain("<script>alert(6)</script>");
  });

  it("runs nothing: no script, no handler, no foreignObject, no javascript: link", () => {
    expect(svg.querySelector("script, foreignObject, foreignobject, img")).toBeNull();
    for (const element of [svg, ...svg.querySelectorAll("*")]) {
      for (const attribute of element.attributes) expect(attribute.name).not.toMatch(/^on/i);
    }
    expect(markup).not.toMatch(/javascript:/i);
  });

  it("fetches nothing: no address outside the diagram, no web url() or @import", () => {
    // The <image> stays, held without its address (see below).
    expect(svg.querySelector("image")?.attributes).toHaveLength(0);
    expect(markup).not.toContain("evil.example");
    expect(svg.querySelector("a[href='#arrow']")).not.toBeNull();
  });

  it("holds a web image: its <image> stays without an address, which comes back on its own", () => {
    const clean = sanitize(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">` +
        `<image href="https://images.example/a.png?d=1" width="5" height="5"/>` +
        `<image xlink:href="http://images.example/b.png"/><image href="data:image/png;base64,AAAA"/>` +
        `<image href="//images.example/c.png"/><use href="https://evil.example/u.svg#a"/>` +
        // Where the drawing frame put an image node's address (never loaded there).
        `<image data-fawn-remote="https://images.example/d.png"/></svg>`,
      css,
    )!;
    expect(clean.images.map((image) => image.url.href)).toEqual([
      "https://images.example/a.png?d=1",
      "http://images.example/b.png",
      "https://images.example/d.png",
    ]);
    expect(clean.images[0]!.element.getAttribute("width")).toBe("5");
    expect(clean.svg.outerHTML).not.toMatch(/images\.example|evil\.example/);
    // A picture carried in the diagram (C4's person icon) stays: it loads nothing.
    expect(clean.svg.querySelectorAll("image")[2]!.getAttribute("href")).toBe("data:image/png;base64,AAAA");
  });

  it("leaves nothing of a text that is not an SVG", () => {
    expect(sanitizeDiagram("<p>hi</p><script>alert(1)</script>")).toBeUndefined();
  });
});

/** CSS that loads, spelled in each way the regular expression used before let through (see diagram-css.test.ts). */
const ESCAPED: Record<string, string> = {
  "image-set()": `image-set("https://evil.example/a.png" 1x)`,
  "u\\72l(": `u\\72l(https://evil.example/c.png)`,
  "\\75rl( quoted": `\\75rl("https://evil.example/d.png")`,
  "src()": `src("https://evil.example/f.png")`,
};

describe("sanitizeDiagram and CSS escapes", () => {
  for (const [name, value] of Object.entries(ESCAPED)) {
    it(`drops ${name} from <style>`, () => {
      const svg = sanitizeDiagram(
        `<svg xmlns="http://www.w3.org/2000/svg"><style>.a{background:${value};fill:red}</style><rect class="a"/></svg>`,
      )!;
      expect(svg.outerHTML).not.toContain("evil.example");
      expect(svg.querySelector("style")?.textContent).toBe(".a{fill:red}");
    });
    it(`drops ${name} from a style attribute and a presentation attribute`, () => {
      const quoted = value.replace(/"/g, "'");
      const svg = sanitizeDiagram(
        `<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:${quoted};stroke:red"/><rect fill="${quoted}"/></svg>`,
      )!;
      expect(svg.outerHTML).not.toContain("evil.example");
      expect(svg.querySelector("rect")?.getAttribute("style")).toBe("stroke:red");
    });
  }
  it("drops @import without url() and @font-face sources", () => {
    const svg = sanitizeDiagram(
      `<svg xmlns="http://www.w3.org/2000/svg"><style>@import "https://evil.example/g.css";` +
        `@font-face{font-family:x;src:src("https://evil.example/h.woff")} .a{fill:red}</style></svg>`,
    )!;
    expect(svg.querySelector("style")?.textContent).toBe(".a{fill:red}");
  });
});

describe("the guarded drawing frame", () => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const frame = document.createElement("iframe");
  document.body.append(frame);
  guardFrame(frame, css);
  const doc = frame.contentDocument!;
  const drawing = doc.createElementNS(SVG_NS, "svg");
  doc.body.appendChild(drawing);

  // roughjs (mermaid's class boxes) makes its shapes in the page's document and mermaid moves them into the frame:
  // what they carry is judged as they enter, before the frame can style (and so fetch) them.
  it("judges shapes made outside the frame as they enter it, however they enter", () => {
    const entries: [string, (shape: Element) => void][] = [
      ["appendChild", (shape) => drawing.appendChild(shape)],
      ["insertBefore", (shape) => drawing.insertBefore(shape, drawing.firstChild)],
      ["append", (shape) => drawing.append(shape)],
      ["prepend", (shape) => drawing.prepend(shape)],
      ["replaceChildren", (shape) => drawing.replaceChildren(shape)],
      ["after", (shape) => drawing.firstElementChild!.after(shape)],
      ["insertAdjacentElement", (shape) => drawing.insertAdjacentElement("beforeend", shape)],
    ];
    for (const [how, enter] of entries) {
      const group = document.createElementNS(SVG_NS, "g");
      const shape = document.createElementNS(SVG_NS, "path");
      shape.setAttribute("fill", "url(https://evil.example/p.svg#p)");
      shape.setAttribute("stroke", "red");
      shape.setAttribute("style", "fill:url(https://evil.example/q.svg#q);stroke-width:2");
      const image = document.createElementNS(SVG_NS, "image");
      image.setAttribute("href", "https://evil.example/i.png");
      group.append(shape, image);
      if (how === "after") drawing.replaceChildren(doc.createElementNS(SVG_NS, "g"));
      enter(group);
      const entered = group.querySelector("path")!;
      expect(drawing.outerHTML, how).not.toContain("evil.example/p");
      expect(drawing.outerHTML, how).not.toContain("evil.example/q");
      expect(entered.getAttribute("stroke"), how).toBe("red");
      expect(entered.getAttribute("style"), how).toBe("stroke-width:2");
      const held = group.querySelector("image")!;
      expect(held.hasAttribute("href"), how).toBe(false);
      expect(held.getAttribute("data-fawn-remote"), how).toBe("https://evil.example/i.png");
    }
  });

  it("cleans a <style> made outside the frame, and text added to a <style> inside it", () => {
    const unguard = guardPage(css);
    try {
      const style = document.createElement("style");
      style.textContent = ".a{fill:red} .b{background:url(https://evil.example/s.png)}";
      drawing.append(style);
      expect(style.textContent).not.toContain("evil.example");
      style.appendChild(document.createTextNode(".c{fill:url(https://evil.example/t.svg#t)}"));
      expect(style.textContent).not.toContain("evil.example");
      expect(style.textContent).toContain(".a{fill:red}");
    } finally {
      unguard();
    }
  });

  // A node keeps its own realm's methods when it moves: mermaid sets a class box's style after it is in the frame.
  it("judges what the page's own methods set on a node in the frame, while drawing, and nothing else", () => {
    const unguard = guardPage(css);
    const shape = document.createElementNS(SVG_NS, "path");
    drawing.append(shape);
    const outside = document.createElementNS(SVG_NS, "path");
    try {
      shape.setAttribute("style", "fill:url(https://evil.example/u.svg#u);stroke:blue");
      shape.setAttribute("fill", "url(https://evil.example/v.svg#v)");
      outside.setAttribute("fill", "url(#own)");
      expect(shape.outerHTML).not.toContain("evil.example");
      expect(shape.getAttribute("style")).toBe("stroke:blue");
      expect(outside.getAttribute("fill")).toBe("url(#own)");
    } finally {
      unguard();
    }
    document.body.setAttribute("data-after", "url(https://example.com/x)");
    expect(document.body.getAttribute("data-after")).toBe("url(https://example.com/x)");
    shape.setAttribute("fill", "url(https://evil.example/w.svg#w)");
    expect(shape.getAttribute("fill")).toContain("evil.example"); // the page's methods are the page's again
  });
});
