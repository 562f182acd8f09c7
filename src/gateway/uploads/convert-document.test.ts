import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import reportDocx from "../../../test/fixtures/documents/report.docx?url&inline";
import roadmapPptx from "../../../test/fixtures/documents/roadmap.pptx?url&inline";
import salesXlsx from "../../../test/fixtures/documents/sales.xlsx?url&inline";
import summaryPdf from "../../../test/fixtures/documents/summary.pdf?url&inline";
import { CONVERTIBLE_EXTENSIONS, convertToMarkdown, isConvertible } from "./convert-document.ts";
import { markdownTable } from "./markdown-table.ts";

async function fixture(url: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(url)).arrayBuffer());
}

/** A one-page PDF whose page draws `content` (a content stream), with Helvetica as /F1. */
function pdfWith(content: string): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let body = "%PDF-1.4\n";
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return strToU8(body, true);
}

describe("isConvertible", () => {
  it("accepts PDF, DOCX, XLSX and PPTX by extension, in any case", () => {
    expect(CONVERTIBLE_EXTENSIONS).toEqual([".pdf", ".docx", ".xlsx", ".pptx"]);
    for (const name of ["a.pdf", "B.PDF", "c.docx", "d.Xlsx", "e.pptx", "x.tar.pdf"]) {
      expect(isConvertible(name), name).toBe(true);
    }
  });

  it("refuses the old binary formats and everything else", () => {
    for (const name of ["a.doc", "a.xls", "a.ppt", "a.txt", "a.md", "pdf", ".pdf", "a.pdf.zip", "a.toString"]) {
      expect(isConvertible(name), name).toBe(false);
    }
  });
});

describe("convertToMarkdown on real documents", () => {
  it("stops reading a PDF when the upload gives its conversion up", async () => {
    const giveUp = new AbortController();
    giveUp.abort();
    await expect(convertToMarkdown("summary.pdf", await fixture(summaryPdf), giveUp.signal)).rejects.toThrow(
      "the conversion was stopped",
    );
  });

  it("converts a DOCX: headings, paragraph, list and table", async () => {
    const markdown = await convertToMarkdown("report.docx", await fixture(reportDocx));
    expect(markdown).toBe(
      [
        "# report.docx",
        "",
        "## Quarterly Report",
        "",
        "Revenue grew by **12 percent** in the third quarter.",
        "",
        "### Highlights",
        "",
        "-   New office in Lyon",
        "-   Two product launches",
        "",
        "| Region | Revenue |",
        "| --- | --- |",
        "| North | 120 |",
        "| South | 95 |",
        "",
        "Prepared by the finance team.",
        "",
      ].join("\n"),
    );
  });

  it("converts a 2-page PDF, page by page", async () => {
    const markdown = await convertToMarkdown("summary.pdf", await fixture(summaryPdf));
    expect(markdown).toBe(
      [
        "# summary.pdf",
        "",
        "## Page 1",
        "",
        "Annual Summary",
        "",
        "The first page talks about apples and pears.",
        "Sales rose in every region.",
        "",
        "## Page 2",
        "",
        "Second Page",
        "",
        "Oranges arrive on the second page.",
        "The end.",
        "",
      ].join("\n"),
    );
  });

  it("converts an XLSX with 2 sheets, dates as dates", async () => {
    const markdown = await convertToMarkdown("sales.xlsx", await fixture(salesXlsx));
    expect(markdown).toBe(
      [
        "# sales.xlsx",
        "",
        "## Sales",
        "",
        "| Region | Units | Shipped |",
        "| --- | --- | --- |",
        "| North | 120 | 2024-01-15 |",
        "| South | 95.5 | 2024-02-29 |",
        "",
        "## Notes",
        "",
        "| Owner | Ada Lovelace |",
        "| --- | --- |",
        "| Reviewed | true |",
        "",
      ].join("\n"),
    );
  });

  it("converts a PPTX with 2 slides: titles, text, a table and speaker notes", async () => {
    const markdown = await convertToMarkdown("roadmap.pptx", await fixture(roadmapPptx));
    expect(markdown).toBe(
      [
        "# roadmap.pptx",
        "",
        "## Slide 1",
        "",
        "### Fawn Roadmap",
        "",
        "Uploads become Markdown",
        "",
        "## Slide 2",
        "",
        "### Next Steps",
        "",
        "Ship the PWA",
        "",
        "Measure chunk sizes",
        "",
        "| Owner | Task |",
        "| --- | --- |",
        "| Ada | Docs & tests |",
        "",
        "### Notes",
        "",
        "Keep the demo under five minutes.",
        "",
      ].join("\n"),
    );
  });

  it("leaves the bytes it is given unchanged", async () => {
    for (const [name, url] of [
      ["summary.pdf", summaryPdf],
      ["report.docx", reportDocx],
      ["sales.xlsx", salesXlsx],
      ["roadmap.pptx", roadmapPptx],
    ] as const) {
      const bytes = await fixture(url);
      const copy = bytes.slice();
      await convertToMarkdown(name, bytes);
      expect(bytes.byteLength, name).toBe(copy.byteLength);
      expect(bytes, name).toEqual(copy);
    }
  });

  it("converts bytes held in a Node Buffer inside Node's shared pool as it converts the same bytes alone", async () => {
    // Found by test/integration/fuzz-uploads: Buffer's slice() is a view, and `.buffer` was the whole pool.
    for (const [name, url] of [
      ["summary.pdf", summaryPdf],
      ["report.docx", reportDocx],
      ["sales.xlsx", salesXlsx],
    ] as const) {
      const bytes = await fixture(url);
      const pooled = Buffer.concat([bytes]);
      expect(pooled.byteOffset > 0 || pooled.buffer.byteLength > pooled.byteLength, name).toBe(true);
      expect(await convertToMarkdown(name, pooled), name).toBe(await convertToMarkdown(name, bytes));
    }
  });
});

