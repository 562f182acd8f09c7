import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DEERFLOW_IMPORT_LIMITS } from "../../protocol/index.ts";
import { readThreadImport, readThreadPick, ThreadImportPickError } from "./import-thread-files.ts";

const THREAD = {
  values: {
    messages: [],
    artifacts: ["/mnt/user-data/outputs/charts/plot.png"],
    uploaded_files: [{ filename: "data.csv", path: "/mnt/user-data/uploads/data.csv" }],
  },
};

/** A file as a folder picker gives it: with its path below the chosen folder. */
function picked(path: string, content: string | Uint8Array, type = ""): File {
  const bytes = (typeof content === "string" ? strToU8(content) : content) as Uint8Array<ArrayBuffer>;
  const file = new File([bytes], path.split("/").at(-1) ?? path, { type });
  Object.defineProperty(file, "webkitRelativePath", { value: path.includes("/") ? path : "" });
  return file;
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe("readThreadImport", () => {
  it("takes a folder's thread.json and the files under its user-data/, leaving out the rest", async () => {
    const input = await readThreadImport([
      picked("abc/thread.json", JSON.stringify(THREAD)),
      picked("abc/user-data/outputs/report.md", "# Report"),
      picked("abc/user-data/uploads/data.csv", "a,b"),
      picked("abc/user-data/outputs/.DS_Store", "junk"),
      picked("abc/notes.txt", "not the thread's"),
    ]);
    expect(input.thread).toEqual(THREAD);
    expect(input.files.map((file) => [file.path, text(file.bytes)])).toEqual([
      ["user-data/outputs/report.md", "# Report"],
      ["user-data/uploads/data.csv", "a,b"],
    ]);
  });

  it("takes a .zip of the folder, with or without the folder inside", async () => {
    for (const root of ["abc/", ""]) {
      const zip = zipSync({
        [`${root}thread.json`]: strToU8(JSON.stringify(THREAD)),
        [`${root}user-data/outputs/charts/plot.png`]: new Uint8Array([137, 80, 78, 71]),
        [`__MACOSX/${root}._thread.json`]: strToU8("junk"),
      });
      const input = await readThreadImport([picked("thread.zip", zip, "application/zip")]);
      expect(input.thread).toEqual(THREAD);
      expect(input.files).toEqual([
        { path: "user-data/outputs/charts/plot.png", bytes: new Uint8Array([137, 80, 78, 71]) },
      ]);
    }
  });

  it("puts loose files where the thread presented or uploaded a file of their name, else in outputs", async () => {
    const input = await readThreadImport([
      picked("thread.json", JSON.stringify(THREAD)),
      picked("plot.png", "png"),
      picked("data.csv", "a,b"),
      picked("extra.txt", "x"),
    ]);
    expect(input.files.map((file) => file.path)).toEqual([
      "user-data/outputs/charts/plot.png",
      "user-data/uploads/data.csv",
      "user-data/outputs/extra.txt",
    ]);
  });

  it.each([
    [
      "no thread.json",
      () => [picked("abc/user-data/outputs/a.md", "a")],
      "There is no thread.json here: choose a DeerFlow thread's folder, a .zip of it, or its thread.json.",
    ],
    [
      "two threads",
      () => [picked("all/a/thread.json", "{}"), picked("all/b/thread.json", "{}")],
      "Choose one thread at a time: there are 2 thread.json files here.",
    ],
    [
      "a thread.json that is not JSON",
      () => [picked("thread.json", "{oops")],
      "thread.json is not valid JSON (at line 1, column 2).",
    ],
    [
      // Found by test/integration/fuzz-deerflow: the parser's message quoted the file, line breaks and all.
      "a thread.json the parser would quote, in Fawn's words alone",
      () => [picked("thread.json", '{\n  "values": [\n     u    {\n')],
      "thread.json is not valid JSON.",
    ],
    ["a broken .zip", () => [picked("thread.zip", "not a zip")], "thread.zip is not a .zip archive that can be read."],
    [
      "too many files",
      () => [
        picked("abc/thread.json", "{}"),
        ...Array.from({ length: DEERFLOW_IMPORT_LIMITS.max_files + 1 }, (_, index) =>
          picked(`abc/user-data/workspace/${index}`, ""),
        ),
      ],
      "A thread can bring at most 2,000 files; this one has 2,001.",
    ],
  ])("refuses %s with one sentence", async (_name, files, message) => {
    const reading = readThreadImport(files());
    await expect(reading).rejects.toBeInstanceOf(ThreadImportPickError);
    await expect(reading).rejects.toThrow(message);
  });
});

describe("readThreadPick", () => {
  const EXPORTED = JSON.stringify({ thread_id: "t1", values: { title: "hello", messages: [] } }, null, 2);

  it.each(["call-tools-write-file.thread.json", "hello (1).json", "hello.thread", "download"])(
    "reads a DeerFlow JSON export saved as %s",
    async (name) => {
      const pick = await readThreadPick([picked(name, EXPORTED, "application/json")]);
      expect(pick).toEqual({ kind: "deerflow", input: { thread: JSON.parse(EXPORTED), files: [] } });
    },
  );

  it("takes a JSON export picked with loose files, whatever its name", async () => {
    const pick = await readThreadPick([picked("hello.thread.json", JSON.stringify(THREAD)), picked("data.csv", "a,b")]);
    expect(pick.kind === "deerflow" && pick.input.files.map((file) => file.path)).toEqual([
      "user-data/uploads/data.csv",
    ]);
  });

  it("imports a Fawn bundle as one, under any name", async () => {
    const bundle = zipSync({ "manifest.json": strToU8('{"format":"fawn-thread"}'), "threads/t1.json": strToU8("{}") });
    for (const name of ["hello.fawn", "hello.fawn.zip", "hello (2).zip", "hello"]) {
      const file = picked(name, bundle);
      expect(await readThreadPick([file])).toEqual({ kind: "bundle", file });
    }
  });

  it("says a Markdown export is for reading, not importing", async () => {
    for (const file of [picked("hello.md", "# hello\n\n**User:** hi"), picked("notes", "# hello\n")]) {
      const reading = readThreadPick([file]);
      await expect(reading).rejects.toBeInstanceOf(ThreadImportPickError);
      await expect(reading).rejects.toThrow(
        "This is a Markdown transcript, made to be read: Fawn cannot import it. Import the thread's Fawn bundle (.fawn) or DeerFlow JSON export instead.",
      );
    }
  });
});
