// Jina Reader (https://r.jina.ai/<url>): reads the page on Jina's side and answers Markdown; it answers browsers
// (CORS) and works without a key at a low rate limit.
import { WEB_FETCH_PROVIDERS } from "../../../protocol/index.ts";
import { WEB_FETCH_TIMEOUT_MS, type WebFetchProvider, type WebPage, type WebProviderOptions } from "./web-provider.ts";
import { property, serviceEndpoint, text, webRequest, type WebEndpoint } from "./web-request.ts";

const INFO = WEB_FETCH_PROVIDERS.jina;

/** The reader's plain-text answer: `Title: …`, `URL Source: …`, then `Markdown Content:` and the page. */
export function parseReaderText(body: string): WebPage {
  const marker = /^Markdown Content:\n/m.exec(body);
  if (!marker) return { markdown: body.trim() };
  const header = body.slice(0, marker.index);
  const title = /^Title: (.*)$/m.exec(header)?.[1]?.trim();
  return { ...(title && { title }), markdown: body.slice(marker.index + marker[0].length).trim() };
}

export class JinaReader implements WebFetchProvider {
  readonly label = INFO.label;
  private readonly endpoint: WebEndpoint;
  private readonly baseUrl: string;

  constructor(private readonly options: WebProviderOptions) {
    this.baseUrl = options.baseUrl ?? INFO.defaultBaseUrl!;
    const keyHint = "Check the fetch API key in Settings → Web, or leave it empty.";
    this.endpoint = serviceEndpoint(INFO, options, WEB_FETCH_TIMEOUT_MS, {
      statusHints: {
        401: keyHint,
        403: keyHint,
        402: "The Jina account has no tokens left.",
        429: options.apiKey
          ? "Wait a little and try again."
          : "Without a key Jina's reader allows only a few requests a minute: add a fetch API key in Settings → Web.",
      },
    });
  }

  async fetch(url: string, signal?: AbortSignal): Promise<WebPage> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.options.apiKey) headers.Authorization = `Bearer ${this.options.apiKey}`;
    const { body } = await webRequest(this.endpoint, `${this.baseUrl}/${url}`, { method: "GET", headers }, signal);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return parseReaderText(body);
    }
    const data = property(json, "data");
    const title = text(property(data, "title")).trim();
    const warning = text(property(data, "warning")).trim();
    const content = text(property(data, "content")).trim();
    const markdown = warning ? `> ${warning}\n\n${content}` : content;
    return { ...(title && { title }), markdown };
  }
}
