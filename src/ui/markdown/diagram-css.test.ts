import { describe, expect, it } from "vitest";
import { cleanDeclarations, cleanStylesheet, valueLoadsNothing } from "./diagram-css.ts";

const R = "https://evil.example";

/**
 * Every spelling of "load this" that the regular expression the diagram sanitizer used before (a `url(` not followed
 * by `#`, or `@import`) let through, and the plain ones it caught.
 */
const LOADING_VALUES: Record<string, string> = {
  "url()": `url(${R}/a.png)`,
  "URL() in capitals": `URL(${R}/a.png)`,
  "image-set()": `image-set("${R}/a.png" 1x)`,
  "-webkit-image-set()": `-webkit-image-set(url(${R}/b.png) 1x)`,
  "image-set() escaped": `\\69mage-set("${R}/a.png" 1x)`,
  "u\\72l(": `u\\72l(${R}/c.png)`,
  "u\\72l( quoted": `u\\72l("${R}/c.png")`,
  "\\75rl(": `\\75rl("${R}/d.png")`,
  "u\\RL(": `u\\RL("${R}/d.png")`,
  "a comment inside url()": `url(/**/${R}/e.png)`,
  "src()": `src("${R}/f.png")`,
  "image()": `image("${R}/g.png")`,
  "cross-fade()": `cross-fade(url(${R}/h.png), red)`,
  "element()": `element(#x)`,
  "a relative url()": `url(track.png)`,
};

describe("cleanStylesheet", () => {
  for (const [name, value] of Object.entries(LOADING_VALUES)) {
    it(`drops a declaration whose value loads: ${name}`, () => {
      const clean = cleanStylesheet(`#d .a{fill:red;background:${value};stroke:blue}`);
      expect(clean).toBe("#d .a{fill:red;stroke:blue}");
    });
  }

  it("drops @import with or without url(), escaped or not", () => {
    const css = `@import "${R}/a.css"; @import url(${R}/b.css); @imp\\6frt "${R}/c.css"; .a{fill:red}`;
    expect(cleanStylesheet(css)).toBe(".a{fill:red}");
  });

  it("drops @font-face with its sources, and every other at-rule that is not a grouping one", () => {
    const css =
      `@font-face{font-family:x;src:url(${R}/f.woff)} @font-face{font-family:y;src:src("${R}/g.woff")}` +
      `@namespace svg url(http://www.w3.org/2000/svg); @property --x{syntax:"*";inherits:false}` +
      `@media (min-width:1px){.b{background:image-set("${R}/i.png" 1x);color:red}}`;
    expect(cleanStylesheet(css)).toBe("@media (min-width:1px){.b{color:red}}");
  });

  it("looks inside custom properties: a url() kept in --x would load where var(--x) is used", () => {
    expect(cleanStylesheet(`.c{--x:url(${R}/v.png);fill:var(--x)}`)).toBe(".c{fill:var(--x)}");
  });

  it("keeps what mermaid writes: fragments, colours, fonts, keyframes, !important", () => {
    const css =
      `#m .node rect{fill:#ECECFF;stroke:#9370DB;stroke-width:1px}#m .m{marker-end:url(#arrow)}` +
      `#m .label{font-family:"trebuchet ms",verdana,arial,sans-serif;color:rgba(1,2,3,0.5)}` +
      `@keyframes dash{to{stroke-dashoffset:0}}#m .k>*{fill:#f96!important}`;
    expect(cleanStylesheet(css)).toBe(css);
  });

  it("drops what it cannot read rather than pass it on as written", () => {
    expect(cleanStylesheet(`.a{fill:red} } @@ .b{background:u\\72l(${R}/x)}`)).not.toContain("evil.example");
    expect(cleanStylesheet(`.a{background:u\\72l(${R}/x.png);fill:red}`)).toBe(".a{fill:red}");
  });

  it("leaves text that only mentions an address", () => {
    expect(cleanStylesheet(`.i{content:"url(${R})"}`)).toBe(`.i{content:"url(${R})"}`);
  });
});

describe("cleanDeclarations (a style attribute)", () => {
  for (const [name, value] of Object.entries(LOADING_VALUES)) {
    it(`drops ${name}`, () => {
      expect(cleanDeclarations(`fill:url(#g);background:${value};stroke:#333 !important`)).toBe(
        "fill:url(#g);stroke:#333!important",
      );
    });
  }
});

describe("valueLoadsNothing (a presentation attribute)", () => {
  it("accepts fragments and plain values, refuses every loading form", () => {
    expect(valueLoadsNothing("url(#a)")).toBe(true);
    expect(valueLoadsNothing("url( '#a' )")).toBe(true);
    expect(valueLoadsNothing("translate(1,2)")).toBe(true);
    expect(valueLoadsNothing("#fff")).toBe(true);
    for (const value of Object.values(LOADING_VALUES)) expect(valueLoadsNothing(value), value).toBe(false);
  });
});
