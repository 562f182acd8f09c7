// The model files of "On this device" (src/protocol/device-models.ts), kept in the origin private file system: one
// folder, the files under their ids, and `index.json` listing those complete. A file is listed only once all of it is
// written and checked; a copy that fails or is cancelled leaves nothing behind.
import type { DeviceModelFile, DeviceModelProgress } from "../protocol/index.ts";
import { deviceModelId } from "../protocol/index.ts";
import { SerialQueue } from "../shared/serial-queue.ts";
import { UserError } from "../shared/user-error.ts";
import { ggufContextLength } from "./gguf-header.ts";

const FOLDER = "device-models";
const INDEX = "index.json";
/** Every GGUF file starts with these bytes. */
const GGUF_MAGIC = [0x47, 0x47, 0x55, 0x46];
/** How much of a file's start is kept to read its metadata (the context length comes before the tokenizer). */
const HEAD_BYTES = 4 << 20;
/** How often progress is reported while a file is copied, at most (ms). */
const PROGRESS_EVERY_MS = 200;

/** The origin private file system's root (a fake in unit tests). */
export type DirectoryRoot = () => Promise<FileSystemDirectoryHandle>;

/** What a new file is: its name, its size when known, and the address it came from. */
export interface DeviceModelSource {
  name: string;
  size?: number;
  source?: string;
}

export class DeviceModelFiles {
  /** Writes of the index, one after another. */
  /** Changes of index.json, one after another. */
  private readonly indexWrites = new SerialQueue();

  constructor(
    private readonly root: DirectoryRoot = () => navigator.storage.getDirectory(),
    private readonly estimate: () => Promise<StorageEstimate> = () => navigator.storage.estimate(),
  ) {}

  private async folder(): Promise<FileSystemDirectoryHandle> {
    return (await this.root()).getDirectoryHandle(FOLDER, { create: true });
  }

  /** The kept files, newest last. */
  async list(): Promise<DeviceModelFile[]> {
    const folder = await this.folder();
    try {
      const text = await (await (await folder.getFileHandle(INDEX)).getFile()).text();
      const parsed = JSON.parse(text) as unknown;
      return Array.isArray(parsed) ? (parsed as DeviceModelFile[]) : [];
    } catch {
      return [];
    }
  }

  /** The kept file `id`, to be read (rejects with one sentence when it is not kept). */
  async file(id: string): Promise<File> {
    if (!(await this.list()).some((each) => each.id === id)) {
      throw new UserError(`The model file ${id} is not kept in this browser; choose it again in Settings → Models.`);
    }
    return (await (await this.folder()).getFileHandle(id)).getFile();
  }

  /**
   * Writes `stream` as a new model file and lists it. Refused, with nothing written: a name already kept, a size
   * larger than the room left, and (once the first bytes are read) anything that is not a GGUF file. A failure or an
   * abort on the way removes what was written.
   */
  async add(
    stream: ReadableStream<Uint8Array>,
    from: DeviceModelSource,
    onProgress?: DeviceModelProgress,
    signal?: AbortSignal,
  ): Promise<DeviceModelFile> {
    const id = deviceModelId(from.name);
    if ((await this.list()).some((each) => each.id === id)) {
      throw new UserError(`A model file named ${id} is already kept; remove it first to replace it.`);
    }
    if (from.size !== undefined) {
      const { quota = Infinity, usage = 0 } = await this.estimate();
      if (from.size > quota - usage) {
        throw new UserError(
          `${from.name} needs ${gigabytes(from.size)} and the browser lets Fawn keep ${gigabytes(quota - usage)} more.`,
        );
      }
    }
    const folder = await this.folder();
    const handle = await folder.getFileHandle(id, { create: true });
    const writable = await handle.createWritable();
    let received = 0;
    let checked = false;
    // The file's first bytes, for its magic and metadata (filled in place: no copy per chunk).
    const head = new Uint8Array(HEAD_BYTES);
    let headLength = 0;
    let reported = 0;
    const reader = stream.getReader();
    try {
      for (;;) {
        if (signal?.aborted) throw new UserError("The model file was not kept: cancelled.");
        const { done, value } = await reader.read();
        if (done) break;
        if (headLength < HEAD_BYTES) {
          const part = value.subarray(0, HEAD_BYTES - headLength);
          head.set(part, headLength);
          headLength += part.length;
        }
        if (!checked) {
          if (headLength >= GGUF_MAGIC.length) {
            if (!GGUF_MAGIC.every((byte, index) => head[index] === byte)) {
              throw new UserError(`${from.name} is not a GGUF model file (it does not start with "GGUF").`);
            }
            checked = true;
          }
        }
        await writable.write(value as Uint8Array<ArrayBuffer>);
        received += value.length;
        const now = Date.now();
        if (onProgress && now - reported >= PROGRESS_EVERY_MS) {
          reported = now;
          onProgress(received, from.size);
        }
      }
      if (!checked) throw new UserError(`${from.name} is not a GGUF model file (it is too short).`);
      if (from.size !== undefined && received !== from.size) {
        throw new UserError(`${from.name} ended after ${received} of its ${from.size} bytes; try again.`);
      }
      await writable.close();
    } catch (error) {
      await reader.cancel().catch(() => {});
      await writable.abort().catch(() => {});
      await folder.removeEntry(id).catch(() => {});
      // A cancelled download's body fails its read with the fetch's AbortError: the same sentence as a cancelled copy.
      throw signal?.aborted ? new UserError("The model file was not kept: cancelled.") : error;
    }
    onProgress?.(received, received);
    const contextLength = ggufContextLength(head.subarray(0, headLength));
    const kept: DeviceModelFile = {
      id,
      name: from.name,
      size: received,
      ...(from.source && { source: from.source }),
      ...(contextLength !== undefined && { contextLength }),
      addedAt: new Date().toISOString(),
    };
    await this.updateIndex((files) => [...files.filter((each) => each.id !== id), kept]);
    return kept;
  }

  /** Forgets the file `id` and frees its room; nothing happens when it is not kept. */
  async remove(id: string): Promise<void> {
    await this.updateIndex((files) => files.filter((each) => each.id !== id));
    await (await this.folder()).removeEntry(id).catch(() => {});
  }

  private updateIndex(change: (files: DeviceModelFile[]) => DeviceModelFile[]): Promise<void> {
    return this.indexWrites.run(async () => {
      const next = change(await this.list());
      const writable = await (await (await this.folder()).getFileHandle(INDEX, { create: true })).createWritable();
      await writable.write(JSON.stringify(next));
      await writable.close();
    });
  }
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(bytes < 1e8 ? 2 : 1)} GB`;
}
