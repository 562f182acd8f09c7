// Writes the small documents the upload conversion tests read (test/fixtures/documents/): a DOCX, a 2-page PDF, a
// 2-sheet XLSX and a 2-slide PPTX, built from minimal OOXML and a hand-written PDF so they are reproducible byte for
// byte. Run: npx tsx scripts/make-document-fixtures.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { strToU8, zipSync, type Zippable } from "fflate";

const OUT = "test/fixtures/documents";
/** A fixed date inside every zip, so a rerun writes the same bytes. */
const MTIME = new Date("2025-01-01T00:00:00Z");

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const CT = "http://schemas.openxmlformats.org/package/2006/content-types";

function zip(files: Record<string, string>): Uint8Array {
  const entries: Zippable = {};
  for (const [path, text] of Object.entries(files)) entries[path] = [strToU8(text), { mtime: MTIME }];
  return zipSync(entries, { level: 9 });
}

function relationships(rels: [id: string, type: string, target: string][]): string {
  return `${XML}<Relationships xmlns="${PKG_REL}">${rels
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join("")}</Relationships>`;
}

function contentTypes(overrides: [part: string, type: string][]): string {
  return `${XML}<Types xmlns="${CT}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join("")}</Types>`;
}

// DOCX: a heading, a paragraph with bold text, a second-level heading, a bulleted list, a table and a closing line.
function docx(): Uint8Array {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const p = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const bullet = (text: string) =>
    `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
  const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="2400" w:type="dxa"/></w:tcPr>${p(text)}</w:tc>`;
  const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join("")}</w:tr>`;
  const body = [
    p("Quarterly Report", "Heading1"),
    `<w:p><w:r><w:t xml:space="preserve">Revenue grew by </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>12 percent</w:t></w:r><w:r><w:t xml:space="preserve"> in the third quarter.</w:t></w:r></w:p>`,
    p("Highlights", "Heading2"),
    bullet("New office in Lyon"),
    bullet("Two product launches"),
    `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2400"/><w:gridCol w:w="2400"/></w:tblGrid>${row("Region", "Revenue")}${row("North", "120")}${row("South", "95")}</w:tbl>`,
    p("Prepared by the finance team."),
  ].join("");
  const style = (id: string, name: string, type = "paragraph") =>
    `<w:style w:type="${type}" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  return zip({
    "[Content_Types].xml": contentTypes([
      ["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"],
      ["/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"],
      ["/word/numbering.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"],
    ]),
    "_rels/.rels": relationships([["rId1", "officeDocument", "word/document.xml"]]),
    "word/_rels/document.xml.rels": relationships([
      ["rId1", "styles", "styles.xml"],
      ["rId2", "numbering", "numbering.xml"],
    ]),
    "word/document.xml": `${XML}<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    "word/styles.xml": `${XML}<w:styles ${W}>${style("Normal", "Normal")}${style("Heading1", "heading 1")}${style("Heading2", "heading 2")}${style("TableGrid", "Table Grid", "table")}</w:styles>`,
    "word/numbering.xml": `${XML}<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
  });
}

// XLSX: sheet "Sales" (text, numbers and a date) and sheet "Notes" (text and a boolean).
function xlsx(): Uint8Array {
  const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const R = `xmlns:r="${REL}"`;
  const strings = ["Region", "Units", "Shipped", "North", "South", "Owner", "Ada Lovelace", "Reviewed"];
  const s = (ref: string, text: string) => `<c r="${ref}" t="s"><v>${strings.indexOf(text)}</v></c>`;
  const n = (ref: string, value: number, style = 0) =>
    `<c r="${ref}"${style ? ` s="${style}"` : ""}><v>${value}</v></c>`;
  const serial = (iso: string) => (Date.parse(iso) - Date.UTC(1899, 11, 30)) / 86_400_000;
  const sheet = (rows: string[]) =>
    `${XML}<worksheet ${S}><sheetData>${rows.map((cells, i) => `<row r="${i + 1}">${cells}</row>`).join("")}</sheetData></worksheet>`;
  return zip({
    "[Content_Types].xml": contentTypes([
      ["/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
      ["/xl/worksheets/sheet1.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"],
      ["/xl/worksheets/sheet2.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"],
      ["/xl/sharedStrings.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"],
      ["/xl/styles.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"],
    ]),
    "_rels/.rels": relationships([["rId1", "officeDocument", "xl/workbook.xml"]]),
    "xl/_rels/workbook.xml.rels": relationships([
      ["rId1", "worksheet", "worksheets/sheet1.xml"],
      ["rId2", "worksheet", "worksheets/sheet2.xml"],
      ["rId3", "sharedStrings", "sharedStrings.xml"],
      ["rId4", "styles", "styles.xml"],
    ]),
    "xl/workbook.xml": `${XML}<workbook ${S} ${R}><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    "xl/sharedStrings.xml": `${XML}<sst ${S} count="${strings.length}" uniqueCount="${strings.length}">${strings.map((text) => `<si><t>${text}</t></si>`).join("")}</sst>`,
    // cellXfs 1 is the built-in short date format (numFmtId 14).
    "xl/styles.xml": `${XML}<styleSheet ${S}><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    "xl/worksheets/sheet1.xml": sheet([
      s("A1", "Region") + s("B1", "Units") + s("C1", "Shipped"),
      s("A2", "North") + n("B2", 120) + n("C2", serial("2024-01-15"), 1),
      s("A3", "South") + n("B3", 95.5) + n("C3", serial("2024-02-29"), 1),
    ]),
    "xl/worksheets/sheet2.xml": sheet([
      s("A1", "Owner") + s("B1", "Ada Lovelace"),
      s("A2", "Reviewed") + '<c r="B2" t="b"><v>1</v></c>',
    ]),
  });
}

// PPTX: slide 1 is a title slide; slide 2 has a title, two bullets, a table and a speaker note. Only the parts a
// text extractor reads (no masters, layouts or theme).
function pptx(): Uint8Array {
  const NS =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const shape = (id: number, placeholder: string, paragraphs: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Shape ${id}"/><p:cNvSpPr/><p:nvPr><p:ph type="${placeholder}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs
      .map((text) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`)
      .join("")}</p:txBody></p:sp>`;
  const cell = (text: string) =>
    `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></a:txBody></a:tc>`;
  const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 4"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid><a:gridCol w="3000000"/><a:gridCol w="3000000"/></a:tblGrid><a:tr h="370840">${cell("Owner")}${cell("Task")}</a:tr><a:tr h="370840">${cell("Ada")}${cell("Docs &amp; tests")}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
  const slide = (shapes: string) =>
    `${XML}<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:sld>`;
  const PML = "application/vnd.openxmlformats-officedocument.presentationml";
  return zip({
    "[Content_Types].xml": contentTypes([
      ["/ppt/presentation.xml", `${PML}.presentation.main+xml`],
      ["/ppt/slides/slide1.xml", `${PML}.slide+xml`],
      ["/ppt/slides/slide2.xml", `${PML}.slide+xml`],
      ["/ppt/notesSlides/notesSlide1.xml", `${PML}.notesSlide+xml`],
    ]),
    "_rels/.rels": relationships([["rId1", "officeDocument", "ppt/presentation.xml"]]),
    "ppt/_rels/presentation.xml.rels": relationships([
      ["rId2", "slide", "slides/slide1.xml"],
      ["rId3", "slide", "slides/slide2.xml"],
    ]),
    "ppt/presentation.xml": `${XML}<p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    "ppt/slides/slide1.xml": slide(
      shape(2, "ctrTitle", ["Fawn Roadmap"]) + shape(3, "subTitle", ["Uploads become Markdown"]),
    ),
    "ppt/slides/slide2.xml": slide(
      shape(2, "title", ["Next Steps"]) + shape(3, "body", ["Ship the PWA", "Measure chunk sizes"]) + table,
    ),
    "ppt/slides/_rels/slide2.xml.rels": relationships([["rId1", "notesSlide", "../notesSlides/notesSlide1.xml"]]),
    "ppt/notesSlides/notesSlide1.xml": `${XML}<p:notes ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape(2, "sldImg", [])}${shape(3, "body", ["Keep the demo under five minutes."])}${shape(4, "sldNum", ["2"])}</p:spTree></p:cSld></p:notes>`,
  });
}

// PDF: two Letter pages, text in the standard Helvetica font (WinAnsiEncoding), offsets computed for the xref table.
function pdf(): Uint8Array {
  const pageText = [
    ["Annual Summary", "The first page talks about apples and pears.", "Sales rose in every region."],
    ["Second Page", "Oranges arrive on the second page.", "The end."],
  ];
  const stream = (lines: string[]) =>
    `BT /F1 18 Tf 72 720 Td (${lines[0]}) Tj /F1 12 Tf 0 -30 Td (${lines[1]}) Tj 0 -16 Td (${lines[2]}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 7 0 R >>",
    ...pageText.map((lines) => {
      const content = stream(lines);
      return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
    }),
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return strToU8(body, true);
}

mkdirSync(OUT, { recursive: true });
const fixtures: [string, Uint8Array][] = [
  ["report.docx", docx()],
  ["summary.pdf", pdf()],
  ["sales.xlsx", xlsx()],
  ["roadmap.pptx", pptx()],
];
for (const [name, bytes] of fixtures) {
  writeFileSync(`${OUT}/${name}`, bytes);
  console.log(`wrote ${OUT}/${name} (${bytes.byteLength} bytes)`);
}
