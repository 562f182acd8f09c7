// Thread actions → Share link, and a shared thread before it is imported (a share link, a `.fawn` opened from the
// system or shared to the installed app): docs/architecture.md#d8-bundles. The receiver reads it first, in the
// conversation view, from what this worker keeps in memory; nothing here writes. The import itself is
// ThreadBundles.import.
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { encodeShareLink, previewThreadBundle, readShareLink, type BundledThread } from "../bundles/index.ts";
import {
  type SharedThreadReading,
  type SharingApi,
  type ThreadDetail,
  type ThreadFileContent,
  type ThreadShareLink,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UserError } from "../shared/user-error.ts";
import { checkpointValuesOf } from "../storage/index.ts";
import { restorableThread } from "./archive-restore.ts";
import { stateView } from "./checkpoint-views.ts";
import { composeHistory } from "./thread-history.ts";
import type { ThreadBundles } from "./thread-bundles.ts";

/** What a reading id starts with; a stored thread's id never does (ids are made by newId, or kept from DeerFlow). */
export const READING_ID_PREFIX = "shared-";

/** How many shared threads opened to be read are kept (the oldest goes first): one on screen, one arriving. */
const READINGS_KEPT = 2;

const serde = new JsonPlusSerializer();

export class ThreadSharing implements SharingApi {
  /** Shared threads opened to be read, by reading id: their records as an import would store them, and their files. */
  private readonly readings = new Map<string, BundledThread>();

  constructor(private readonly bundles: Pick<ThreadBundles, "export" | "read">) {}

  /** The thread's `.fawn` bundle as a share link's data, or how big it is when a link cannot hold it. */
  async link(threadId: string): Promise<ThreadShareLink> {
    const exported = await this.bundles.export(threadId, "fawn");
    return encodeShareLink(new Uint8Array(await exported.blob.arrayBuffer()));
  }

  /** A share link's bundle, what it holds and the thread to read, checked whole; a damaged link: one sentence. */
  async readLink(data: string): Promise<SharedThreadReading> {
    if (typeof data !== "string") throw new UserError("A share link's data is text.");
    const read = readShareLink(data);
    return this.open(new Blob([read.bundle as Uint8Array<ArrayBuffer>]), read.thread);
  }

  /** A `.fawn` opened to be read before it is imported, checked as ThreadBundles.import checks it. */
  async openBundle(archive: Blob | Uint8Array): Promise<SharedThreadReading> {
    const bundled = await this.bundles.read(archive);
    const bundle = archive instanceof Blob ? archive : new Blob([archive as Uint8Array<ArrayBuffer>]);
    return this.open(bundle, bundled);
  }

  /** A file of a shared thread opened to be read; undefined when `threadId` is not a reading id. */
  readFile(threadId: string, path: string): ThreadFileContent | undefined {
    if (typeof threadId !== "string" || !threadId.startsWith(READING_ID_PREFIX)) return undefined;
    const reading = this.readings.get(threadId);
    if (!reading) throw new UserError("This shared thread is no longer open: open its link again.");
    const file = reading.files.find((candidate) => candidate.path === path);
    const meta = reading.records.files.find((candidate) => candidate.path === path);
    if (!file || !meta) throw new UserError(`This thread has no file ${JSON.stringify(path)}.`);
    return { path, bytes: file.bytes, mime_type: meta.mimeType };
  }

  /** Forgets a shared thread opened to be read. */
  async close(threadId: string): Promise<void> {
    this.readings.delete(threadId);
  }

  /**
   * Keeps the bundle's thread under a new reading id, as an import would store it (its history checked to load, the
   * tool calls its last step left open closed), and answers it as the page shows a stored thread.
   */
  private async open(bundle: Blob, bundled: BundledThread): Promise<SharedThreadReading> {
    const preview = previewThreadBundle(bundled);
    const restorable = await restorableThread(bundled, "bundle");
    const threadId = `${READING_ID_PREFIX}${newId()}`;
    const thread = await readingDetail(restorable, threadId);
    this.readings.set(threadId, restorable);
    for (const oldest of this.readings.keys()) {
      if (this.readings.size <= READINGS_KEPT) break;
      this.readings.delete(oldest);
    }
    return { bundle, preview, thread };
  }
}

/**
 * The thread as ThreadsService.get shows a stored one (its messages as of the checkpoint it shows, with the notes kept
 * beside them, its presented files and plan), read-only, under `threadId`.
 */
async function readingDetail({ records }: BundledThread, threadId: string): Promise<ThreadDetail> {
  const { title, created_at, updated_at, head } = records.thread;
  const values = await checkpointValuesOf(records, serde, head);
  const view = values && stateView(values);
  const entries = [...records.entries].sort((a, b) => a.seq - b.seq).map((record) => record.entry);
  return {
    thread_id: threadId,
    title,
    created_at,
    updated_at,
    status: "idle",
    read_only: true,
    entries: composeHistory(entries, view?.messages),
    artifacts: view?.artifacts ?? [],
    todos: view?.todos ?? [],
  };
}
