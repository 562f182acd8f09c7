// Validation of Settings → Web: bad input is refused, one sentence per problem, before anything is stored.
import { z } from "zod";
import {
  DEFAULT_WEB_TOOL_SETTINGS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type WebToolSettings,
} from "../../../protocol/index.ts";

const SEARCH_PROVIDER_NAMES = ["off", "tavily", "brave", "searxng", "jina"] as const;
const FETCH_PROVIDER_NAMES = ["jina", "direct"] as const;

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
        error: "Choose a search provider: Off, Tavily, Brave Search, SearXNG or Jina Search.",
      }),
      apiKey: apiKey("search API key"),
      baseUrl: optionalText,
    })
    .default(() => ({ ...DEFAULT_WEB_TOOL_SETTINGS.search, baseUrl: undefined })),
  fetch: z
    .object({
      provider: z.enum(FETCH_PROVIDER_NAMES, { error: "Choose a fetch provider: Jina Reader or Direct." }),
      apiKey: apiKey("fetch API key"),
      baseUrl: optionalText,
    })
    .default(() => ({ ...DEFAULT_WEB_TOOL_SETTINGS.fetch, baseUrl: undefined })),
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

/**
 * Settings → Web, checked field by field against the proxy (Settings → Proxy) they would use; the transform that
 * follows normalizes addresses.
 */
const webToolSettingsSchema = (proxyUrl: string | undefined) =>
  settingsShape
    .superRefine((value, context) => {
      const problems = searchProblems(value.search, proxyUrl);
      if (value.fetch.baseUrl && !isHttpUrl(value.fetch.baseUrl)) {
        const example = WEB_FETCH_PROVIDERS.jina.defaultBaseUrl!;
        problems.push(`The fetch base URL must be an http:// or https:// address, e.g. ${example}`);
      }
      for (const message of problems) context.addIssue({ code: "custom", message });
    })
    .transform((value): WebToolSettings => {
      const searchBase = value.search.baseUrl && trimSlashes(value.search.baseUrl);
      const fetchBase = value.fetch.baseUrl && trimSlashes(value.fetch.baseUrl);
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
        ...(value.askBeforeSending && { askBeforeSending: true }),
      };
    });

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
  const { search, fetch, askBeforeSending } = shape.data;
  return {
    search: { provider: search.provider, apiKey: search.apiKey, ...(search.baseUrl && { baseUrl: search.baseUrl }) },
    fetch: { provider: fetch.provider, apiKey: fetch.apiKey, ...(fetch.baseUrl && { baseUrl: fetch.baseUrl }) },
    ...(askBeforeSending && { askBeforeSending: true }),
  };
}
