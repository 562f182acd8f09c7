// The preview each artifact gets, from its name, and how much of a text file is shown.
import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { artifactKind, extensionOf, fileName, parseTable, previewText, skillMarkdown } from "./artifact-kinds.ts";

const OUTPUTS = "/mnt/user-data/outputs";

describe("artifactKind", () => {
  it("renders Markdown and HTML, each with a source view", () => {
    expect(artifactKind(`${OUTPUTS}/report.md`)).toEqual({ kind: "markdown", source: "markdown" });
    expect(artifactKind(`${OUTPUTS}/NOTES.Markdown`)).toEqual({ kind: "markdown", source: "markdown" });
    expect(artifactKind(`${OUTPUTS}/site/index.html`)).toEqual({ kind: "html", source: "xml" });
    expect(artifactKind(`${OUTPUTS}/page.HTM`)).toEqual({ kind: "html", source: "xml" });
  });

  it("shows images, SVG included, with the image type the extension names", () => {
    expect(artifactKind(`${OUTPUTS}/chart.png`)).toEqual({ kind: "image", mimeType: "image/png" });
    expect(artifactKind(`${OUTPUTS}/photo.JPG`)).toEqual({ kind: "image", mimeType: "image/jpeg" });
    expect(artifactKind(`${OUTPUTS}/photo.jpeg`)).toEqual({ kind: "image", mimeType: "image/jpeg" });
    expect(artifactKind(`${OUTPUTS}/anim.gif`)).toEqual({ kind: "image", mimeType: "image/gif" });
    expect(artifactKind(`${OUTPUTS}/pic.webp`)).toEqual({ kind: "image", mimeType: "image/webp" });
    // Even when the stored type says otherwise: an SVG is only ever shown as an image.
    expect(artifactKind(`${OUTPUTS}/logo.svg`, "text/html")).toEqual({ kind: "image", mimeType: "image/svg+xml" });
  });

  it("highlights code by language and shows plain text as it is", () => {
    expect(artifactKind(`${OUTPUTS}/main.ts`)).toEqual({ kind: "code", language: "typescript" });
    expect(artifactKind(`${OUTPUTS}/app.js`)).toEqual({ kind: "code", language: "javascript" });
    expect(artifactKind(`${OUTPUTS}/analysis.py`)).toEqual({ kind: "code", language: "python" });
    expect(artifactKind(`${OUTPUTS}/data.json`)).toEqual({ kind: "code", language: "json" });
    expect(artifactKind(`${OUTPUTS}/style.css`)).toEqual({ kind: "code", language: "css" });
    expect(artifactKind(`${OUTPUTS}/run.sh`)).toEqual({ kind: "code", language: "bash" });
    expect(artifactKind(`${OUTPUTS}/config.yml`)).toEqual({ kind: "code", language: "yaml" });
    expect(artifactKind(`${OUTPUTS}/Cargo.toml`)).toEqual({ kind: "code", language: "ini" });
    expect(artifactKind(`${OUTPUTS}/Dockerfile`)).toEqual({ kind: "code", language: "dockerfile" });
    expect(artifactKind(`${OUTPUTS}/Makefile`)).toEqual({ kind: "code", language: "makefile" });
    expect(artifactKind(`${OUTPUTS}/notes.txt`)).toEqual({ kind: "code", language: undefined });
  });

  it("plays video and audio in the browser's player, .ogg as audio", () => {
    expect(artifactKind(`${OUTPUTS}/demo.MP4`)).toEqual({ kind: "video", mimeType: "video/mp4" });
    expect(artifactKind(`${OUTPUTS}/demo.webm`)).toEqual({ kind: "video", mimeType: "video/webm" });
    expect(artifactKind(`${OUTPUTS}/voice.mp3`)).toEqual({ kind: "audio", mimeType: "audio/mpeg" });
    expect(artifactKind(`${OUTPUTS}/voice.ogg`)).toEqual({ kind: "audio", mimeType: "audio/ogg" });
    expect(artifactKind(`${OUTPUTS}/tone.wav`)).toEqual({ kind: "audio", mimeType: "audio/wav" });
  });

  it("shows CSV and TSV as tables", () => {
    expect(artifactKind(`${OUTPUTS}/sales.csv`)).toEqual({ kind: "table", delimiter: "," });
    expect(artifactKind(`${OUTPUTS}/sales.TSV`)).toEqual({ kind: "table", delimiter: "\t" });
  });

  it("knows PDFs and skill archives", () => {
    expect(artifactKind(`${OUTPUTS}/paper.pdf`)).toEqual({ kind: "pdf" });
    expect(artifactKind(`${OUTPUTS}/haiku-writer.skill`)).toEqual({ kind: "skill" });
  });

  it("falls back on the stored type only for names that say nothing, and otherwise has no preview", () => {
    expect(artifactKind(`${OUTPUTS}/README`, "text/plain")).toEqual({ kind: "code", language: undefined });
    expect(artifactKind(`${OUTPUTS}/README`)).toEqual({ kind: "none" });
    expect(artifactKind(`${OUTPUTS}/deck.pptx`, "application/zip")).toEqual({ kind: "none" });
    expect(artifactKind(`${OUTPUTS}/archive.zip`)).toEqual({ kind: "none" });
    expect(artifactKind(`${OUTPUTS}/blob.bin`, "application/octet-stream")).toEqual({ kind: "none" });
  });
});

