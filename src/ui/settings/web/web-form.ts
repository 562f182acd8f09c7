// Settings → Web's form: its fields as text, and what the worker would refuse in them, tied to the field it is about.
import {
  IMAGE_SEARCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  WEB_FETCH_PROVIDERS,
  type ImageSearchProviderName,
  type WebFetchProviderName,
  type WebSearchProviderName,
} from "../../../protocol/index.ts";
// Its texts: Settings' English, which the first screen's dictionary does not hold (i18n/en.ts).
import "../../i18n/en-models-tools.ts";
import { t } from "../../i18n/index.ts";

/** The form's fields, all text; blanks become absent settings when the worker validates them. */
export interface WebForm {
  searchProvider: WebSearchProviderName;
  searchApiKey: string;
  searchBaseUrl: string;
  fetchProvider: WebFetchProviderName;
  fetchApiKey: string;
  fetchBaseUrl: string;
  imageProvider: ImageSearchProviderName;
  imageApiKey: string;
  imageBaseUrl: string;
  proxyUrl: string;
  proxyToken: string;
  askBeforeSending: boolean;
}

/** A field that a problem belongs to (its element's id is `web-<kebab case>`). */
export type WebFormField =
  | "searchApiKey"
  | "searchBaseUrl"
  | "fetchApiKey"
  | "fetchBaseUrl"
  | "imageApiKey"
  | "imageBaseUrl"
  | "proxyUrl"
  | "proxyToken";

export interface WebFormProblem {
  field: WebFormField;
  message: string;
}

/** Each field's element id, in the order the tab shows them. */
export const WEB_FIELD_IDS: Record<WebFormField, string> = {
  searchApiKey: "web-search-api-key",
  searchBaseUrl: "web-search-base-url",
  fetchApiKey: "web-fetch-api-key",
  fetchBaseUrl: "web-fetch-base-url",
  imageApiKey: "web-image-api-key",
  imageBaseUrl: "web-image-base-url",
  proxyUrl: "web-proxy-url",
  proxyToken: "web-proxy-token",
};

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/**
 * What the worker would refuse, at the fields the tab shows, in their order: a search service's missing key or
 * address, a base URL or proxy URL that is not http(s), a search service that needs the proxy when none is set, a
 * proxy token that is not one. (Problems with fields the chosen services hide are left to the worker.)
 */
export function webFormProblems(form: WebForm): WebFormProblem[] {
  const problems: WebFormProblem[] = [];
  const at = (field: WebFormField, message: string) => problems.push({ field, message });
  const proxyUrl = form.proxyUrl.trim();
  if (form.searchProvider !== "off") {
    const info = WEB_SEARCH_PROVIDERS[form.searchProvider];
    if (info.apiKey === "required" && form.searchApiKey.trim() === "") {
      at(
        "searchApiKey",
        form.searchProvider === "jina" ? t("web.error.jinaKey") : t("web.error.keyNeeded", { provider: info.label }),
      );
    }
    const base = form.searchBaseUrl.trim();
    if (form.searchProvider === "searxng" && !base) at("searchBaseUrl", t("web.error.searxng"));
    else if (base && !isHttpUrl(base)) {
      at("searchBaseUrl", t("web.error.baseUrl", { example: info.defaultBaseUrl ?? "https://searx.example.org" }));
    }
    if (!info.browserCors && info.defaultBaseUrl && !base && !proxyUrl) {
      at("proxyUrl", t("web.error.needsProxy", { provider: info.label }));
    }
  }
  const fetchBase = form.fetchBaseUrl.trim();
  const fetchInfo = WEB_FETCH_PROVIDERS[form.fetchProvider];
  if (fetchInfo.apiKey === "required" && form.fetchApiKey.trim() === "") {
    at("fetchApiKey", t("web.error.keyNeeded", { provider: fetchInfo.label }));
  }
  if (form.fetchProvider !== "direct" && fetchBase && !isHttpUrl(fetchBase)) {
    at("fetchBaseUrl", t("web.error.baseUrl", { example: fetchInfo.defaultBaseUrl! }));
  }
  if (form.imageProvider !== "off") {
    const info = IMAGE_SEARCH_PROVIDERS[form.imageProvider];
    if (info.apiKey === "required" && form.imageApiKey.trim() === "") {
      at("imageApiKey", t("web.error.keyNeeded", { provider: info.label }));
    }
    const base = form.imageBaseUrl.trim();
    if (base && !isHttpUrl(base)) at("imageBaseUrl", t("web.error.baseUrl", { example: info.defaultBaseUrl! }));
    if (!info.browserCors && !base && !proxyUrl && !problems.some((problem) => problem.field === "proxyUrl")) {
      at("proxyUrl", t("web.error.needsProxy", { provider: info.label }));
    }
  }
  if (proxyUrl && !isHttpUrl(proxyUrl)) at("proxyUrl", t("web.error.proxyUrl"));
  const token = form.proxyToken.trim();
  if (token && !/^[A-Za-z0-9_-]{22,}$/.test(token)) at("proxyToken", t("web.error.proxyToken"));
  const order = Object.keys(WEB_FIELD_IDS);
  return problems.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
}
