// A scripted stand-in for `fetch`, for tests: records each request and answers it from a handler, without a network.

export interface RecordedWebRequest {
  url: string;
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** `signal` is the one the caller passed (a Request's own signal only follows it through a weak reference). */
export type FakeFetchHandler = (request: Request, signal?: AbortSignal) => Response | Promise<Response>;

export interface FakeFetch {
  fetch: typeof fetch;
  requests: RecordedWebRequest[];
}

/** `fetch` answered by `handler`; a handler that throws plays a network failure. */
export function createFakeFetch(handler: FakeFetchHandler): FakeFetch {
  const requests: RecordedWebRequest[] = [];
  const fake: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push({
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: await request.clone().text(),
    });
    return handler(request, init?.signal ?? undefined);
  };
  return { fetch: fake, requests };
}

/** A JSON answer. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

/** An answer that never comes: it rejects only when the request is aborted, as fetch does. */
export function never(_request: Request, signal?: AbortSignal): Promise<Response> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
  });
}

/** What a browser's fetch throws when the network fails or CORS blocks the answer. */
export function networkFailure(): never {
  throw new TypeError("Failed to fetch");
}
