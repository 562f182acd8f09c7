import { createRoot } from "solid-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createImageUrls } from "./thread-files-context.ts";
// Loaded before URL is stubbed below: createImageUrls imports it on demand (its own chunk in the app).
import "../shared/image-urls.ts";

describe("createImageUrls", () => {
  afterEach(() => vi.unstubAllGlobals());

  function setup(files: Record<string, string>) {
    let next = 0;
    const revoked: string[] = [];
    vi.stubGlobal("URL", {
      createObjectURL: () => `blob:${++next}`,
      revokeObjectURL: (url: string) => revoked.push(url),
    });
    const reads: string[] = [];
    let thread = "t1";
    const read = async (path: string, scope: string) => {
      reads.push(`${scope}:${path}`);
      const content = files[`${scope}:${path}`];
      if (content === undefined) throw new Error("missing");
      return { bytes: new TextEncoder().encode(content) };
    };
    let dispose!: () => void;
    const urls = createRoot((done) => {
      dispose = done;
      return createImageUrls(read, () => thread);
    });
    return { urls, reads, revoked, dispose, openThread: (id: string) => (thread = id) };
  }

  it("reads each image of a thread once, never reads what is not an image, and retries a failed read", async () => {
    const { urls, reads } = setup({ "t1:/mnt/user-data/outputs/a.png": "png" });
    expect(await urls.imageUrl("/mnt/user-data/outputs/a.png")).toBe("blob:1");
    expect(await urls.imageUrl("/mnt/user-data/outputs/a.png")).toBe("blob:1");
    expect(await urls.imageUrl("/mnt/user-data/outputs/notes.md")).toBeUndefined();
    expect(await urls.imageUrl("/mnt/user-data/outputs/later.png")).toBeUndefined();
    expect(await urls.imageUrl("/mnt/user-data/outputs/later.png")).toBeUndefined();
    expect(reads).toEqual([
      "t1:/mnt/user-data/outputs/a.png",
      "t1:/mnt/user-data/outputs/later.png",
      "t1:/mnt/user-data/outputs/later.png",
    ]);
  });

  it("keeps threads apart, revokes other threads' pictures when one opens, and all of them at the end", async () => {
    const { urls, revoked, dispose, openThread } = setup({
      "t1:/mnt/user-data/a.png": "1",
      "t2:/mnt/user-data/a.png": "2",
    });
    expect(await urls.imageUrl("/mnt/user-data/a.png")).toBe("blob:1");
    openThread("t2");
    expect(await urls.imageUrl("/mnt/user-data/a.png")).toBe("blob:2");
    urls.forgetOthers();
    await Promise.resolve();
    expect(revoked).toEqual(["blob:1"]);
    dispose();
    await Promise.resolve();
    expect(revoked).toEqual(["blob:1", "blob:2"]);
  });
});
