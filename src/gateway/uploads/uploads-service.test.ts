import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import reportDocx from "../../../test/fixtures/documents/report.docx?url&inline";
import { openFawnDb } from "../../storage/fawn-db.ts";
import { ThreadFiles } from "../../storage/thread-files.ts";
import { STORAGE_FULL_MESSAGE } from "../../storage/storage-errors.ts";
import { UploadError } from "./upload-rules.ts";
import { UploadsService, type ConvertDocument, type UploadInput } from "./uploads-service.ts";

const U = "/mnt/user-data/uploads";
const MiB = 1024 * 1024;
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const file = (name: string, content = name): UploadInput => ({ name, bytes: text(content) });

/** A converter that writes "converted <name>", and fails for names containing "broken". */
const fakeConvert: ConvertDocument = async (filename) => {
  if (filename.includes("broken")) throw new Error("the file is not a valid Office document");
  return `# ${filename}\n\nconverted ${filename}\n`;
};

let dbCount = 0;
async function open(options: ConstructorParameters<typeof UploadsService>[1] = { convert: fakeConvert }) {
  const files = new ThreadFiles(await openFawnDb(`uploads-service-test-${dbCount++}`));
  return { files, uploads: new UploadsService(files, options) };
}

async function contents(files: ThreadFiles, thread = "t"): Promise<Record<string, string>> {
  const all = await files.readAll(thread);
  return Object.fromEntries(all.map(({ meta, bytes }) => [meta.path, new TextDecoder().decode(bytes)]));
}

async function rejection(promise: Promise<unknown>): Promise<UploadError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (error instanceof UploadError) return error;
  throw new Error(`expected an UploadError, got ${String(error)}`);
}

describe("UploadsService.upload", () => {
  it("stores a file in the thread's uploads and describes it", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("notes.txt", "hello")]);
    expect(result).toEqual({
      files: [{ filename: "notes.txt", size: 5, virtual_path: `${U}/notes.txt` }],
      message: "Uploaded 1 file.",
    });
    expect(await contents(files)).toEqual({ [`${U}/notes.txt`]: "hello" });
  });

  it("stores a file under its base name only", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("../../etc/passwd"), file("C:\\Users\\me\\a.txt")]);
    expect(result.files.map((f) => f.virtual_path)).toEqual([`${U}/passwd`, `${U}/a.txt`]);
    expect(Object.keys(await contents(files))).toEqual([`${U}/a.txt`, `${U}/passwd`]);
  });

  it("renames a second file of the same name in one upload, reporting the name it had", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("data.txt", "first"), file("data.txt", "second")]);
    expect(result.files).toEqual([
      { filename: "data.txt", size: 5, virtual_path: `${U}/data.txt` },
      { filename: "data_1.txt", size: 6, virtual_path: `${U}/data_1.txt`, original_filename: "data.txt" },
    ]);
    expect(await contents(files)).toEqual({ [`${U}/data.txt`]: "first", [`${U}/data_1.txt`]: "second" });
  });

  it("replaces an earlier upload of the same name", async () => {
    const { files, uploads } = await open();
    await uploads.upload("t", [file("data.txt", "old")]);
    const result = await uploads.upload("t", [file("data.txt", "new")]);
    expect(result.files[0]).toEqual({ filename: "data.txt", size: 3, virtual_path: `${U}/data.txt` });
    expect(await contents(files)).toEqual({ [`${U}/data.txt`]: "new" });
  });

  it("keeps each thread's uploads apart", async () => {
    const { files, uploads } = await open();
    await uploads.upload("a", [file("x.txt", "in a")]);
    await uploads.upload("b", [file("x.txt", "in b")]);
    expect(await contents(files, "a")).toEqual({ [`${U}/x.txt`]: "in a" });
    expect(await contents(files, "b")).toEqual({ [`${U}/x.txt`]: "in b" });
  });

  it("refuses the whole upload when a name is unsafe, naming it", async () => {
    const convert = vi.fn(fakeConvert);
    const { files, uploads } = await open({ convert });
    for (const [name, reason] of [
      ["..", /unsafe/],
      ["", /empty/],
      ["bad\u0000name.txt", /control characters/],
      [`${"x".repeat(300)}.txt`, /longer than 255 bytes/],
    ] as const) {
      const error = await rejection(uploads.upload("t", [file("ok.docx"), { name, bytes: text("x") }]));
      expect(error.message).toMatch(reason);
      expect(error.message).toContain(JSON.stringify(name));
      expect(error.status).toBe(400);
    }
    expect(convert).not.toHaveBeenCalled();
    expect(await contents(files)).toEqual({});
  });

  describe("refuses an upload over a limit whole, before converting or writing anything", () => {
    const cases: [string, () => UploadInput[], RegExp][] = [
      [
        "too many files",
        () => Array.from({ length: 11 }, (_, i) => file(`f${i}.pdf`)),
        /^You can attach at most 10 files at once; you chose 11\.$/,
      ],
      [
        "one file too large",
        () => [file("ok.pdf"), { name: "big.pdf", bytes: new Uint8Array(50 * MiB + 1) }],
        /^big\.pdf is 50\.0 MB; the limit is 50 MB per file\.$/,
      ],
      [
        "too large together",
        () => [0, 1, 2].map((i) => ({ name: `part${i}.pdf`, bytes: new Uint8Array(40 * MiB) })),
        /^These files add up to 120\.0 MB; the limit is 100 MB per upload\.$/,
      ],
    ];
    for (const [label, make, message] of cases) {
      it(label, async () => {
        const convert = vi.fn(fakeConvert);
        const { files, uploads } = await open({ convert });
        await uploads.upload("t", [file("kept.txt", "before")]);
        const error = await rejection(uploads.upload("t", make()));
        expect(error.message).toMatch(message);
        expect(error.status).toBe(413);
        expect(convert).not.toHaveBeenCalled();
        expect(await contents(files)).toEqual({ [`${U}/kept.txt`]: "before" });
      });
    }
  });

  it("writes the whole upload in one ThreadFiles transaction", async () => {
    const { files, uploads } = await open();
    const apply = vi.spyOn(files, "apply");
    await uploads.upload("t", [file("a.docx"), file("b.txt"), file("c.pdf")]);
    expect(apply).toHaveBeenCalledTimes(1);
    expect(apply.mock.calls[0]?.[1].write?.map((w) => w.path)).toEqual([
      `${U}/a.docx`,
      `${U}/a.md`,
      `${U}/b.txt`,
      `${U}/c.pdf`,
      `${U}/c.md`,
    ]);
  });

  it("says so when the browser's storage is full, and the upload is not stored", async () => {
    const { files, uploads } = await open();
    vi.spyOn(files, "apply").mockRejectedValue(Object.assign(new Error("full"), { name: "QuotaExceededError" }));
    const error = await rejection(uploads.upload("t", [file("a.txt")]));
    expect(error.message).toBe(STORAGE_FULL_MESSAGE);
    expect(error.status).toBe(507);
  });
});

