// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sanitizeDiagram } from "./mermaid-diagram.ts";

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
    expect(svg.querySelector("style")?.textContent).toContain("#fawn-mermaid-1 .node rect{fill:#eee;}");
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
    expect(svg.querySelector("image")).toBeNull();
    expect(markup).not.toContain("evil.example");
    expect(svg.querySelector("a[href='#arrow']")).not.toBeNull();
  });

  it("leaves nothing of a text that is not an SVG", () => {
    expect(sanitizeDiagram("<p>hi</p><script>alert(1)</script>")).toBeUndefined();
  });
});
