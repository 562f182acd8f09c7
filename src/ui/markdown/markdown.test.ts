// @vitest-environment jsdom
import DOMPurify from "dompurify";
import { Marked } from "marked";
import { describe, expect, it } from "vitest";
import { markdownFeaturesSettled, mayHaveMath } from "./markdown-features.ts";
import { PURIFY_OPTIONS } from "./markdown-sanitize.ts";
import { IncrementalMarkdown, renderMarkdown } from "./markdown.ts";

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

/** Prose that streams mostly as plain appends, with what must not take that path next to it. */
const PROSE = [
  'Plain words, then more (with parens) and "quotes"; it\'s fine? Yes! A sentence. Another one',
  "continues on a second line with  two spaces   and trailing  ",
  "spaces before a break.",
  "",
  "1 not a list, but 1) and 2. here are not either; 1",
  "1) this one is",
  "",
  "Visit www.example.com or https://example.org/path or mail me at someone@example.com today.",
  "Dotted words: e.g. i.e. x.y a.b.c and www. alone and http: alone.",
  "",
  "Emphasis *open and _underscore_ after_ word __strong__ and **bold**x and *a*b and foo*bar*.",
  "Code `open and ``double`` and [link](https://example.com) then [ref] and [text] (not a link).",
  "Entities &amp and &amp; and &#39; and &copy and < less than and > greater.",
  "Escapes \\* and \\_ and a backslash at the end \\",
  "Hello  ",
  "world",
  "",
  "[ref]: https://example.com/ref",
  "",
  "Un café, naïve façade, 東京 and numbers 3,14 and 10.5 and 2026. End",
  "",
  'Inline `code` then plain words, **bold** then more words, "quoted" text (paren) and so on',
  '[a](https://example.com "title with words") and [b](https://example.com "unfinished title',
  'continues here") and after it',
  "",
  "[d]: https://example.com/d 'a title",
  "that ends here' and more words",
  "",
  "Ends in a link [e](https://example.com/e) and text, then www.example.com. and (www.example.com) done",
].join("\n");

const DOCUMENTS = { TABLE_AND_LISTS, CODE, MATH, LINKS_AND_HTML };

/** Streams `text` into one renderer, `step` characters at a time, checking each render against a fresh one. */
function expectIncrementalMatches(text: string, step: number, keys = false): void {
  const renderer = new IncrementalMarkdown();
  for (let end = 1; end <= text.length + step - 1; end += step) {
    const prefix = text.slice(0, Math.min(end, text.length));
    const blocks = renderer.render(prefix);
    const html = blocks.map((block) => block.html).join("");
    expect(html, `after ${JSON.stringify(prefix.slice(-40))}`).toBe(renderMarkdown(prefix));
    if (keys) {
      const fresh = new IncrementalMarkdown().render(prefix);
      expect(blocks.map((block) => block.key)).toEqual(fresh.map((block) => block.key));
    }
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
  }, 180_000);

  it("keeps finished blocks from one render to the next and re-renders only the growing one", () => {
    const renderer = new IncrementalMarkdown();
    const first = renderer.render("# Title\n\nFirst paragraph.\n\nSecond para");
    const second = renderer.render("# Title\n\nFirst paragraph.\n\nSecond paragraph, longer");
    expect(second).toHaveLength(3);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]!.html).toBe("<p>Second paragraph, longer</p>\n");
  });

  it("renders every prefix of streamed prose exactly as a fresh render does, appended text or not", () => {
    for (const step of [1, 2, 5]) {
      expect(() => expectIncrementalMatches(PROSE, step, true), `${step} at a time`).not.toThrow();
    }
  }, 180_000);

  it("appends plain prose to the growing paragraph without rendering it again", () => {
    const renderer = new IncrementalMarkdown();
    const first = renderer.render("# Title\n\nSome words");
    const second = renderer.render('# Title\n\nSome words and more, it\'s "fine"');
    expect(second[0]).toBe(first[0]);
    expect(second[1]!.html).toBe('<p>Some words and more, it\'s "fine"</p>\n');
    expect(second[1]!.key).toBe("<p>Some words and more, it&#39;s &quot;fine&quot;</p>\n");
    // The first render's nodes are left as they were, for the views that show them.
    expect(first[1]!.html).toBe("<p>Some words</p>\n");
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
