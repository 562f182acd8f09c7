// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.ts";

describe("renderMarkdown", () => {
  it("renders GFM tables and fenced code", () => {
    const html = renderMarkdown("| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = 1;\n```");
    expect(html).toContain("<table>");
    expect(html).toContain('<code class="language-ts">');
  });

  it("removes scripts and event handlers from model output", () => {
    const html = renderMarkdown('Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> [x](javascript:alert(3))');
    expect(html).not.toMatch(/onerror|<script|javascript:/i);
  });

  it("opens links in a new tab without access to the app", () => {
    expect(renderMarkdown("[docs](https://example.com)")).toContain('rel="noopener noreferrer nofollow"');
  });
});
