// Reading a file from a server: its bytes whole up to 100 MB, and past that one sentence, the body read no further
// (a Content-Length over the limit is refused unread; a chunked body is stopped as soon as it passes).
import { describe, expect, it } from "vitest";
import { fileBytesOf, MAX_FILE_BYTES } from "./server-urls.ts";

const MB = 1024 * 1024;

/** A chunked body of `chunks` 1 MB pieces, counting how many were pulled. */
function chunked(chunks: number) {
  const piece = new Uint8Array(MB);
  const pulled = { count: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.count === chunks) return controller.close();
      pulled.count++;
      controller.enqueue(piece);
    },
  });
  return { response: new Response(body), pulled };
}

describe("a file read from a server", () => {
  it("is its bytes whole", async () => {
    expect(await fileBytesOf(new Response("hello"), "a.txt")).toEqual(new TextEncoder().encode("hello"));
    const { response } = chunked(3);
    expect((await fileBytesOf(response, "b.bin")).byteLength).toBe(3 * MB);
  });

  it("past 100 MB is one sentence, and a chunked body stops being read", async () => {
    const { response, pulled } = chunked(1000);
    await expect(fileBytesOf(response, "huge.bin")).rejects.toThrow("huge.bin is larger than 100 MB.");
    expect(pulled.count).toBeLessThan(MAX_FILE_BYTES / MB + 5);
  });

  it("with a Content-Length over 100 MB is refused unread", async () => {
    const { response, pulled } = chunked(1000);
    const headers = new Headers({ "content-length": String(MAX_FILE_BYTES + 1) });
    const declared = new Response(response.body, { headers });
    await expect(fileBytesOf(declared, "big.pdf")).rejects.toThrow("big.pdf is larger than 100 MB.");
    expect(pulled.count).toBeLessThan(3);
  });
});