describe("UploadsService.upload: Markdown companions", () => {
  it("writes <stem>.md beside a document and reports it", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("report.pdf", "%PDF")]);
    expect(result.files).toEqual([
      {
        filename: "report.pdf",
        size: 4,
        virtual_path: `${U}/report.pdf`,
        markdown_file: "report.md",
        markdown_virtual_path: `${U}/report.md`,
      },
    ]);
    expect(await contents(files)).toEqual({
      [`${U}/report.pdf`]: "%PDF",
      [`${U}/report.md`]: "# report.pdf\n\nconverted report.pdf\n",
    });
  });

  it("converts .pdf, .docx, .xlsx and .pptx in any case, and nothing else", async () => {
    const convert = vi.fn(fakeConvert);
    const { uploads } = await open({ convert });
    const names = ["a.pdf", "b.DOCX", "c.xlsx", "d.pptx", "e.doc", "f.xls", "g.ppt", "h.txt", "i.md", "pdf"];
    const result = await uploads.upload(
      "t",
      names.map((name) => file(name)),
    );
    expect(convert.mock.calls.map(([name]) => name)).toEqual(["a.pdf", "b.DOCX", "c.xlsx", "d.pptx"]);
    expect(result.files.filter((f) => f.markdown_file).map((f) => f.markdown_file)).toEqual([
      "a.md",
      "b.md",
      "c.md",
      "d.md",
    ]);
    expect(result.files.every((f) => f.warning === undefined)).toBe(true);
  });

  it("keeps a user's notes.md and names the companion of notes.docx notes_1.md", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("notes.md", "mine"), file("notes.docx")]);
    expect(result.files[0]).toEqual({ filename: "notes.md", size: 4, virtual_path: `${U}/notes.md` });
    expect(result.files[1]?.markdown_file).toBe("notes_1.md");
    const stored = await contents(files);
    expect(stored[`${U}/notes.md`]).toBe("mine");
    expect(stored[`${U}/notes_1.md`]).toBe("# notes.docx\n\nconverted notes.docx\n");
  });

  it("gives a.docx and a.pdf the companions a.md and a_1.md", async () => {
    const { uploads } = await open();
    const result = await uploads.upload("t", [file("a.docx"), file("a.pdf")]);
    expect(result.files.map((f) => [f.filename, f.markdown_file])).toEqual([
      ["a.docx", "a.md"],
      ["a.pdf", "a_1.md"],
    ]);
  });

  it("lets notes.docx's companion take notes.md when the user's notes.md comes after it", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("notes.docx"), file("notes.md", "mine")]);
    expect(result.files).toEqual([
      expect.objectContaining({ filename: "notes.docx", markdown_file: "notes.md" }),
      { filename: "notes_1.md", size: 4, virtual_path: `${U}/notes_1.md`, original_filename: "notes.md" },
    ]);
    const stored = await contents(files);
    expect(stored[`${U}/notes.md`]).toBe("# notes.docx\n\nconverted notes.docx\n");
    expect(stored[`${U}/notes_1.md`]).toBe("mine");
  });

  it("stores a document that cannot be converted, with a warning, and gives its companion name back", async () => {
    const { files, uploads } = await open();
    const result = await uploads.upload("t", [file("broken.docx"), file("broken.pdf")]);
    expect(result.files[0]).toEqual({
      filename: "broken.docx",
      size: 11,
      virtual_path: `${U}/broken.docx`,
      warning:
        "broken.docx was uploaded, but it could not be converted to Markdown: the file is not a valid Office document.",
    });
    expect(result.message).toBe("Uploaded 2 files. 2 documents could not be converted to Markdown.");
    expect(Object.keys(await contents(files)).sort()).toEqual([`${U}/broken.docx`, `${U}/broken.pdf`]);

    // The name a failed conversion claimed is free again for the next file.
    const next = await (await open()).uploads.upload("t", [file("broken.docx"), file("broken.md", "mine")]);
    expect(next.files[1]).toEqual({ filename: "broken.md", size: 4, virtual_path: `${U}/broken.md` });
  });

  it("warns in one sentence when the default converter cannot read a file", async () => {
    const { files, uploads } = await open({});
    const result = await uploads.upload("t", [file("fake.pdf", "not a pdf"), file("fake.xlsx", "not a workbook")]);
    expect(result.files.map((f) => f.warning)).toEqual([
      "fake.pdf was uploaded, but it could not be converted to Markdown: Invalid PDF structure.",
      "fake.xlsx was uploaded, but it could not be converted to Markdown: " +
        "the file is not a valid Office document (it is not a zip archive).",
    ]);
    expect(Object.keys(await contents(files)).sort()).toEqual([`${U}/fake.pdf`, `${U}/fake.xlsx`]);
  });

  it("gives up a conversion that hangs, keeps the upload, says so in one sentence and tells the converter", async () => {
    let signal: AbortSignal | undefined;
    const hangs: ConvertDocument = (_filename, _bytes, given) => {
      signal = given;
      return new Promise<string>(() => undefined);
    };
    const { files, uploads } = await open({ convert: hangs, conversionTimeoutMs: 50 });
    const result = await uploads.upload("t", [file("stuck.pdf", "%PDF-1.4"), file("notes.txt", "hello")]);
    expect(result.files[0]?.warning).toBe(
      "stuck.pdf was uploaded, but it could not be converted to Markdown: the conversion took longer than 0.1 seconds.",
    );
    expect(result.message).toBe("Uploaded 2 files. 1 document could not be converted to Markdown.");
    expect(await contents(files)).toEqual({ [`${U}/stuck.pdf`]: "%PDF-1.4", [`${U}/notes.txt`]: "hello" });
    expect(signal?.aborted).toBe(true);
  });

  it("converts nothing when conversion is off", async () => {
    const { files, uploads } = await open({ convert: false });
    const result = await uploads.upload("t", [file("a.docx")]);
    expect(result.files).toEqual([{ filename: "a.docx", size: 6, virtual_path: `${U}/a.docx` }]);
    expect(Object.keys(await contents(files))).toEqual([`${U}/a.docx`]);
  });

  it("converts a real DOCX with the default converter and stores its bytes unchanged", async () => {
    const { files, uploads } = await open({});
    const bytes = new Uint8Array(await (await fetch(reportDocx)).arrayBuffer());
    const result = await uploads.upload("t", [{ name: "report.docx", bytes }]);
    expect(result.files[0]?.markdown_virtual_path).toBe(`${U}/report.md`);
    const stored = await files.read("t", `${U}/report.docx`);
    expect(stored?.bytes).toEqual(bytes);
    const markdown = (await contents(files))[`${U}/report.md`];
    expect(markdown).toMatch(/^# report\.docx\n/);
    expect(markdown).toContain("## Quarterly Report");
    expect(markdown).toContain("| North | 120 |");
  });
});

