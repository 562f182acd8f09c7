// Settings records as this version stores them, from those of any earlier version: the IndexedDB upgrade runs it
// over what the browser holds, a backup import over what the backup holds, so both end in one shape.

// The records' shapes, as fawn-db.ts declares them (which imports this file, so they are not imported from there).
interface SettingRecord {
  key: string;
  value: unknown;
}
interface SecretRecord {
  key: string;
  value: string;
}

/** Settings → Models: `{ endpoints, defaultModel?, modelTitles? }`; each endpoint's key is the secret `models.apiKey.<id>`. */
export const MODEL_SETTINGS_KEY = "models";
/** Settings → Proxy: `{ url? }`. */
export const PROXY_SETTINGS_KEY = "proxy";
/** The web tools' settings records (Settings → Web): two, so each provider's key is a secret of its own. */
export const WEB_SEARCH_KEY = "web.search";
export const WEB_FETCH_KEY = "web.fetch";

/** The secret holding a setting's own API key (a web provider's). */
export const apiKeySecret = (key: string) => `${key}.apiKey`;
/** The secret holding a model endpoint's API key. */
export const endpointKeySecret = (endpointId: string) => `${MODEL_SETTINGS_KEY}.apiKey.${endpointId}`;

/**
 * Store versions 1–5 kept the first model endpoint at the top level of this record (`baseUrl`, `model`, `models`,
 * `name`, `useProxy`; its key inline until version 4, then the secret `models.endpoint.apiKey`) and the others in
 * `endpoints` (keys `models.endpoint.apiKey.<id>`); the proxy URL sat in `web.search`.
 */
export const LEGACY_MODEL_ENDPOINT_KEY = "models.endpoint";
const LEGACY_MAIN_NAME = "Main endpoint";
const LEGACY_MAIN_ID = "main";

export interface SettingsUpgrade {
  /** Records to write (new or changed). */
  put: SettingRecord[];
  /** Record keys to delete. */
  delete: string[];
  /** Secrets to store under another key: `[from, to]` (from an older record's inline key, `from` is undefined). */
  moveSecrets: { from: string; to: string; value?: string }[];
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === "object" && value !== null;
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The model settings held in a version 1–5 record, in today's shape, and where its keys move. */
function upgradeModels(legacy: Loose): { value: Loose; moveSecrets: SettingsUpgrade["moveSecrets"] } {
  const others = (Array.isArray(legacy.endpoints) ? legacy.endpoints : []).filter(isObject);
  const taken = new Set(others.map((endpoint) => text(endpoint.id)));
  let mainId = LEGACY_MAIN_ID;
  for (let n = 2; taken.has(mainId); n++) mainId = `${LEGACY_MAIN_ID}-${n}`;
  const model = text(legacy.model);
  const listed = (Array.isArray(legacy.models) ? legacy.models : []).filter(isObject);
  const models = model && !listed.some((entry) => text(entry.id) === model) ? [{ id: model }, ...listed] : listed;
  const baseUrl = text(legacy.baseUrl);
  const main = baseUrl
    ? [
        {
          id: mainId,
          name: text(legacy.name) || LEGACY_MAIN_NAME,
          baseUrl,
          models,
          ...(legacy.useProxy === true && { useProxy: true }),
        },
      ]
    : [];
  const endpoints = [...main, ...others.map(({ apiKey: _inline, ...endpoint }) => endpoint)];
  const chosen = isObject(legacy.defaultModel) ? legacy.defaultModel : undefined;
  const defaultModel =
    chosen && others.some((endpoint) => endpoint.id === chosen.endpoint)
      ? { endpoint: chosen.endpoint, model: chosen.model }
      : main.length > 0 && model
        ? { endpoint: mainId, model }
        : undefined;
  const old = apiKeySecret(LEGACY_MODEL_ENDPOINT_KEY);
  const moveSecrets: SettingsUpgrade["moveSecrets"] = [];
  if (main.length > 0) {
    moveSecrets.push({
      from: old,
      to: endpointKeySecret(mainId),
      ...(text(legacy.apiKey) && { value: text(legacy.apiKey) }),
    });
  }
  for (const endpoint of others) {
    const id = text(endpoint.id);
    if (id) moveSecrets.push({ from: `${old}.${id}`, to: endpointKeySecret(id) });
  }
  return {
    value: {
      endpoints,
      ...(defaultModel && { defaultModel }),
      ...(legacy.modelTitles === true && { modelTitles: true }),
    },
    moveSecrets,
  };
}

/** What to change so `records` (any earlier version's) read as this version's; nothing when they already do. */
export function upgradeSettings(records: readonly SettingRecord[]): SettingsUpgrade {
  const upgrade: SettingsUpgrade = { put: [], delete: [], moveSecrets: [] };
  const byKey = new Map(records.map((record) => [record.key, record.value]));
  const legacy = byKey.get(LEGACY_MODEL_ENDPOINT_KEY);
  if (legacy !== undefined) {
    upgrade.delete.push(LEGACY_MODEL_ENDPOINT_KEY);
    if (isObject(legacy) && !byKey.has(MODEL_SETTINGS_KEY)) {
      const models = upgradeModels(legacy);
      upgrade.put.push({ key: MODEL_SETTINGS_KEY, value: models.value });
      upgrade.moveSecrets.push(...models.moveSecrets);
    }
  }
  const search = byKey.get(WEB_SEARCH_KEY);
  if (isObject(search) && "proxyUrl" in search) {
    const { proxyUrl, ...rest } = search;
    upgrade.put.push({ key: WEB_SEARCH_KEY, value: rest });
    if (text(proxyUrl) && !byKey.has(PROXY_SETTINGS_KEY)) {
      upgrade.put.push({ key: PROXY_SETTINGS_KEY, value: { url: text(proxyUrl) } });
    }
  }
  return upgrade;
}

/** `records` as this version's, in their order (a backup's: its secrets were never in it, so only records change). */
export function upgradedRecords(records: readonly SettingRecord[]): SettingRecord[] {
  const upgrade = upgradeSettings(records);
  const changed = new Map(upgrade.put.map((record) => [record.key, record]));
  const result = records.flatMap((record) => {
    // The old model record's place goes to the new one.
    const replaced =
      record.key === LEGACY_MODEL_ENDPOINT_KEY ? changed.get(MODEL_SETTINGS_KEY) : changed.get(record.key);
    if (replaced) changed.delete(replaced.key);
    else if (upgrade.delete.includes(record.key)) return [];
    return [replaced ?? record];
  });
  return [...result, ...changed.values()];
}

/** Applies an upgrade to secrets already read: the records to put and the keys to delete. */
export function movedSecrets(
  upgrade: SettingsUpgrade,
  stored: ReadonlyMap<string, string>,
): { put: SecretRecord[]; delete: string[] } {
  const put: SecretRecord[] = [];
  const removed: string[] = [];
  for (const { from, to, value } of upgrade.moveSecrets) {
    const secret = value ?? stored.get(from);
    if (stored.has(from)) removed.push(from);
    if (secret) put.push({ key: to, value: secret });
  }
  return { put, delete: removed };
}
