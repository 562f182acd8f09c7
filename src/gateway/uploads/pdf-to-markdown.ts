// PDF → Markdown with pdfjs-dist: the text of each page under a `## Page N` heading, lines kept, paragraphs split at
// larger vertical gaps. Loaded on demand by convert-document.ts; runs in the agent worker and in Node.
//
// In browsers pdfjs parses in a worker of its own (workers/pdf-parser.worker.ts), started for each document and ended after
// it, so a large PDF neither blocks the agent worker nor keeps its memory. pdfjs's in-thread "fake worker" is not
// used there: its worker module, once loaded in any worker, registers itself on that worker's global scope and posts
// a "ready" message to the page. In Node (tests) pdfjs runs its fake worker by itself. The legacy build runs in Node
// 20 and in older browsers; the default build does not.
import "./promise-with-resolvers.ts";
import { getDocument, PDFWorker } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem, TextMarkedContent } from "pdfjs-dist/types/src/display/api";

interface Parser {
  /** Undefined in Node, where pdfjs runs its in-thread fake worker. */
  worker?: PDFWorker;
  /** Rejects when the parser's worker fails (pdfjs itself would wait for it forever); never settles otherwise. */
  failed: Promise<never>;
  stop(): void;
}

/** A pdfjs parser for one document: a worker of its own where workers exist, else pdfjs's default. */
function startParser(): Parser {
  if (typeof Worker === "undefined") return { failed: new Promise<never>(() => undefined), stop: () => undefined };
  // A URL, not an import: Vite bundles the entry in workers/ as a chunk of its own from this exact expression.
  const thread = new Worker(new URL("../../../workers/pdf-parser.worker.ts", import.meta.url), {
    type: "module",
    name: "fawn-pdf",
  });
  const worker = PDFWorker.create({ port: thread, verbosity: 0 });
  const failed = new Promise<never>((_, reject) => {
    thread.addEventListener("error", (event) => {
      event.preventDefault();
      reject(new Error(`the PDF reader stopped (${event.message || "its worker failed"})`));
    });
  });
  failed.catch(() => undefined);
  return {
    worker,
    failed,
    stop: () => {
      worker.destroy();
      thread.terminate();
    },
  };
}

function isTextItem(item: TextItem | TextMarkedContent): item is TextItem {
  return "str" in item;
}

/** A page's text: items joined into lines, a blank line where the gap to the next line is larger than usual. */
function pageText(items: readonly TextItem[]): string {
  let text = "";
  let lastY: number | undefined;
  let lastHeight = 0;
  for (const item of items) {
    const y = Number(item.transform[5]);
    if (lastY !== undefined && item.str !== "" && Math.abs(lastY - y) > 0.5) {
      // A new line; a gap of more than 1.5 lines of the smaller text starts a new paragraph.
      if (!text.endsWith("\n")) text += "\n";
      const lineHeight = Math.min(lastHeight || item.height, item.height || lastHeight);
      if (lineHeight > 0 && Math.abs(lastY - y) > lineHeight * 1.5 && !text.endsWith("\n\n")) text += "\n";
    }
    text += item.str;
    if (item.hasEOL && !text.endsWith("\n")) text += "\n";
    if (item.str !== "") {
      lastY = y;
      lastHeight = item.height;
    }
  }
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The PDF's text as Markdown, one `## Page N` section per page (pages without text say so). */
export async function pdfToMarkdown(bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
  const parser = startParser();
  // Given up (the upload's conversion took too long): every wait ends, and `finally` stops the parser's worker.
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(new Error("the conversion was stopped"));
    if (signal?.aborted) stop();
    else signal?.addEventListener("abort", stop, { once: true });
  });
  aborted.catch(() => undefined);
  const settle = <T>(promise: Promise<T>) => Promise.race([promise, parser.failed, aborted]);
  const task = getDocument({
    // pdfjs may transfer (detach) the buffer it is given; the caller still needs the original bytes. A copy, also of
    // a Node Buffer (whose slice() is a view).
    data: new Uint8Array(bytes),
    worker: parser.worker,
    useSystemFonts: false,
    disableFontFace: true,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const document = await settle(task.promise).catch((error: unknown) => {
      if (error instanceof Error && error.name === "PasswordException") {
        throw new Error("the PDF is protected by a password", { cause: error });
      }
      throw error;
    });
    const sections: string[] = [];
    let withText = 0;
    for (let number = 1; number <= document.numPages; number++) {
      const page = await settle(document.getPage(number));
      const content = await settle(page.getTextContent());
      const text = pageText(content.items.filter(isTextItem));
      page.cleanup();
      if (text !== "") withText++;
      sections.push(`## Page ${number}\n\n${text === "" ? "_(no text on this page)_" : text}`);
    }
    if (withText === 0) throw new Error("the PDF has no text layer (it may be scanned images)");
    return sections.join("\n\n");
  } finally {
    // pdfjs waits for its worker to confirm; a failed or stopped worker never does.
    await settle(task.destroy()).catch(() => undefined);
    parser.stop();
  }
}