describe("UploadsService.list", () => {
  it("lists the uploads sorted by name, without staging files, subfolders or other areas", async () => {
    const { files, uploads } = await open();
    const before = Date.now() / 1000;
    await files.write("t", [
      { path: `${U}/b.txt`, bytes: text("bb") },
      { path: `${U}/A.pdf`, bytes: text("a") },
      { path: `${U}/.env`, bytes: text("x") },
      { path: `${U}/draft.part`, bytes: text("x") },
      { path: `${U}/.upload-123.part`, bytes: text("x") },
      { path: `${U}/sub/inner.txt`, bytes: text("x") },
      { path: "/mnt/user-data/outputs/out.txt", bytes: text("x") },
      { path: "/mnt/user-data/workspace/w.txt", bytes: text("x") },
    ]);
    await files.write("other", [{ path: `${U}/theirs.txt`, bytes: text("x") }]);
    const listed = await uploads.list("t");
    expect(listed.map((entry) => entry.filename)).toEqual([".env", "A.pdf", "b.txt", "draft.part"]);
    expect(listed[2]).toEqual({
      filename: "b.txt",
      size: 2,
      virtual_path: `${U}/b.txt`,
      extension: ".txt",
      modified: expect.any(Number) as number,
    });
    expect(listed[2]?.modified).toBeGreaterThanOrEqual(Math.floor(before));
    expect(listed[2]?.modified).toBeLessThanOrEqual(Date.now() / 1000);
    expect(listed.map((entry) => entry.extension)).toEqual(["", ".pdf", ".txt", ".part"]);
  });

  it("lists nothing for a thread without uploads", async () => {
    const { uploads } = await open();
    expect(await uploads.list("empty")).toEqual([]);
  });
});

