import { describe, expect, it } from "vitest";
import { messageCopyText } from "./copy-text.ts";

describe("messageCopyText", () => {
  it("copies a reply's Markdown source, not its rendering", () => {
    const reply = "## Plan\n\n- **one**\n- `two`\n\n```ts\nconst x = 1;\n```\n";
    expect(messageCopyText(reply)).toBe("## Plan\n\n- **one**\n- `two`\n\n```ts\nconst x = 1;\n```");
  });

  it("joins the text parts of a reply made of parts and leaves pictures out", () => {
    expect(
      messageCopyText([
        { type: "text", text: "Here is the chart:\n\n" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        { type: "text", text: "![chart](chart.png)" },
      ]),
    ).toBe("Here is the chart:\n\n![chart](chart.png)");
  });
});