describe("convertToMarkdown on files it cannot read", () => {
  // Found by test/integration/fuzz-uploads: the libraries' own messages reached the user, over two lines, with
  // "[xmldom error]", "line:undefined" and "Bug : uncompressed data size mismatch" in them.
  it.each([
    [
      "report.docx",
      "word/document.xml",
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aa">]><x>&b;</x>',
      "the document's XML is damaged",
    ],
    [
      "report.docx",
      "word/document.xml",
      undefined,
      "the file is not a complete Word document (a part of it is missing)",
    ],
    ["sales.xlsx", "xl/worksheets/sheet1.xml", "<worksheet><sheetData><row", "the workbook's XML is damaged"],
    [
      "sales.xlsx",
      "xl/_rels/workbook.xml.rels",
      undefined,
      "the file is not a complete Excel workbook (a part of it is missing)",
    ],
  ] as const)("says %s's %s is damaged or missing in one plain reason", async (name, part, xml, reason) => {
    const parts = unzipSync(await fixture(name === "report.docx" ? reportDocx : salesXlsx));
    if (xml === undefined) delete parts[part];
    else parts[part] = strToU8(xml);
    await expect(convertToMarkdown(name, zipSync(parts))).rejects.toThrow(new Error(reason));
  });

  it("rejects a file that is not what its extension says, with a readable reason", async () => {
    const junk = strToU8("this is not a document");
    await expect(convertToMarkdown("a.docx", junk)).rejects.toThrow(/not a valid Office document/);
    await expect(convertToMarkdown("a.xlsx", junk)).rejects.toThrow(/not a valid Office document/);
    await expect(convertToMarkdown("a.pptx", junk)).rejects.toThrow(/not a valid Office document/);
    await expect(convertToMarkdown("a.pdf", junk)).rejects.toThrow(/Invalid PDF/i);
  });

  it("says when an Office file is password-protected (an OLE compound file, not a zip)", async () => {
    const encrypted = new Uint8Array(512);
    encrypted.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    for (const name of ["secret.docx", "secret.xlsx", "secret.pptx"]) {
      await expect(convertToMarkdown(name, encrypted), name).rejects.toThrow(/password-protected/);
    }
  });

  it("refuses an Office file that would unpack to more than 512 MB, before unpacking it", async () => {
    const zip = zipSync({ "word/document.xml": strToU8("<w:document/>") }, { level: 0 });
    // Claim 2 GiB unpacked in the central directory entry (signature PK\1\2; the size sits 24 bytes in).
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    let entry = zip.byteLength - 22;
    while (entry > 0 && view.getUint32(entry, true) !== 0x02014b50) entry--;
    view.setUint32(entry + 24, 0x7fffffff, true);
    await expect(convertToMarkdown("bomb.docx", zip)).rejects.toThrow(/unpacks to 2\.0 GB, more than the 512\.0 MB/);
  });

  it("rejects a zip that holds no presentation", async () => {
    const zip = zipSync({ "hello.txt": strToU8("hi") });
    await expect(convertToMarkdown("a.pptx", zip)).rejects.toThrow(/has no slides/);
  });

  it("rejects a PDF without a text layer", async () => {
    const drawing = pdfWith("0 0 1 rg 100 100 200 200 re f");
    await expect(convertToMarkdown("scan.pdf", drawing)).rejects.toThrow(/no text layer/);
  });

  it("rejects a name it does not convert", async () => {
    await expect(convertToMarkdown("old.doc", new Uint8Array(4))).rejects.toThrow(/not a PDF, DOCX, XLSX or PPTX/);
  });
});