describe("UploadsService.delete", () => {
  it("deletes a document and its Markdown companion", async () => {
    const { files, uploads } = await open();
    await uploads.upload("t", [file("report.pdf"), file("keep.txt")]);
    await uploads.delete("t", "report.pdf");
    expect(Object.keys(await contents(files))).toEqual([`${U}/keep.txt`]);
  });

  it("deletes only the file itself when it is not a document", async () => {
    const { files, uploads } = await open();
    await uploads.upload("t", [file("data.csv"), file("data.md")]);
    await uploads.delete("t", "data.csv");
    expect(Object.keys(await contents(files))).toEqual([`${U}/data.md`]);
  });

  it("refuses a path or an unsafe name (status 400)", async () => {
    const { files, uploads } = await open();
    await files.write("t", [{ path: "/mnt/user-data/outputs/secret.txt", bytes: text("x") }]);
    for (const name of ["../outputs/secret.txt", "..", "", "sub/inner.txt", "a\\b.txt"]) {
      const error = await rejection(uploads.delete("t", name));
      expect(error.status, name).toBe(400);
      expect(error.message).toMatch(/is not the name of a file in the uploads folder/);
    }
    expect(Object.keys(await contents(files))).toEqual(["/mnt/user-data/outputs/secret.txt"]);
  });

  it("says when there is no such upload (status 404)", async () => {
    const { uploads } = await open();
    const error = await rejection(uploads.delete("t", "missing.txt"));
    expect(error.message).toBe("There is no upload named missing.txt in this thread.");
    expect(error.status).toBe(404);
  });
});

describe("UploadsService limits", () => {
  it("applies the limits it was given", async () => {
    const { uploads } = await open({ limits: { max_files: 1, max_file_size: 10, max_total_size: 10 } });
    await expect(uploads.upload("t", [file("a"), file("b")])).rejects.toThrow(/at most 1 files/);
  });
});
