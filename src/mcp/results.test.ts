import { describe, expect, it } from "vitest";
import { artifactImages, toolOutput } from "./results.ts";

const PNG = "iVBORw0KGgo".padEnd(7000, "A"); // 7,000 base64 chars ≈ 5.1 KB

describe("toolOutput", () => {
  it("gives text blocks to the model as text, and nothing else when there is nothing else", () => {
    const output = toolOutput({
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    });
    expect(output).toEqual({ text: "one\ntwo", blocks: [], images: [], artifact: undefined });
  });

  it("puts a stub in the text for each image, audio clip and resource, and keeps the blocks", () => {
    const output = toolOutput({
      content: [
        { type: "text", text: "Here:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource_link", uri: "demo://resource/1", name: "Resource 1", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "demo://blob", mimeType: "application/pdf", blob: "AAAA" } },
      ],
    });
    expect(output.text).toBe(
      [
        "Here:",
        "[image image/png, 5.1 KB]",
        "[audio audio/wav, 3 B]",
        '[resource_link demo://resource/1 "Resource 1"]',
        "[resource demo://blob application/pdf, 3 B]",
      ].join("\n"),
    );
    expect(output.blocks.map((block) => block.type)).toEqual(["image", "audio", "file", "file"]);
    expect(output.images).toEqual([{ mimeType: "image/png", data: PNG }]);
    expect(output.artifact?.blocks).toBe(output.blocks);
    expect(artifactImages(output.artifact)).toEqual(output.images);
  });

  it("lets the model read an embedded text resource", () => {
    const output = toolOutput({
      content: [
        { type: "resource", resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "# Notes" } },
      ],
    });
    expect(output.text).toBe("[resource file:///notes.md]\n# Notes");
    expect(output.blocks).toEqual([]);
  });

  it("keeps structuredContent as the artifact, and as the text when there is no text", () => {
    const structured = { temperature: 22.5, conditions: "Sunny" };
    expect(toolOutput({ content: [{ type: "text", text: "22.5°" }], structuredContent: structured }).artifact).toEqual({
      structured_content: structured,
    });
    expect(toolOutput({ content: [], structuredContent: structured }).text).toBe(JSON.stringify(structured));
    expect(toolOutput({ content: [] }).text).toBe("(the tool returned nothing)");
  });

  it("caps long text like bash's output: head and tail kept", () => {
    const text = `${"a".repeat(30_000)}${"z".repeat(30_000)}`;
    const output = toolOutput({ content: [{ type: "text", text }] }, 1000);
    expect(output.text.length).toBeLessThanOrEqual(1000);
    expect(output.text).toMatch(/^a+\n\.\.\. \[middle truncated: \d+ chars skipped\] \.\.\.\nz+$/);
  });

  it("finds no images in an artifact that is not an MCP tool's", () => {
    expect(artifactImages(undefined)).toEqual([]);
    expect(artifactImages({ blocks: "no" })).toEqual([]);
  });
});
