// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.ts";
import { codeText } from "./code-tools.ts";

function firstPre(markdown: string): Element {
  const page = new DOMParser().parseFromString(renderMarkdown(markdown), "text/html");
  return page.querySelector("pre")!;
}

describe("codeText", () => {
  it("copies a code block's code as written, without the rendered markup or the last line end", () => {
    expect(codeText(firstPre("```\nif (a < b) {\n  go();\n}\n```"))).toBe("if (a < b) {\n  go();\n}");
  });

  it("copies a diagram's source", () => {
    expect(codeText(firstPre("```mermaid\ngraph TD\n  A-->B\n```"))).toBe("graph TD\n  A-->B");
  });
});