describe("DOCX details", () => {
  it("keeps an image's description instead of its bytes, and escapes Markdown in the text", async () => {
    const W =
      'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
    const drawing =
      '<w:drawing><wp:inline><wp:docPr id="1" name="Picture 1" descr="Sales chart"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>';
    const docx = zipSync({
      "[Content_Types].xml": strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      "_rels/.rels": strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      "word/_rels/document.xml.rels": strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>',
      ),
      "word/media/image1.png": new Uint8Array(4096).fill(7),
      "word/document.xml": strToU8(
        `<w:document ${W}><w:body><w:p><w:r><w:t>1. Not a list, *not* emphasis</w:t></w:r></w:p><w:p><w:r>${drawing}</w:r></w:p></w:body></w:document>`,
      ),
    });
    const markdown = await convertToMarkdown("figure.docx", docx);
    expect(markdown).toBe("# figure.docx\n\n1\\. Not a list, \\*not\\* emphasis\n\n[Image: Sales chart]\n");
  });
});

describe("PPTX details", () => {
  const NS =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const slide = (body: string) => `<p:sld ${NS}><p:cSld><p:spTree>${body}</p:spTree></p:cSld></p:sld>`;
  const rels = (targets: string[]) =>
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
      .map((target, i) => `<Relationship Id="rId${i + 1}" Type="t" Target="${target}"/>`)
      .join("")}</Relationships>`;

  it("follows the presentation's slide order, not the part names", async () => {
    const pptx = zipSync({
      "ppt/presentation.xml": strToU8(
        `<p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId1"/></p:sldIdLst></p:presentation>`,
      ),
      "ppt/_rels/presentation.xml.rels": strToU8(rels(["slides/slide1.xml", "/ppt/slides/slide2.xml"])),
      "ppt/slides/slide1.xml": strToU8(
        slide("<p:sp><p:txBody><a:p><a:r><a:t>made first</a:t></a:r></a:p></p:txBody></p:sp>"),
      ),
      "ppt/slides/slide2.xml": strToU8(
        slide("<p:sp><p:txBody><a:p><a:r><a:t>shown first</a:t></a:r></a:p></p:txBody></p:sp>"),
      ),
    });
    const markdown = await convertToMarkdown("deck.pptx", pptx);
    expect(markdown).toBe("# deck.pptx\n\n## Slide 1\n\nshown first\n\n## Slide 2\n\nmade first\n");
  });

  it("decodes entities, keeps line breaks, skips slide numbers and marks empty slides", async () => {
    const pptx = zipSync({
      "ppt/slides/slide1.xml": strToU8(
        slide(
          '<p:sp><p:nvSpPr><p:nvPr><p:ph type="body"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>R&amp;D &lt;2025&gt; &#x2713; caf&#233;</a:t></a:r><a:br><a:rPr/></a:br><a:r><a:t>second line</a:t></a:r></a:p></p:txBody></p:sp>' +
            '<p:sp><p:nvSpPr><p:nvPr><p:ph type="sldNum"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>7</a:t></a:r></a:p></p:txBody></p:sp>',
        ),
      ),
      "ppt/slides/slide2.xml": strToU8(slide("")),
    });
    const markdown = await convertToMarkdown("deck.pptx", pptx);
    expect(markdown).toBe(
      "# deck.pptx\n\n## Slide 1\n\nR&D <2025> ✓ café\nsecond line\n\n## Slide 2\n\n_(no text on this slide)_\n",
    );
  });
});

