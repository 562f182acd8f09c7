// A server workspace's watch (docs/architecture.md#d13-workspaces): while it is open it lists the server's threads
// every ~2 s (ids, updated_at, status) and posts what changed since the last look as change notices (`thread-changed`,
// `thread-deleted`, or `threads-replaced` when many changed at once), so another device's threads and runs show up
// as this browser's own writes do. A failed look is the connection's to report; the watch tries again.
import { z } from "zod";
import type { ChangeNotice } from "../../protocol/index.ts";
import type { RemoteContext } from "./remote-context.ts";

export const WATCH_INTERVAL_MS = 2_000;
/** More changes than this in one look: the page lists every thread again. */
const MANY_CHANGES = 20;

const watchSchema = z
  .array(z.object({ thread_id: z.string(), updated_at: z.unknown(), status: z.unknown() }).passthrough())
  .max(100_000);

/** What one look saw of a thread: when it last changed, and its status. */
type Seen = Map<string, string>;

/** The notices between two looks. */
export function noticesBetween(before: Seen, after: Seen): ChangeNotice[] {
  const notices: ChangeNotice[] = [];
  for (const [id, mark] of after) {
    if (before.get(id) !== mark) notices.push({ type: "thread-changed", thread_id: id });
  }
  for (const id of before.keys()) if (!after.has(id)) notices.push({ type: "thread-deleted", thread_id: id });
  return notices.length > MANY_CHANGES ? [{ type: "threads-replaced" }] : notices;
}

export class RemoteWatch {
  private seen: Seen | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly remote: RemoteContext,
    private readonly intervalMs = WATCH_INTERVAL_MS,
  ) {}

  start(): void {
    if (this.closed || this.timer !== undefined) return;
    this.schedule(0);
  }

  stop(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.look().finally(() => this.schedule(this.intervalMs)), delay);
    // A watch never keeps a Node process alive on its own (tests, the server's own use).
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** One look at the server's threads; its changes posted. */
  async look(): Promise<void> {
    let threads: z.infer<typeof watchSchema>;
    try {
      const answer = await this.remote.client.threads.search({
        limit: 1000,
        sortBy: "updated_at",
        sortOrder: "desc",
        select: ["thread_id", "updated_at", "status"],
      });
      const parsed = watchSchema.safeParse(answer);
      // The answer set the connection online: a garbage one says malformed again.
      if (!parsed.success) throw new SyntaxError("not a thread list");
      threads = parsed.data;
    } catch (error) {
      if (error instanceof SyntaxError) this.remote.connection.malformed("a thread list");
      return;
    }
    if (this.closed) return;
    const seen: Seen = new Map(threads.map((thread) => [thread.thread_id, `${thread.updated_at}|${thread.status}`]));
    const before = this.seen;
    this.seen = seen;
    if (!before) return;
    for (const notice of noticesBetween(before, seen)) this.remote.notify(notice);
  }
}
