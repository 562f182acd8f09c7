// Validation of Settings → Web: bad input is refused, one sentence per problem, before anything is stored.
import { z } from "zod";
import {
  DEFAULT_WEB_TOOL_SETTINGS,
  IMAGE_SEARCH_PROVIDERS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type WebToolSettings,
} from "../../../protocol/index.ts";

const SEARCH_PROVIDER_NAMES = ["off", "tavily", "brave", "searxng", "jina", "firecrawl"] as const;
const FETCH_PROVIDER_NAMES = ["jina", "direct", "firecrawl"] as const;
const IMAGE_PROVIDER_NAMES = ["off", "firecrawl", "brave", "serper"] as const;

const SEARXNG_EXAMPLE = "https://searx.example.org";

const apiKey = (label: string) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(4096, `The ${label} is too long.`)
    .regex(/^[\x21-\x7e]*$/, `The ${label} has spaces or characters a request cannot carry; paste it again.`)
    .default("");

/** An optional address: blank means absent. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const settingsShape = z.object({
  search: z
    .object({
      provider: z.enum(SEARCH_PROVIDER_NAMES, {
        error: "Choose a search provider: Off, Tavily, Brave Search, SearXNG, Jina Search or Firecrawl.",
      }),
      apiKey: apiKey("search API key"),
      baseUrl: optionalText,
    })
    .default(() => ({ ...DEFAULT_WEB_TOOL_SETTINGS.search, baseUrl: undefined })),
  fetch: z
    .object({
      provider: z.enum(FETCH_PROVIDER_NAMES, { error: "Choose a fetch provider: Jina Reader, Direct or Firecrawl." }),
      apiKey: apiKey("fetch API key"),
      baseUrl: optionalText,
    })
    .default(() => ({ ...DEFAULT_WEB_TOOL_SETTINGS.fetch, baseUrl: undefined })),
  images: z
    .object({
      provider: z.enum(IMAGE_PROVIDER_NAMES, {
        error: "Choose an image search provider: Off, Firecrawl, Brave Search or Serper.",
      }),
      apiKey: apiKey("image search API key"),
      baseUrl: optionalText,
    })
    .optional(),
  askBeforeSending: z.boolean({ error: '"Ask before sending data out" is on (true) or off (false).' }).optional(),
});

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

function trimSlashes(url: string): string {
  return url.replace(/\/+$/, "");
}

function searchProblems(search: z.infer<typeof settingsShape>["search"], proxyUrl: string | undefined): string[] {
  if (search.provider === "off") return [];
  const info = WEB_SEARCH_PROVIDERS[search.provider];
  const problems: string[] = [];
  if (search.provider === "searxng" && !search.baseUrl) {
    problems.push(`SearXNG needs the address of your instance, e.g. ${SEARXNG_EXAMPLE}`);
  } else if (search.baseUrl && !isHttpUrl(search.baseUrl)) {
    const example = info.defaultBaseUrl ?? SEARXNG_EXAMPLE;
    problems.push(`The search base URL must be an http:// or https:// address, e.g. ${example}`);
  }
  if (info.apiKey === "required" && search.apiKey === "") {
    problems.push(
      search.provider === "jina"
        ? "Jina Search needs an API key (the Jina Reader works without one, search does not)."
        : `${info.label} needs an API key.`,
    );
  }
  if (!info.browserCors && info.defaultBaseUrl && !search.baseUrl && !proxyUrl) {
    problems.push(
      `${info.label} refuses requests from web pages: it works through Fawn's proxy, a helper that runs on your ` +
        "computer. Set its Proxy URL in Settings → Web.",
    );
  }
  return problems;
}

function imageProblems(images: z.infer<typeof settingsShape>["images"], proxyUrl: string | undefined): string[] {
  if (!images || images.provider === "off") return [];
  const info = IMAGE_SEARCH_PROVIDERS[images.provider];
  const problems: string[] = [];
  if (images.baseUrl && !isHttpUrl(images.baseUrl)) {
    problems.push(`The image search base URL must be an http:// or https:// address, e.g. ${info.defaultBaseUrl}`);
  }
  if (info.apiKey === "required" && images.apiKey === "") problems.push(`${info.label} image search needs an API key.`);
  if (!info.browserCors && !images.baseUrl && !proxyUrl) {
    problems.push(
      `${info.label} refuses requests from web pages: its image search works through Fawn's proxy, a helper that ` +
        "runs on your computer. Set its Proxy URL in Settings → Web.",
    );
  }
  return problems;
}

/**
 * Settings → Web, checked field by field against the proxy (Settings → Proxy) they would use; the transform that
 * follows normalizes addresses.
 */
