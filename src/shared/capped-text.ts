// Reading an untrusted answer's body without letting it grow past a limit (a missing or false Content-Length
// cannot get more past): the web tools and the server check both read this way.

/** The body as UTF-8 text, as `Response.text()` reads it; undefined once it passes `maxBytes` (the rest is cancelled). */
export async function readCappedText(response: Response, maxBytes: number): Promise<string | undefined> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    bytes += chunk.value.byteLength;
    if (bytes > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text + decoder.decode();
}
