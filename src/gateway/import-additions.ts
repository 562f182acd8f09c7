// What a backup adds that can act or send data: the addresses its settings would set (model endpoints, web services,
// the proxy), its MCP servers, its skills that carry scripts and its scheduled runs. An import lists them for the user
// before writing.
import {
  DEFAULT_PROXY_URL,
  IMAGE_SEARCH_PROVIDERS,
  WEB_FETCH_PROVIDERS,
  WEB_SEARCH_PROVIDERS,
  type AddressChange,
  type ImportAddition,
} from "../protocol/index.ts";
import type { BackupAdditions } from "../storage/index.ts";
import type { SettingRecord } from "../storage/index.ts";
import {
  MODEL_SETTINGS_KEY,
  PROXY_SETTINGS_KEY,
  upgradedRecords,
  WEB_FETCH_KEY,
  WEB_SEARCH_KEY,
} from "../storage/index.ts";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function textField(value: unknown, key: string): string {
  const found = field(value, key);
  return typeof found === "string" ? found.trim() : "";
}

/** A web service's label for a stored provider name (the name itself when it is unknown). */
function providerLabel(providers: Readonly<Record<string, { label: string }>>, name: unknown): string {
  const key = typeof name === "string" ? name : "";
  return Object.hasOwn(providers, key) ? providers[key]!.label : key;
}

const withoutTrailingSlashes = (url: string) => url.replace(/\/+$/, "");

/**
 * The addresses restoring these settings records would set, in the order Settings shows them: each model endpoint's
 * Base URL, the web services' own addresses, and the proxy URL (unless it is the default relay's). Requests go there,
 * and so do the keys the user enters next to them.
 */
export function addressChanges(records: readonly SettingRecord[]): AddressChange[] {
  const endpoints: AddressChange[] = [];
  const web: AddressChange[] = [];
  const proxy: AddressChange[] = [];
  for (const { key, value } of upgradedRecords(records)) {
    if (key === MODEL_SETTINGS_KEY) {
      const others = field(value, "endpoints");
      for (const endpoint of Array.isArray(others) ? others : []) {
        const address = textField(endpoint, "baseUrl");
        const name = textField(endpoint, "name") || textField(endpoint, "id");
        if (address) endpoints.push({ kind: "endpoint", name, address });
      }
    } else if (key === WEB_SEARCH_KEY) {
      const address = textField(value, "baseUrl");
      const name = providerLabel(WEB_SEARCH_PROVIDERS, field(value, "provider"));
      if (address) web.push({ kind: "web-search", name, address });
    } else if (key === PROXY_SETTINGS_KEY) {
      const proxyUrl = textField(value, "url");
      if (proxyUrl && withoutTrailingSlashes(proxyUrl) !== withoutTrailingSlashes(DEFAULT_PROXY_URL)) {
        proxy.push({ kind: "proxy", name: "", address: proxyUrl });
      }
    } else if (key === WEB_FETCH_KEY) {
      const address = textField(value, "baseUrl");
      const name = providerLabel(WEB_FETCH_PROVIDERS, field(value, "provider"));
      if (address) web.push({ kind: "web-fetch", name, address });
    } else if (key === "web.images") {
      // image_search's service (settings-service.ts), listed as the search it is.
      const address = textField(value, "baseUrl");
      const name = `${providerLabel(IMAGE_SEARCH_PROVIDERS, field(value, "provider"))}, images`;
      if (address) web.push({ kind: "web-search", name, address });
    }
  }
  return [...endpoints, ...web, ...proxy];
}

/** The settings record of the scheduled runs (schedules-service.ts's SCHEDULES_SETTINGS_KEY). */
const SCHEDULES_KEY = "schedules";

/** The most of a schedule's prompt a confirmation shows. */
const PROMPT_SHOWN = 200;

/**
 * The scheduled runs restoring these records would add: each sends its prompt by itself once Fawn is open, so the
 * user sees each name and prompt first. Entries that are not schedules are skipped here as the service skips them.
 */
export function scheduleAdditions(records: readonly SettingRecord[]): ImportAddition[] {
  const stored = records.find((record) => record.key === SCHEDULES_KEY)?.value;
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry): ImportAddition[] => {
    const name = textField(entry, "name");
    const prompt = textField(entry, "prompt");
    if (!name && !prompt) return [];
    const shown = prompt.length > PROMPT_SHOWN ? `${prompt.slice(0, PROMPT_SHOWN - 1)}…` : prompt;
    return [{ kind: "schedule", name, prompt: shown, enabled: field(entry, "enabled") !== false }];
  });
}

/** A skill file the agent can only read: Markdown (SKILL.md and its references). Any other file may be run. */
const READ_ONLY_SKILL_FILE = /\.(md|markdown)$/i;

/**
 * Everything an import would add that can act or send data, in the order the confirmation lists it: the addresses
 * restored settings would set (addressChanges: each model endpoint, the web services, the proxy), the MCP servers
 * (switched off, but one switch from calling out), the skills that carry scripts and the scheduled runs.
 */
export function importAdditions(adding: BackupAdditions): ImportAddition[] {
  const servers = adding.mcp_servers.map((server): ImportAddition => ({
    kind: "mcp-server",
    name: server.name,
    address: server.url,
    ...(server.useProxy && { via_proxy: true }),
  }));
  const skills = adding.skills.flatMap((skill): ImportAddition[] => {
    const scripts = Object.keys(skill.files)
      .filter((path) => !READ_ONLY_SKILL_FILE.test(path))
      .sort();
    return scripts.length > 0 ? [{ kind: "skill-scripts", name: skill.name, scripts }] : [];
  });
  return [...addressChanges(adding.settings), ...servers, ...skills, ...scheduleAdditions(adding.settings)];
}