describe("markdownTable", () => {
  it("uses the first row as the header and pads short rows", () => {
    expect(markdownTable([["a", "b"], ["1"], ["2", "3"]])).toBe("| a | b |\n| --- | --- |\n| 1 |  |\n| 2 | 3 |");
  });

  it("escapes pipes, keeps line breaks as <br> and drops empty trailing rows and columns", () => {
    expect(
      markdownTable([
        ["x|y", "two\nlines", ""],
        ["", "", ""],
      ]),
    ).toBe("| x\\|y | two<br>lines |\n| --- | --- |");
  });

  it("gives nothing for no rows", () => {
    expect(markdownTable([])).toBe("");
    expect(markdownTable([["", ""]])).toBe("");
  });
});

describe("loading", () => {
  // The libraries are large; they must stay out of the agent worker's first chunk. A module reached only through
  // `import()` becomes a chunk of its own, so: the converters are imported dynamically, by convert-document.ts only,
  // and the modules the Gateway imports statically import no library.
  const sources = import.meta.glob<string>(["/src/**/*.ts", "/workers/**/*.ts", "!**/*.test.ts", "!**/*.d.ts"], {
    query: "?raw",
    import: "default",
    eager: true,
  });
  const staticImports = (source: string) =>
    [...source.matchAll(/^\s*(?:import|export)\s(?:[^;]*?\sfrom\s)?\s*["']([^"']+)["']/gm)].map((m) => m[1]);
  const converters = ["pdf-to-markdown", "docx-to-markdown", "xlsx-to-markdown", "pptx-to-markdown"];

  it("imports each converter only with import(), from convert-document.ts", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
    for (const [path, source] of Object.entries(sources)) {
      for (const specifier of staticImports(source)) {
        expect(
          converters.some((name) => specifier?.includes(name)),
          `${path} imports ${specifier}`,
        ).toBe(false);
      }
      const dynamic = [...source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
      if (!path.endsWith("/uploads/convert-document.ts")) {
        expect(
          dynamic.filter((specifier) => converters.some((name) => specifier?.includes(name))),
          path,
        ).toEqual([]);
      }
    }
  });

  it("keeps the libraries out of the modules the Gateway imports", () => {
    const heavy = /^(pdfjs-dist|mammoth|read-excel-file|linkedom|turndown|fflate)(\/|$)/;
    for (const name of ["convert-document", "uploads-service", "upload-rules"]) {
      const source = sources[`/src/gateway/uploads/${name}.ts`];
      expect(source, name).toBeDefined();
      expect(
        staticImports(source!).filter((specifier) => heavy.test(specifier ?? "")),
        name,
      ).toEqual([]);
    }
  });
});
