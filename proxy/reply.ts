// The proxy's own answers (errors, /health, refusals): JSON, never cached.
import type http from "node:http";

export function errorBody(message: string): { error: { message: string; type: "proxy_error" } } {
  return { error: { message, type: "proxy_error" } };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  res.end(text);
}
