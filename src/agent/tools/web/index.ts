// The web tools' public surface: what the lead agent and the Gateway use.
export {
  createWebProviders,
  createWebTools,
  webToolsFor,
  WEB_FETCH_MAX_CHARS,
  type WebProviders,
  type WebToolOptions,
} from "./web-tools.ts";
export { DEFAULT_WEB_TOOL_SETTINGS, parseWebToolSettings, readWebToolSettings } from "./web-settings.ts";
export { neutralizeFrameworkTags } from "./neutralize-tags.ts";
export { MemoryWebFetch, MemoryWebSearch } from "./memory-web-providers.ts";
export {
  WebToolError,
  type WebFetchProvider,
  type WebPage,
  type WebSearchProvider,
  type WebSearchResult,
} from "./web-provider.ts";
