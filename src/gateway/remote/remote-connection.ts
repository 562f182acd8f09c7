// How a server workspace's calls to its server go (docs/architecture.md#d13-workspaces): every request passes through
// one fetch that notes the connection's state (online, offline, the token refused), reads fall back to what this
// browser kept of them (Cache Storage in the worker, one cache per server; a Map where there is none, as in Node),
// and a failure becomes one sentence naming the server. A token never enters a cache key, a sentence or a log.
import type { ServerSummary, WorkspaceConnection } from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";

/** The answer was not what the route gives: the workspace says `malformed`. */
export class MalformedAnswerError extends UserError {
  override name = "MalformedAnswerError";
}

/** The server could not be reached (a network failure, not an HTTP answer). */
export class ServerUnreachableError extends UserError {
  override name = "ServerUnreachableError";
}

/** The Cache Storage name of a server workspace's kept answers. */
export function workspaceCacheName(serverId: string): string {
  return `fawn-server-${serverId}`;
}

/** Forgets what this browser kept of a server's answers (the server was disconnected). */
export async function forgetWorkspaceCache(serverId: string): Promise<void> {
  memoryCaches.delete(serverId);
  if (typeof caches !== "undefined") await caches.delete(workspaceCacheName(serverId)).catch(() => false);
}

/** Forgets what this browser kept of every server's answers (all data deleted). */
export async function forgetAllWorkspaceCaches(): Promise<void> {
  memoryCaches.clear();
  if (typeof caches === "undefined") return;
  const names = await caches.keys().catch(() => []);
  await Promise.all(
    names
      .filter((name) => name.startsWith(workspaceCacheName("")))
      .map((name) => caches.delete(name).catch(() => false)),
  );
}

/** Where Cache Storage is missing (Node, tests), kept answers live in memory for the process. */
const memoryCaches = new Map<string, Map<string, string>>();

/** The host a sentence names a server by ("fawn.example" or "localhost:2024"). */
export function serverLabel(server: ServerSummary): string {
  try {
    return new URL(server.url).host || server.name;
  } catch {
    return server.name;
  }
}

export class RemoteConnection {
  private state: WorkspaceConnection = { state: "online" };
  readonly label: string;

  constructor(readonly server: ServerSummary) {
    this.label = serverLabel(server);
  }

  current(): WorkspaceConnection {
    return this.state;
  }

  /** `fetcher` with the connection noted: a network failure is offline, 401/403 unauthorized, an answer online. */
  watch(fetcher: typeof fetch): typeof fetch {
    return async (input, init) => {
      let response: Response;
      try {
        response = await fetcher(input, init);
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        this.offline();
        throw new ServerUnreachableError(this.offlineSentence());
      }
      if (response.status === 401 || response.status === 403) {
        this.state = {
          state: "unauthorized",
          sentence: `${this.label} refused the access token: connect it again in Settings → Servers.`,
        };
      } else if (this.state.state !== "malformed" || response.ok) {
        this.state = { state: "online" };
      }
      return response;
    };
  }

  private offline(): void {
    this.state = { state: "offline", sentence: this.offlineSentence() };
  }

  private offlineSentence(): string {
    return `${this.label} is unreachable: showing what this browser kept.`;
  }

  /** The error for an answer that is not what the route gives; the workspace says so until a good answer comes. */
  malformed(what: string): MalformedAnswerError {
    const sentence = `${this.label} answered with something that is not ${what}.`;
    this.state = { state: "malformed", sentence };
    return new MalformedAnswerError(sentence);
  }

  /**
   * A read answered by the server and kept, or, when the server cannot be reached, what was kept of it last time.
   * Without a kept answer the offline sentence rejects.
   */
  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    try {
      const value = await load();
      await this.keep(key, value);
      return value;
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      this.offline();
      const kept = await this.kept<T>(key);
      if (kept !== undefined) return kept;
      throw new ServerUnreachableError(this.offlineSentence());
    }
  }

  private async keep(key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value ?? null);
    try {
      if (typeof caches === "undefined") {
        const map = memoryCaches.get(this.server.id) ?? new Map<string, string>();
        memoryCaches.set(this.server.id, map);
        map.set(key, text);
        return;
      }
      const cache = await caches.open(workspaceCacheName(this.server.id));
      await cache.put(cacheUrl(key), new Response(text, { headers: { "content-type": "application/json" } }));
    } catch {
      // A full or unavailable cache only means less is readable offline.
    }
  }

  private async kept<T>(key: string): Promise<T | undefined> {
    try {
      if (typeof caches === "undefined") {
        const text = memoryCaches.get(this.server.id)?.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as T);
      }
      const cache = await caches.open(workspaceCacheName(this.server.id));
      const response = await cache.match(cacheUrl(key));
      return response ? ((await response.json()) as T) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A cache key as the URL Cache Storage wants (never a server's URL: nothing here is fetched). */
function cacheUrl(key: string): string {
  return `https://fawn.invalid/workspace/${encodeURIComponent(key)}`;
}

/** A network failure, as the watched fetch reports it (or the SDK passes it on). */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ServerUnreachableError) return true;
  return error instanceof Error && error.cause instanceof ServerUnreachableError;
}