describe("file names", () => {
  it("takes the last path segment and a lower-case extension; a leading dot is no extension", () => {
    expect(fileName("/mnt/user-data/outputs/sub/report.md")).toBe("report.md");
    expect(fileName("report.md")).toBe("report.md");
    expect(extensionOf("Report.MD")).toBe("md");
    expect(extensionOf(".env")).toBe("");
    expect(extensionOf("Makefile")).toBe("");
  });
});

describe("previewText", () => {
  it("decodes a small file whole", () => {
    const bytes = new TextEncoder().encode("héllo");
    expect(previewText(bytes)).toEqual({ text: "héllo", truncated: false, totalBytes: 6 });
  });

  it("cuts a large file at the limit without leaving half a character", () => {
    // "é" is two bytes: a cut after 3 bytes splits the second one.
    const bytes = new TextEncoder().encode("aéé");
    const preview = previewText(bytes, 4);
    expect(preview).toEqual({ text: "aé", truncated: true, totalBytes: 5 });
    expect(preview.text).not.toContain("\uFFFD");
  });

  it("drops a byte-order mark", () => {
    expect(previewText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])).text).toBe("a");
  });
});

describe("parseTable", () => {
  it("reads quoted cells, doubled quotes and newlines inside cells", async () => {
    const table = await parseTable('name,quote\n"Smith, Jane","She said ""hi"""\nBob,"two\nlines"\n', ",");
    expect(table).toEqual({
      header: ["name", "quote"],
      rows: [
        ["Smith, Jane", 'She said "hi"'],
        ["Bob", "two\nlines"],
      ],
      total: 2,
      columns: 2,
    });
  });

  it("splits TSV on tabs only, pads short rows and skips blank lines", async () => {
    const table = await parseTable("a\tb, c\td\n1\n\n2\t3\n", "\t");
    expect(table.header).toEqual(["a", "b, c", "d"]);
    expect(table.rows).toEqual([
      ["1", "", ""],
      ["2", "3", ""],
    ]);
  });

  it("keeps the first rows and counts them all", async () => {
    const text = ["n", ...Array.from({ length: 600 }, (_, index) => String(index + 1))].join("\n");
    const table = await parseTable(text, ",", 500);
    expect(table.rows).toHaveLength(500);
    expect(table.rows.at(-1)).toEqual(["500"]);
    expect(table.total).toBe(600);
  });

  it("has no columns for an empty file", async () => {
    expect(await parseTable("", ",")).toEqual({ header: [], rows: [], total: 0, columns: 0 });
  });
});

describe("skillMarkdown", () => {
  const skill = "---\nname: tea\ndescription: Brew tea.\n---\n\n# Tea\n";

  it("is the archive's SKILL.md with its frontmatter as a YAML block", async () => {
    const archive = zipSync({ tea: { "SKILL.md": strToU8(skill), "notes.md": strToU8("# Notes") } });
    expect(await skillMarkdown(archive)).toBe("```yaml\nname: tea\ndescription: Brew tea.\n```\n\n# Tea\n");
  });

  it("prefers the top-most SKILL.md and is undefined without one", async () => {
    const nested = zipSync({ "tea/SKILL.md": strToU8("# Top"), "tea/examples/x/SKILL.md": strToU8("# Deep") });
    expect(await skillMarkdown(nested)).toBe("# Top");
    expect(await skillMarkdown(zipSync({ "README.md": strToU8("# Hi") }))).toBeUndefined();
  });

  it("rejects bytes that are not an archive", async () => {
    await expect(skillMarkdown(strToU8("not a zip"))).rejects.toThrow();
  });
});