const webToolSettingsSchema = (proxyUrl: string | undefined) =>
  settingsShape
    .superRefine((value, context) => {
      const problems = [...searchProblems(value.search, proxyUrl), ...imageProblems(value.images, proxyUrl)];
      if (value.fetch.baseUrl && !isHttpUrl(value.fetch.baseUrl)) {
        const example = (WEB_FETCH_PROVIDERS[value.fetch.provider].defaultBaseUrl ??
          WEB_FETCH_PROVIDERS.jina.defaultBaseUrl)!;
        problems.push(`The fetch base URL must be an http:// or https:// address, e.g. ${example}`);
      }
      if (WEB_FETCH_PROVIDERS[value.fetch.provider].apiKey === "required" && value.fetch.apiKey === "") {
        problems.push(`${WEB_FETCH_PROVIDERS[value.fetch.provider].label} needs an API key to read pages.`);
      }
      for (const message of problems) context.addIssue({ code: "custom", message });
    })
    .transform((value): WebToolSettings => {
      const searchBase = value.search.baseUrl && trimSlashes(value.search.baseUrl);
      const fetchBase = value.fetch.baseUrl && trimSlashes(value.fetch.baseUrl);
      const images = value.images && imagesValue(value.images);
      return {
        search: {
          provider: value.search.provider,
          apiKey: value.search.apiKey,
          // A SearXNG address pasted with its /search path still names the instance.
          ...(searchBase && {
            baseUrl: value.search.provider === "searxng" ? searchBase.replace(/\/search$/, "") : searchBase,
          }),
        },
        fetch: { provider: value.fetch.provider, apiKey: value.fetch.apiKey, ...(fetchBase && { baseUrl: fetchBase }) },
        ...(images && { images }),
        ...(value.askBeforeSending && { askBeforeSending: true }),
      };
    });

/** Image search as kept: absent when off (the default), its address without trailing slashes. */
function imagesValue(images: NonNullable<z.infer<typeof settingsShape>["images"]>): WebToolSettings["images"] {
  if (images.provider === "off") return undefined;
  const base = images.baseUrl && trimSlashes(images.baseUrl);
  return { provider: images.provider, apiKey: images.apiKey, ...(base && { baseUrl: base }) };
}

export type WebSettingsParseResult =
  { ok: true; value: WebToolSettings } | { ok: false; message: string; problems: string[] };

/** Normalized settings (trimmed, no trailing slash), or every problem in a sentence. */
export function parseWebToolSettings(input: unknown, proxyUrl?: string): WebSettingsParseResult {
  const result = webToolSettingsSchema(proxyUrl).safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const problems = [...new Set(result.error.issues.map((issue) => issue.message))].map((message) =>
    /[.!?]$/.test(message) ? message : `${message}.`,
  );
  return { ok: false, message: problems.join(" "), problems };
}

/**
 * Settings as stored earlier: valid ones normalized; anything unreadable gives the defaults, so a rule added later
 * never breaks loading.
 */
export function readWebToolSettings(stored: unknown, proxyUrl?: string): WebToolSettings {
  const parsed = parseWebToolSettings(stored ?? {}, proxyUrl);
  if (parsed.ok) return parsed.value;
  const shape = settingsShape.safeParse(stored ?? {});
  if (!shape.success) return structuredClone(DEFAULT_WEB_TOOL_SETTINGS);
  const { search, fetch, images, askBeforeSending } = shape.data;
  // Image search that no longer passes (its proxy was removed, say) is off rather than dropping the other settings.
  const imagesKept = images && imageProblems(images, proxyUrl).length === 0 ? imagesValue(images) : undefined;
  return {
    search: { provider: search.provider, apiKey: search.apiKey, ...(search.baseUrl && { baseUrl: search.baseUrl }) },
    fetch: { provider: fetch.provider, apiKey: fetch.apiKey, ...(fetch.baseUrl && { baseUrl: fetch.baseUrl }) },
    ...(imagesKept && { images: imagesKept }),
    ...(askBeforeSending && { askBeforeSending: true }),
  };
}
