// Thread actions → Share link, and what a shared bundle holds before it is imported (a share link, a `.fawn` opened
// from the system or shared to the installed app): docs/architecture.md#d8-bundles. Nothing here writes; the import
// itself is ThreadBundles.import.
import { BackupArchiveError, encodeShareLink, previewThreadBundle, readShareLink } from "../bundles/index.ts";
import { type SharedThreadBundle, type ThreadBundlePreview, type ThreadShareLink } from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { ThreadBundles } from "./thread-bundles.ts";

export class ThreadSharing {
  constructor(private readonly bundles: Pick<ThreadBundles, "export" | "read">) {}

  /** The thread's `.fawn` bundle as a share link's data, or how big it is when a link cannot hold it. */
  async link(threadId: string): Promise<ThreadShareLink> {
    const exported = await this.bundles.export(threadId, "fawn");
    return encodeShareLink(new Uint8Array(await exported.blob.arrayBuffer()));
  }

  /** A share link's bundle and what it holds, checked whole; a damaged link is refused with one sentence. */
  async readLink(data: string): Promise<SharedThreadBundle> {
    if (typeof data !== "string") throw new UserError("A share link's data is text.");
    try {
      const { bundle, thread } = readShareLink(data);
      return { bundle: new Blob([bundle as Uint8Array<ArrayBuffer>]), preview: previewThreadBundle(thread) };
    } catch (error) {
      if (error instanceof BackupArchiveError) throw new UserError(error.message);
      throw error;
    }
  }

  /** What a `.fawn` holds, checked as ThreadBundles.import checks it, without writing anything. */
  async inspect(archive: Blob | Uint8Array): Promise<ThreadBundlePreview> {
    return previewThreadBundle(await this.bundles.read(archive));
  }
}
