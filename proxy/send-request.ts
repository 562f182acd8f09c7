// Test helper for the proxy's tests: one plain HTTP request on a fresh connection, its whole body read as text.
import http from "node:http";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends one request without keep-alive (no Origin unless given) and resolves with the status, headers and body. */
export function sendRequest(
  url: string,
  init: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
