// Reads a page from this browser (through Fawn's proxy when one is set: most sites refuse browser requests) and
// extracts its readable part locally. HTML becomes Markdown; plain text, Markdown and JSON are kept as they are.
import { WEB_FETCH_PROVIDERS } from "../../../protocol/index.ts";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { WEB_FETCH_TIMEOUT_MS, type WebFetchProvider, type WebPage, type WebProviderOptions } from "./web-provider.ts";
import { serviceEndpoint, webRequest, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_FETCH_PROVIDERS.direct;

const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/json;q=0.8,*/*;q=0.5";

function mediaType(response: Response): string {
  return (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

/** HTML, text, JSON and XML can be read; an unlabelled answer is given a chance. */
function isReadable(type: string): boolean {
  return (
    type === "" ||
    type.startsWith("text/") ||
    type.includes("html") ||
    isJson(type) ||
    type.endsWith("+xml") ||
    type === "application/xml"
  );
}

export class DirectFetch implements WebFetchProvider {
  readonly label = INFO.label;

  constructor(private readonly options: WebProviderOptions) {}

  async fetch(url: string, signal?: AbortSignal): Promise<WebPage> {
    const endpoint: WebEndpoint = {
      ...serviceEndpoint(INFO, this.options, WEB_FETCH_TIMEOUT_MS, {
        unreachableHint: "or choose Jina Reader as the fetch provider",
      }),
      service: new URL(url).host,
      refuse: (response) => {
        const type = mediaType(response);
        return isReadable(type)
          ? undefined
          : `${url} is a ${type} file, not a web page: web_fetch reads HTML and text only.`;
      },
    };
    const { response, body } = await webRequest(endpoint, url, { method: "GET", headers: { Accept: ACCEPT } }, signal);
    const type = mediaType(response);
    const looksLikeHtml = /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype html|html|head|body)\b/i.test(body);
    if (type.includes("html") || ((type === "" || type === "text/plain") && looksLikeHtml)) {
      return htmlToMarkdown(body, this.finalUrl(response, url));
    }
    if (isJson(type)) {
      let pretty = body;
      try {
        pretty = JSON.stringify(JSON.parse(body), null, 2);
      } catch {
        // Not valid JSON after all: shown as sent.
      }
      return { markdown: `\`\`\`json\n${pretty}\n\`\`\`` };
    }
    return { markdown: body.trim() };
  }

  /** Where the page ended up after redirects, without the proxy prefix: relative links resolve against it. */
  private finalUrl(response: Response, requested: string): string {
    const proxy = this.options.proxyUrl;
    const final = proxy && response.url.startsWith(proxy) ? response.url.slice(proxy.length) : response.url;
    return URL.canParse(final) ? final : requested;
  }
}
