// A page's readable part as Markdown: @mozilla/readability over a linkedom document (a worker has no DOMParser),
// then turndown. The three libraries load on first use.
import type { Readability } from "@mozilla/readability";
import type TurndownService from "turndown";
import type { WebPage } from "./web-provider.ts";

/** Longer documents are cut before parsing: the tool keeps only the first few thousand characters anyway. */
const MAX_HTML_CHARS = 2_000_000;

/** Elements that are never content. */
const NOT_CONTENT = "script, style, noscript, template, iframe, object, embed, svg, canvas, link, meta";
/** Navigation and asides, dropped before readability looks: on short pages it would keep them. */
const NAVIGATION =
  "nav, aside, dialog, body > header, body > footer, [role=navigation], [role=complementary], [role=banner], " +
  "[role=contentinfo], [aria-hidden=true]";
/** Page furniture also dropped when readability finds no article and the whole body is converted. */
const FURNITURE = "header, footer, form, button, [role=search]";

// The DOM surface used here. The worker's TypeScript lib has no DOM types, so linkedom's, readability's and
// turndown's parameter types (which name lib.dom's) are bridged with casts to these.
interface HtmlElement {
  nodeName: string;
  textContent: string | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}

interface HtmlDocument {
  body: HtmlElement | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
}

interface Libraries {
  parseHTML: (html: string) => { document: HtmlDocument };
  Readability: typeof Readability;
  Turndown: typeof TurndownService;
}

let libraries: Promise<Libraries> | undefined;

function load(): Promise<Libraries> {
  libraries ??= Promise.all([import("linkedom/worker"), import("@mozilla/readability"), import("turndown")]).then(
    ([linkedom, readability, turndown]) => ({
      parseHTML: linkedom.parseHTML as unknown as Libraries["parseHTML"],
      Readability: readability.Readability,
      Turndown: turndown.default,
    }),
  );
  libraries.catch(() => (libraries = undefined));
  return libraries;
}

/** Links and images point at absolute http(s) URLs, so the model can cite and fetch them. */
function absolutize(document: HtmlDocument, pageUrl: string): void {
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute) ?? "";
      if (value.startsWith("#") || (attribute === "src" && value.startsWith("data:"))) continue;
      try {
        const absolute = new URL(value, pageUrl);
        if (/^https?:$/.test(absolute.protocol)) element.setAttribute(attribute, absolute.href);
        else element.removeAttribute(attribute);
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

function removeAll(document: HtmlDocument, selector: string): void {
  for (const element of Array.from(document.querySelectorAll(selector))) element.remove();
}

function pageTitle(document: HtmlDocument): string | undefined {
  const title = document.querySelector("title")?.textContent?.replace(/\s+/g, " ").trim();
  return title || undefined;
}

/** The readable content of an HTML page at `pageUrl`: readability's article, or the body without its furniture. */
export async function htmlToMarkdown(html: string, pageUrl: string): Promise<WebPage> {
  const { parseHTML, Readability, Turndown } = await load();
  const cut = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  // linkedom makes a fragment's first element the document element: give it a page to live in.
  const source = /<(html|body)[\s>]/i.test(cut) ? cut : `<!doctype html><html><head></head><body>${cut}</body></html>`;
  const parse = (): HtmlDocument => {
    const { document } = parseHTML(source);
    removeAll(document, `${NOT_CONTENT}, ${NAVIGATION}`);
    absolutize(document, pageUrl);
    return document;
  };

  const document = parse();
  const fallbackTitle = pageTitle(document);
  let title = fallbackTitle;
  let contentHtml = "";
  try {
    type ReadabilityDocument = ConstructorParameters<typeof Readability>[0];
    const article = new Readability(document as unknown as ReadabilityDocument).parse();
    if (article?.content && (article.textContent ?? "").trim() !== "") {
      title = article.title?.replace(/\s+/g, " ").trim() || fallbackTitle;
      contentHtml = article.content;
    }
  } catch {
    // Readability gives up on some malformed pages; the whole body is used instead.
  }
  if (contentHtml === "") {
    const whole = parse();
    removeAll(whole, FURNITURE);
    contentHtml = whole.body?.innerHTML ?? "";
  }

  const { document: content } = parseHTML(`<!doctype html><html><head></head><body>${contentHtml}</body></html>`);
  const turndown = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  // Inline images as data: URIs would fill the result with base64.
  turndown.addRule("no-data-images", {
    filter: (node) => {
      const element = node as unknown as HtmlElement;
      return element.nodeName === "IMG" && (element.getAttribute("src") ?? "").startsWith("data:");
    },
    replacement: () => "",
  });
  // turndown takes a node as well as a string; given a node it never needs a DOMParser, which a worker lacks.
  type TurndownInput = Parameters<InstanceType<typeof Turndown>["turndown"]>[0];
  const markdown = turndown
    .turndown((content.body ?? "") as unknown as TurndownInput)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { ...(title && { title }), markdown };
}
