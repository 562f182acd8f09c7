import { describe, expect, it } from "vitest";
import { readCappedText } from "./capped-text.ts";

/** A response whose body arrives in `chunks`, with no Content-Length to trust. */
function streamed(chunks: Uint8Array[]): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  );
}

describe("readCappedText", () => {
  it("reads a body up to the limit, a character split across chunks whole", async () => {
    const bytes = new TextEncoder().encode("bees — honey");
    expect(await readCappedText(streamed([bytes.slice(0, 6), bytes.slice(6)]), bytes.byteLength)).toBe("bees — honey");
    expect(await readCappedText(new Response(null), 10)).toBe("");
  });

  it("stops past the limit", async () => {
    const chunk = new Uint8Array(8).fill(65);
    expect(await readCappedText(streamed([chunk, chunk]), 15)).toBeUndefined();
  });
});
