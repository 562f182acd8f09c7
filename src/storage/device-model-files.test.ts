import { describe, expect, it } from "vitest";
import { SCRIPTED_CONTEXT, scriptedModelGguf } from "../../test/gguf/scripted-model.ts";
import { DeviceModelFiles } from "./device-model-files.ts";

/** An in-memory stand-in for the origin private file system: folders, files, writable streams. */
class MemoryFile {
  constructor(public bytes = new Uint8Array(0)) {}
}
interface MemoryFolder {
  kind: "directory";
  entries: Map<string, MemoryFile | MemoryFolder>;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<MemoryFolder>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<unknown>;
  removeEntry(name: string): Promise<void>;
}
function memoryFolder(entries = new Map<string, MemoryFile | MemoryFolder>()): MemoryFolder {
  const folder: MemoryFolder = {
    kind: "directory" as const,
    entries,
    async getDirectoryHandle(name: string, options?: { create?: boolean }) {
      let found = entries.get(name);
      if (!found && options?.create) entries.set(name, (found = memoryFolder()));
      if (!found || found instanceof MemoryFile) throw new DOMException("not found", "NotFoundError");
      return found;
    },
    async getFileHandle(name: string, options?: { create?: boolean }) {
      let found = entries.get(name);
      if (!found && options?.create) entries.set(name, (found = new MemoryFile()));
      if (!(found instanceof MemoryFile)) throw new DOMException("not found", "NotFoundError");
      const file = found;
      return {
        getFile: async () => new File([file.bytes.slice()], name),
        createWritable: async () => {
          const chunks: Uint8Array[] = [];
          return {
            write: async (chunk: Uint8Array | string) => {
              chunks.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
            },
            close: async () => {
              file.bytes = new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
            },
            abort: async () => {},
          };
        },
      };
    },
    async removeEntry(name: string) {
      if (!entries.delete(name)) throw new DOMException("not found", "NotFoundError");
    },
  };
  return folder;
}

const GGUF = new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0, 9, 9, 9, 9]);

function streamOf(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

function store(quota = 1e12) {
  const root = memoryFolder();
  const files = new DeviceModelFiles(
    async () => root as unknown as FileSystemDirectoryHandle,
    async () => ({ quota, usage: 0 }),
  );
  return { root, files };
}

describe("DeviceModelFiles", () => {
  it("keeps a GGUF file under its id, lists it and reads it back", async () => {
    const { files } = store();
    const progress: number[] = [];
    const kept = await files.add(
      streamOf(GGUF.subarray(0, 2), GGUF.subarray(2)),
      { name: "My Model Q4.gguf", size: GGUF.length },
      (done) => progress.push(done),
    );
    expect(kept).toMatchObject({ id: "my-model-q4.gguf", name: "My Model Q4.gguf", size: GGUF.length });
    expect(progress.at(-1)).toBe(GGUF.length);
    expect((await files.list()).map((each) => each.id)).toEqual(["my-model-q4.gguf"]);
    expect(new Uint8Array(await (await files.file("my-model-q4.gguf")).arrayBuffer())).toEqual(GGUF);
  });

  it("notes the context length the file's metadata gives", async () => {
    const { files } = store();
    const model = scriptedModelGguf();
    const kept = await files.add(streamOf(model.subarray(0, 100), model.subarray(100)), { name: "scripted.gguf" });
    expect(kept.contextLength).toBe(SCRIPTED_CONTEXT);
    expect((await files.list())[0]!.contextLength).toBe(SCRIPTED_CONTEXT);
  });

  it("refuses a file that is not GGUF and keeps nothing of it", async () => {
    const { root, files } = store();
    const html = new TextEncoder().encode("<html>a login page</html>");
    await expect(files.add(streamOf(html), { name: "model.gguf" })).rejects.toThrow(
      'model.gguf is not a GGUF model file (it does not start with "GGUF").',
    );
    expect(await files.list()).toEqual([]);
    const folder = await root.getDirectoryHandle("device-models");
    expect([...folder.entries.keys()]).toEqual([]);
  });

  it("refuses a download that ends early, a name already kept, and a file larger than the room left", async () => {
    const { files } = store();
    await expect(files.add(streamOf(GGUF), { name: "short.gguf", size: 100 })).rejects.toThrow(
      "short.gguf ended after 12 of its 100 bytes; try again.",
    );
    await files.add(streamOf(GGUF), { name: "a.gguf" });
    await expect(files.add(streamOf(GGUF), { name: "A.gguf" })).rejects.toThrow(/a\.gguf is already kept/);
    const { files: small } = store(50);
    await expect(small.add(streamOf(GGUF), { name: "big.gguf", size: 3_000_000_000 })).rejects.toThrow(
      "big.gguf needs 3.0 GB and the browser lets Fawn keep 0.00 GB more.",
    );
  });

  it("stops when the signal aborts, keeping nothing", async () => {
    const { files } = store();
    const controller = new AbortController();
    controller.abort();
    await expect(files.add(streamOf(GGUF), { name: "x.gguf" }, undefined, controller.signal)).rejects.toThrow(
      "The model file was not kept: cancelled.",
    );
    expect(await files.list()).toEqual([]);
  });

  it("removes a file and its listing", async () => {
    const { files } = store();
    await files.add(streamOf(GGUF), { name: "a.gguf" });
    await files.remove("a.gguf");
    expect(await files.list()).toEqual([]);
    await expect(files.file("a.gguf")).rejects.toThrow(/not kept in this browser/);
  });
});
