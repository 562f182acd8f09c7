// The web tools' public surface: what the lead agent and the Gateway use.
export { createWebTools } from "./search-and-fetch-tools.ts";
export { parseWebToolSettings, readWebToolSettings } from "./web-settings.ts";
