// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { IncrementalMarkdown, renderMarkdown, type MarkdownBlock } from "./markdown.ts";
import { MarkdownDom } from "./markdown-dom.ts";

const REPLY = "# Plan\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nx = 1\n```\n\n- one\n- two\n\nThe end, said slowly.";

describe("MarkdownDom", () => {
  it("keeps the nodes of finished blocks while the last block grows, and ends as the whole text renders", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    dom.show(renderer.render(REPLY.slice(0, REPLY.indexOf("```") + 3)));
    const heading = root.querySelector("h1");
    const table = root.querySelector("table");
    expect(heading?.textContent).toBe("Plan");
    for (let end = REPLY.indexOf("```") + 4; end <= REPLY.length; end++) {
      dom.show(renderer.render(REPLY.slice(0, end)));
      expect(root.querySelector("h1")).toBe(heading);
      expect(root.querySelector("table")).toBe(table);
    }
    const whole = document.createElement("div");
    whole.innerHTML = renderMarkdown(REPLY);
    expect(root.innerHTML).toBe(whole.innerHTML);
  });

  it("hands back only the nodes of the blocks it put in or patched, so new images are looked for there alone", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    const first = dom.show(renderer.render("# Plan\n\nSee ![Sales](chart.png)"));
    expect(first.map((node) => node.nodeName).filter((name) => name !== "#text")).toEqual(["H1", "P"]);
    const next = dom.show(renderer.render("# Plan\n\nSee ![Sales](chart.png) and ![Costs](costs.png)"));
    expect(next.filter((node) => node.nodeName !== "#text").map((node) => node.nodeName)).toEqual(["P"]);
    expect([...(next.find((node) => node.nodeName === "P") as Element).querySelectorAll("img")]).toHaveLength(2);
    expect(dom.show(renderer.render("# Plan\n\nSee ![Sales](chart.png) and ![Costs](costs.png)"))).toEqual([]);
  });

  it("keeps a thread file's image, once shown, while the paragraph around it grows", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    dom.show(renderer.render("See ![Sales](chart.png) and"));
    const image = root.querySelector("img")!;
    image.setAttribute("src", "blob:shown");
    dom.show(renderer.render("See ![Sales](chart.png) and the totals"));
    expect(root.querySelector("img")).toBe(image);
    expect(image.getAttribute("src")).toBe("blob:shown");
    // Another picture in its place is a new image.
    dom.show(renderer.render("See ![Costs](costs.png) and the totals"));
    expect(root.querySelector("img")).not.toBe(image);
    expect(root.querySelector("img")?.hasAttribute("src")).toBe(false);
  });

  it("keeps what the view put in a remote image's placeholder while the paragraph around it grows", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    dom.show(renderer.render("See ![Chart](https://images.example/chart.png) and"));
    const placeholder = root.querySelector("[data-fawn-remote]")!;
    expect(placeholder.childNodes).toHaveLength(0);
    const button = document.createElement("button");
    placeholder.append(button);
    dom.show(renderer.render("See ![Chart](https://images.example/chart.png) and the totals"));
    expect(root.querySelector("[data-fawn-remote]")).toBe(placeholder);
    expect(placeholder.firstChild).toBe(button);
    // Another address is another placeholder, empty again.
    dom.show(renderer.render("See ![Chart](https://images.example/costs.png) and the totals"));
    expect(root.querySelector("[data-fawn-remote]")).not.toBe(placeholder);
    expect(root.querySelector("[data-fawn-remote]")?.childNodes).toHaveLength(0);
  });

  it("patches the growing block in place: its text grows and its finished items stay", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    dom.show(renderer.render("- first item\n- sec"));
    const first = root.querySelector("li");
    const text = root.querySelectorAll("li")[1]!.firstChild;
    dom.show(renderer.render("- first item\n- second, **bold** and more"));
    expect(root.querySelector("li")).toBe(first);
    expect(root.querySelectorAll("li")[1]!.firstChild).toBe(text);
    expect(root.innerHTML).toBe("<ul>\n<li>first item</li>\n<li>second, <strong>bold</strong> and more</li>\n</ul>\n");
    // A change of element (a paragraph becoming a heading) replaces it.
    dom.show(renderer.render("Title\n"));
    dom.show(renderer.render("Title\n==="));
    expect(root.innerHTML).toBe("<h1>Title</h1>\n");
  });

  it("shows the same rendered blocks in two places (the saved copy of a reply that was streaming)", () => {
    const blocks = new IncrementalMarkdown().render(REPLY);
    const streaming = document.createElement("div");
    const saved = document.createElement("div");
    new MarkdownDom(streaming).show(blocks);
    new MarkdownDom(saved).show(blocks);
    expect(saved.innerHTML).toBe(streaming.innerHTML);
    expect(saved.querySelector("table")).not.toBe(streaming.querySelector("table"));
    expect(saved.textContent).toContain("The end, said slowly.");
  });

  it("appends streamed plain text to the paragraph's Text node in the page, ending as the whole text renders", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const renderer = new IncrementalMarkdown();
    const text = '# Plan\n\nSome `code` and words, then more words; and (more) words, "said" it\'s done. Next one';
    dom.show(renderer.render(text.slice(0, text.indexOf("words,"))));
    const paragraph = root.querySelector("p");
    const ending = paragraph?.lastChild;
    for (let end = text.indexOf("words,") + 1; end <= text.length; end++) {
      dom.show(renderer.render(text.slice(0, end)));
      expect(root.querySelector("p")).toBe(paragraph);
    }
    expect(paragraph?.lastChild).toBe(ending);
    const whole = document.createElement("div");
    whole.innerHTML = renderMarkdown(text);
    expect(root.innerHTML).toBe(whole.innerHTML);
  });

  it("replaces a block in place when it changes and removes blocks that are gone", () => {
    const root = document.createElement("div");
    const dom = new MarkdownDom(root);
    const block = (html: string): MarkdownBlock => {
      const template = document.createElement("template");
      template.innerHTML = html;
      return { key: html, html, nodes: template.content };
    };
    dom.show([block("<p>a</p>\n"), block("<p>b</p>\n"), block("<p>c</p>\n")]);
    const first = root.firstChild;
    dom.show([block("<p>a</p>\n"), block("<h2>B</h2>\n"), block("<p>c</p>\n")]);
    expect(root.innerHTML).toBe("<p>a</p>\n<h2>B</h2>\n<p>c</p>\n");
    expect(root.firstChild).toBe(first);
    dom.show([block("<p>a</p>\n")]);
    expect(root.innerHTML).toBe("<p>a</p>\n");
    dom.show([block(""), block("<p>z</p>\n")]);
    expect(root.innerHTML).toBe("<p>z</p>\n");
  });
});
