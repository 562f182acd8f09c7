import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { openFawnDb, type FawnDb } from "./fawn-db.ts";
import { ThreadFiles, guessMimeType, threadFilePathProblem } from "./thread-files.ts";

let dbCount = 0;
async function open(): Promise<{ db: FawnDb; files: ThreadFiles }> {
  const db = await openFawnDb(`thread-files-test-${dbCount++}`);
  return { db, files: new ThreadFiles(db) };
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const W = "/mnt/user-data/workspace";
const O = "/mnt/user-data/outputs";
const U = "/mnt/user-data/uploads";

describe("ThreadFiles", () => {
  it("writes and reads a file with its meta", async () => {
    const { files } = await open();
    const before = Date.now();
    const [meta] = await files.write("t1", [{ path: `${W}/abc.txt`, bytes: text("abc") }]);
    expect(meta).toEqual({
      path: `${W}/abc.txt`,
      size: 3,
      sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      mimeType: "text/plain",
      mtime: expect.any(Number) as number,
    });
    expect(meta?.mtime).toBeGreaterThanOrEqual(before);
    const read = await files.read("t1", `${W}/abc.txt`);
    expect(new TextDecoder().decode(read?.bytes)).toBe("abc");
    expect(read?.meta).toEqual(meta);
    expect(await files.stat("t1", `${W}/abc.txt`)).toEqual(meta);
    expect(await files.read("t1", `${W}/missing.txt`)).toBeUndefined();
    expect(await files.stat("t2", `${W}/abc.txt`)).toBeUndefined();
  });

  it("hashes the empty file", async () => {
    const { files } = await open();
    const [meta] = await files.write("t", [{ path: `${O}/empty`, bytes: new Uint8Array() }]);
    expect(meta?.sha256).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(meta?.size).toBe(0);
    expect(meta?.mimeType).toBe("application/octet-stream");
  });

  it("writes none of the files when one path is invalid", async () => {
    const { files } = await open();
    const write = files.write("t", [
      { path: `${W}/a.md`, bytes: text("a") },
      { path: `${O}/b.md`, bytes: text("b") },
      { path: `${O}/../secret`, bytes: text("c") },
    ]);
    await expect(write).rejects.toThrow(/"\/mnt\/user-data\/outputs\/\.\.\/secret".*"\." or "\.\." segments/);
    expect(await files.list("t")).toEqual([]);
    expect(await files.read("t", `${W}/a.md`)).toBeUndefined();
  });

  it("opens no transaction when a path is invalid", async () => {
    const { db, files } = await open();
    const transaction = vi.spyOn(db, "transaction");
    await expect(files.write("t", [{ path: "/etc/passwd", bytes: text("x") }])).rejects.toThrow(/\/etc\/passwd/);
    expect(transaction).not.toHaveBeenCalled();
  });

  it("rejects each kind of bad path with a message naming the rule", () => {
    const cases: [string, RegExp][] = [
      ["/mnt/user-data/other/x", /must start with/],
      ["mnt/user-data/workspace/x", /must start with/],
      ["/mnt/user-data/workspacex/x", /must start with/],
      ["/mnt/user-data/workspace", /must start with/],
      [`${W}/`, /empty segments/],
      [`${W}//x`, /empty segments/],
      [`${W}/a/./b`, /"\." or "\.\." segments/],
      [`${W}/..`, /"\." or "\.\." segments/],
      [`${W}\\x`, /backslashes/],
      [`${W}/a\0b`, /NUL/],
      [`${W}/${"x".repeat(1024)}`, /at most 1024 characters/],
    ];
    for (const [path, rule] of cases) expect(threadFilePathProblem(path), path).toMatch(rule);
    for (const path of [
      `${W}/a`,
      `${U}/report.final.pdf`,
      `${O}/deep/er/x..y`,
      `${W}/.hidden`,
      `${W}/${"x".repeat(999)}`,
    ]) {
      expect(threadFilePathProblem(path), path).toBeUndefined();
    }
  });

  it("writes many files in one transaction", async () => {
    const { db, files } = await open();
    const transaction = vi.spyOn(db, "transaction");
    const many = Array.from({ length: 200 }, (_, i) => ({
      path: `${W}/dir${i % 4}/f${i}.txt`,
      bytes: text(`file ${i}`),
    }));
    const written = await files.write("t", many);
    expect(written).toHaveLength(200);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(transaction).toHaveBeenCalledWith(["thread_files", "thread_file_meta"], "readwrite");
    expect(await files.list("t")).toHaveLength(200);
    expect(await files.list("t", `${W}/dir1`)).toHaveLength(50);
  });

  it("replaces a file on a second write", async () => {
    const { files } = await open();
    await files.write("t", [{ path: `${O}/r.md`, bytes: text("old") }]);
    await files.write("t", [{ path: `${O}/r.md`, bytes: text("newer"), mimeType: "text/x-custom" }]);
    const read = await files.read("t", `${O}/r.md`);
    expect(new TextDecoder().decode(read?.bytes)).toBe("newer");
    expect(read?.meta.size).toBe(5);
    expect(read?.meta.mimeType).toBe("text/x-custom");
    expect(await files.list("t")).toHaveLength(1);
  });

  it("stores only a view's own bytes", async () => {
    const { files } = await open();
    const big = new Uint8Array(1000).fill(7);
    const view = big.subarray(10, 13);
    await files.write("t", [{ path: `${W}/view.bin`, bytes: view }]);
    const read = await files.read("t", `${W}/view.bin`);
    expect(read?.bytes.buffer.byteLength).toBe(3);
    expect([...(read?.bytes ?? [])]).toEqual([7, 7, 7]);
  });

  it("lists by directory prefix, sorted by path, without loading bytes", async () => {
    const { db, files } = await open();
    await files.write("t", [
      { path: `${O}/b.csv`, bytes: text("1,2") },
      { path: `${O}/a.json`, bytes: text("{}") },
      { path: `${O}/sub/c.png`, bytes: text("png") },
      { path: `${O}x/not-below.txt`.replace("outputsx", "outputs/x"), bytes: text("x") },
      { path: `${W}/w.py`, bytes: text("print(1)") },
      { path: `${U}/u.docx`, bytes: text("docx") },
    ]);
    await files.write("other", [{ path: `${O}/theirs.txt`, bytes: text("no") }]);
    const transaction = vi.spyOn(db, "transaction");
    const outputs = await files.list("t", O);
    expect(transaction.mock.calls.map(([stores]) => stores)).toEqual(["thread_file_meta"]);
    expect(outputs.map((meta) => meta.path)).toEqual([
      `${O}/a.json`,
      `${O}/b.csv`,
      `${O}/sub/c.png`,
      `${O}/x/not-below.txt`,
    ]);
    expect(outputs.map((meta) => meta.mimeType)).toEqual(["application/json", "text/csv", "image/png", "text/plain"]);
    expect(outputs.every((meta) => !("bytes" in meta) && !("thread_id" in meta))).toBe(true);
    expect((await files.list("t", `${O}/sub/`)).map((meta) => meta.path)).toEqual([`${O}/sub/c.png`]);
    expect(await files.list("t", "/mnt/user-data/out")).toEqual([]);
    expect(await files.list("t", `${O}/s`)).toEqual([]);
    expect(await files.list("t")).toHaveLength(6);
    expect(await files.list("nobody")).toEqual([]);
  });

  it("deletes files", async () => {
    const { files } = await open();
    await files.write("t", [
      { path: `${W}/a`, bytes: text("a") },
      { path: `${W}/b`, bytes: text("b") },
      { path: `${W}/c`, bytes: text("c") },
    ]);
    await files.delete("t", [`${W}/a`, `${W}/c`, `${W}/missing`]);
    expect((await files.list("t")).map((meta) => meta.path)).toEqual([`${W}/b`]);
    expect(await files.read("t", `${W}/a`)).toBeUndefined();
  });

  it("applies writes and deletes together, or nothing when a path is invalid", async () => {
    const { files } = await open();
    await files.write("t", [
      { path: `${W}/keep`, bytes: text("k") },
      { path: `${W}/old`, bytes: text("o") },
    ]);
    await files.apply("t", { write: [{ path: `${O}/new.md`, bytes: text("# new") }], delete: [`${W}/old`] });
    expect((await files.list("t")).map((meta) => meta.path)).toEqual([`${O}/new.md`, `${W}/keep`]);

    await expect(
      files.apply("t", { write: [{ path: "/etc/passwd", bytes: text("x") }], delete: [`${W}/keep`] }),
    ).rejects.toThrow(/Invalid file path/);
    expect((await files.list("t")).map((meta) => meta.path)).toEqual([`${O}/new.md`, `${W}/keep`]);
  });

  it("reads every file of a thread with its bytes, and no other thread's", async () => {
    const { files } = await open();
    await files.write("t1", [
      { path: `${W}/a.txt`, bytes: text("a") },
      { path: `${U}/b.csv`, bytes: text("b,c") },
    ]);
    await files.write("t10", [{ path: `${W}/a.txt`, bytes: text("other") }]);
    const all = await files.readAll("t1");
    expect(all.map((file) => [file.meta.path, new TextDecoder().decode(file.bytes)])).toEqual([
      [`${U}/b.csv`, "b,c"],
      [`${W}/a.txt`, "a"],
    ]);
  });

  it("deleteThread removes one thread's files and leaves the others", async () => {
    const { db, files } = await open();
    await files.write("t1", [
      { path: `${W}/a`, bytes: text("a") },
      { path: `${O}/b`, bytes: text("b") },
    ]);
    await files.write("t10", [{ path: `${W}/a`, bytes: text("a10") }]);
    await files.write("t2", [{ path: `${W}/a`, bytes: text("a2") }]);
    await files.deleteThread("t1");
    expect(await files.list("t1")).toEqual([]);
    expect(await db.count("thread_files")).toBe(2);
    expect(await db.count("thread_file_meta")).toBe(2);
    expect(new TextDecoder().decode((await files.read("t10", `${W}/a`))?.bytes)).toBe("a10");
    expect(new TextDecoder().decode((await files.read("t2", `${W}/a`))?.bytes)).toBe("a2");
  });

  it("guesses MIME types from the extension", () => {
    expect(guessMimeType("/x/README.MD")).toBe("text/markdown");
    expect(guessMimeType("/x/photo.JPEG")).toBe("image/jpeg");
    expect(guessMimeType("/x/deck.pptx")).toBe(
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    );
    expect(guessMimeType("/x/Makefile")).toBe("application/octet-stream");
    expect(guessMimeType("/x/.bashrc")).toBe("application/octet-stream");
    expect(guessMimeType("/x.d/file")).toBe("application/octet-stream");
    expect(guessMimeType("/x/archive.tar.gz")).toBe("application/octet-stream");
    expect(guessMimeType("/x/a.svg")).toBe("image/svg+xml");
  });
});
