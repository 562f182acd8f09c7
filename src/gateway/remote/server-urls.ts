// Where a server's APIs live, by kind (docs/architecture.md#d13-workspaces): a Fawn server speaks LangGraph's API and
// the Gateway's REST routes both under `/api`; `langgraphjs dev` (or any LangGraph server) LangGraph's at its root,
// with no REST routes; DeerFlow LangGraph's under `/api/langgraph` and its REST routes under `/api`.
import type { ServerKind } from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";

/** The largest file read whole from a server (a thread's file is at most an upload's size). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

/**
 * A request to a server, by path below one of its bases (`/threads/search`), with the access token and the
 * workspace's fetch already applied. Answers the Response as it came; callers read it with validation.
 */
export type ServerFetch = (path: string, init?: RequestInit) => Promise<Response>;

export interface ServerBases {
  /** LangGraph's API: what `@langchain/langgraph-sdk`'s Client takes as `apiUrl`. */
  langgraph: string;
  /** The Gateway's REST routes (`/threads/{id}/uploads`, `/memory`, `/fawn/…`), when the kind has them. */
  rest?: string;
}

/** The server's base URL as the user enters it, normalized: http(s) only, no query or fragment, no trailing slash. */
export function normalizeServerUrl(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password) return undefined;
  url.search = "";
  url.hash = "";
  return url.href.replace(/\/+$/, "");
}

export function serverBases(url: string, kind: ServerKind): ServerBases {
  const base = url.replace(/\/+$/, "");
  switch (kind) {
    case "fawn":
      return { langgraph: `${base}/api`, rest: `${base}/api` };
    case "deerflow":
      return { langgraph: `${base}/api/langgraph`, rest: `${base}/api` };
    case "langgraph":
      return { langgraph: base };
  }
}

/** `fetcher` with the Bearer token (when there is one) on every request that does not name its own. */
export function withToken(fetcher: typeof fetch, token: string | undefined): typeof fetch {
  if (!token) return fetcher;
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has("authorization")) headers.set("authorization", `Bearer ${token}`);
    return fetcher(input, { ...init, headers });
  };
}

/** A ServerFetch below `base`: the Bearer token (when there is one) on every request. */
export function serverFetch(base: string, token: string | undefined, fetcher: typeof fetch = fetch): ServerFetch {
  const authed = withToken(fetcher, token);
  return (path, init) => authed(`${base}${path}`, init);
}

/** A value (a thread id, a file name) as one path segment. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/**
 * A file's bytes from a server's answer, read as they come and stopped as soon as they pass MAX_FILE_BYTES (a
 * Content-Length over it is refused before reading): then a sentence naming `name`.
 */
export async function fileBytesOf(response: Response, name: string): Promise<Uint8Array> {
  const tooLarge = () => new UserError(`${name} is larger than 100 MB.`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_FILE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FILE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
