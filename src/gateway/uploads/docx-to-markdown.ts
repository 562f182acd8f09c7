// DOCX → Markdown: mammoth turns the document into simple semantic HTML (headings, paragraphs, lists, tables, bold,
// italic, links), linkedom parses it without a DOM (the agent worker has none), and turndown writes Markdown. Loaded on
// demand by convert-document.ts.
import { parseHTML } from "linkedom";
import mammoth from "mammoth";
import TurndownService from "turndown";
import { markdownTable } from "./markdown-table.ts";
import { unreadableOfficeFile, unzipOfficeFile } from "./office-zip.ts";

/** The part of a (linkedom) DOM element the rules read; the worker's TypeScript lib has no DOM types. */
interface Element {
  tagName: string;
  children: ArrayLike<Element>;
  getAttribute(name: string): string | null;
  closest(selector: string): Element | null;
  querySelectorAll(selector: string): ArrayLike<Element>;
}

function markdownWriter(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: "atx",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "*",
  });
  // The document's headings sit one level below the `# <file name>` title the converter adds.
  turndown.addRule("heading", {
    filter: ["h1", "h2", "h3", "h4", "h5", "h6"],
    replacement: (content, node) => {
      const level = Math.min(6, Number((node as Element).tagName.slice(1)) + 1);
      return `\n\n${"#".repeat(level)} ${content.replace(/\s*\n\s*/g, " ").trim()}\n\n`;
    },
  });
  turndown.addRule("table", {
    filter: "table",
    replacement: (_content, node) => {
      const table = node as Element;
      const rows = Array.from(table.querySelectorAll("tr"))
        .filter((row) => row.closest("table") === table)
        .map((row) =>
          Array.from(row.children)
            .filter((cell) => cell.tagName === "TD" || cell.tagName === "TH")
            .map((cell) => turndown.turndown(cell as unknown as TurndownService.Node)),
        );
      return `\n\n${markdownTable(rows)}\n\n`;
    },
  });
  // Images stay out of the text (mammoth would inline them as base64); their alt text, when there is one, stays in.
  turndown.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as Element).getAttribute("alt")?.trim();
      return alt ? `[Image: ${alt}]` : "[Image]";
    },
  });
  return turndown;
}

/** The Word document's body as Markdown. */
export async function docxToMarkdown(bytes: Uint8Array): Promise<string> {
  unzipOfficeFile(bytes, () => false);
  // A copy of exactly these bytes: a Node Buffer's slice() is a view, whose `.buffer` may be Node's shared pool.
  const arrayBuffer = new Uint8Array(bytes).buffer;
  // mammoth's browser build reads `arrayBuffer`; its Node build (used by the tests) reads `buffer`, and JSZip under
  // it accepts an ArrayBuffer there too.
  const input = { arrayBuffer, buffer: arrayBuffer } as unknown as Parameters<typeof mammoth.convertToHtml>[0];
  const { value: html } = await mammoth
    .convertToHtml(input, { convertImage: mammoth.images.imgElement(async () => ({ src: "" })) })
    .catch((error: unknown) => {
      throw unreadableOfficeFile(error, "document");
    });
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`) as unknown as {
    document: { body: TurndownService.Node };
  };
  return markdownWriter().turndown(document.body);
}
