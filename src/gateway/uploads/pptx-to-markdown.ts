// PPTX → Markdown: the slides' text in presentation order, each under `## Slide N`, with titles as `###` headings,
// tables as Markdown tables and the speaker notes after them. No library in the project reads PPTX, so this reads
// the DrawingML text (`<a:p>` paragraphs of `<a:t>` runs) from the unzipped XML parts. Loaded on demand by
// convert-document.ts.
import { strFromU8, type Unzipped } from "fflate";
import { markdownTable } from "./markdown-table.ts";
import { unzipOfficeFile } from "./office-zip.ts";

interface Tag {
  kind: "open" | "close" | "empty";
  name: string;
  attributes: string;
}

type XmlToken = Tag | { kind: "text"; text: string };

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return ENTITIES[body] ?? entity;
  });
}

// A tag with its attributes, a run of text, or a declaration or comment (skipped). PowerPoint writes no CDATA.
const XML_TOKEN = /<(\/?)([\w:.-]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<[?!][^>]*>|([^<]+)/g;

function* tokens(xml: string): Generator<XmlToken> {
  for (const match of xml.matchAll(XML_TOKEN)) {
    const [, slash, name, attributes = "", selfClosing, text] = match;
    if (name !== undefined) {
      yield { kind: slash ? "close" : selfClosing ? "empty" : "open", name, attributes };
    } else if (text !== undefined) {
      yield { kind: "text", text: decodeEntities(text) };
    }
  }
}

function attribute(tag: Tag, name: string): string | undefined {
  const match = new RegExp(`\\s${name.replace(/[.:]/g, "\\$&")}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag.attributes);
  return match ? decodeEntities(match[1] ?? match[2] ?? "") : undefined;
}

/** Placeholder types whose text is not content: slide numbers, dates, footers and the slide image on notes pages. */
const SKIPPED_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr", "hdr", "sldImg"]);
const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);

/** The text of one slide (or notes page) as Markdown blocks. */
function drawingText(xml: string): string[] {
  const blocks: string[] = [];
  // One entry per open <p:sp> shape: what its placeholder makes of its paragraphs.
  const shapes: ("title" | "skip" | "text")[] = [];
  let paragraph: string | undefined;
  let inText = false;
  let table: string[][] | undefined;
  let row: string[] | undefined;
  let cell: string[] | undefined;
  for (const token of tokens(xml)) {
    if (token.kind === "text") {
      if (inText && paragraph !== undefined) paragraph += token.text;
      continue;
    }
    const opens = token.kind !== "close";
    const closes = token.kind !== "open";
    switch (token.name) {
      case "p:sp":
        if (token.kind === "open") shapes.push("text");
        else if (token.kind === "close") shapes.pop();
        break;
      case "p:ph": {
        const type = attribute(token, "type") ?? "";
        if (shapes.length > 0 && opens) {
          shapes[shapes.length - 1] = TITLE_PLACEHOLDERS.has(type)
            ? "title"
            : SKIPPED_PLACEHOLDERS.has(type)
              ? "skip"
              : "text";
        }
        break;
      }
      case "a:p":
        if (opens) paragraph = "";
        if (closes && paragraph !== undefined) {
          const text = paragraph.replace(/[ \t]+/g, " ").trim();
          const role = shapes.at(-1) ?? "text";
          if (cell) cell.push(text);
          else if (text !== "" && role === "title") blocks.push(`### ${text.replace(/\n/g, " ")}`);
          else if (text !== "" && role === "text") blocks.push(text);
          paragraph = undefined;
        }
        break;
      case "a:t":
        inText = token.kind === "open";
        break;
      case "a:br":
        if (opens && paragraph !== undefined) paragraph += "\n";
        break;
      case "a:tbl":
        if (token.kind === "open") table = [];
        if (token.kind === "close" && table) {
          const markdown = markdownTable(table);
          if (markdown !== "") blocks.push(markdown);
          table = undefined;
        }
        break;
      case "a:tr":
        if (token.kind === "open") row = [];
        if (token.kind === "close" && row) {
          table?.push(row);
          row = undefined;
        }
        break;
      case "a:tc":
        if (opens) cell = [];
        if (closes && cell) {
          row?.push(cell.filter((text) => text !== "").join("\n"));
          cell = undefined;
        }
        break;
    }
  }
  return blocks;
}

/** The relationships of a part: id → target path, resolved against the part's folder. */
function relationships(files: Unzipped, partPath: string): Map<string, string> {
  const folder = partPath.slice(0, partPath.lastIndexOf("/") + 1);
  const relsPath = `${folder}_rels/${partPath.slice(folder.length)}.rels`;
  const rels = new Map<string, string>();
  const xml = files[relsPath];
  if (!xml) return rels;
  for (const token of tokens(strFromU8(xml))) {
    if (token.kind === "text" || token.kind === "close" || token.name !== "Relationship") continue;
    const id = attribute(token, "Id");
    const target = attribute(token, "Target");
    if (id === undefined || target === undefined || attribute(token, "TargetMode") === "External") continue;
    rels.set(id, resolvePath(target.startsWith("/") ? target.slice(1) : `${folder}${target}`));
  }
  return rels;
}

function resolvePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return segments.join("/");
}

const SLIDE_PART = /^ppt\/slides\/slide(\d+)\.xml$/;

/** The slide parts in presentation order (`<p:sldIdLst>`), or by number when the presentation part says nothing. */
function slideOrder(files: Unzipped): string[] {
  const presentation = files["ppt/presentation.xml"];
  if (presentation) {
    const rels = relationships(files, "ppt/presentation.xml");
    const ordered: string[] = [];
    for (const token of tokens(strFromU8(presentation))) {
      if (token.kind === "text" || token.kind === "close" || token.name !== "p:sldId") continue;
      const target = rels.get(attribute(token, "r:id") ?? "");
      if (target && files[target]) ordered.push(target);
    }
    if (ordered.length > 0) return ordered;
  }
  return Object.keys(files)
    .filter((path) => SLIDE_PART.test(path))
    .sort((a, b) => Number(SLIDE_PART.exec(a)?.[1]) - Number(SLIDE_PART.exec(b)?.[1]));
}

/** The presentation's slides as Markdown, one `## Slide N` section each, notes under `### Notes`. */
export async function pptxToMarkdown(bytes: Uint8Array): Promise<string> {
  const files = unzipOfficeFile(
    bytes,
    (name) => name.startsWith("ppt/") && (name.endsWith(".xml") || name.endsWith(".rels")),
  );
  const slides = slideOrder(files);
  if (slides.length === 0) throw new Error("the file has no slides (is it a PowerPoint presentation?)");
  return slides
    .map((path, index) => {
      const blocks = drawingText(strFromU8(files[path]!));
      const notesPath = [...relationships(files, path).values()].find((target) =>
        /^ppt\/notesSlides\/[^/]+\.xml$/.test(target),
      );
      const notes = notesPath && files[notesPath] ? drawingText(strFromU8(files[notesPath])) : [];
      if (notes.length > 0) blocks.push("### Notes", ...notes);
      return [`## Slide ${index + 1}`, ...(blocks.length > 0 ? blocks : ["_(no text on this slide)_"])].join("\n\n");
    })
    .join("\n\n");
}
