// What Settings → Models does to the settings it edits, apart from the DOM: starting, adding and removing endpoints,
// the "Model" field (an endpoint's first model), and a default model once there is one to have.
import type { ListedModel, ModelEndpoint, ModelEntry, ModelSettings } from "../../protocol/index.ts";

/** The id of the endpoint a first setup starts with. */
const FIRST_ENDPOINT_ID = "main";

/** The settings as the tab starts: the stored ones, or one blank endpoint to fill in. */
export function startingEndpoints(settings: ModelSettings | undefined, firstName: string): ModelSettings {
  if (settings && settings.endpoints.length > 0) return structuredClone(settings);
  return {
    ...settings,
    endpoints: [{ id: FIRST_ENDPOINT_ID, name: firstName, baseUrl: "", apiKey: "", models: [] }],
  };
}

export function updateEndpoint(settings: ModelSettings, id: string, change: Partial<ModelEndpoint>): ModelSettings {
  return { ...settings, endpoints: settings.endpoints.map((each) => (each.id === id ? { ...each, ...change } : each)) };
}

/**
 * The model with what the provider's list said of it (context window, vision, tools, reasoning), where the user has
 * not set it already.
 */
export function withListed(entry: ModelEntry, listed: readonly ListedModel[]): ModelEntry {
  const found = listed.find((model) => model.id === entry.id);
  if (!found) return entry;
  return {
    ...entry,
    ...(entry.contextWindow === undefined &&
      found.contextWindow !== undefined && { contextWindow: found.contextWindow }),
    ...(entry.vision === undefined && found.vision !== undefined && { vision: found.vision }),
    ...(entry.tools === undefined && found.tools === false && { tools: false }),
    ...(entry.thinking === undefined && found.thinking !== undefined && { thinking: found.thinking }),
  };
}

/**
 * The "Model" field: the endpoint's first model is `model` (its abilities kept, or what `listed` says of a new one);
 * a default model that was that first model follows it.
 */
export function setFirstModel(
  settings: ModelSettings,
  id: string,
  model: string,
  listed: readonly ListedModel[] = [],
): ModelSettings {
  const endpoint = settings.endpoints.find((each) => each.id === id);
  if (!endpoint) return settings;
  const [first, ...rest] = endpoint.models;
  const models = first ? [{ ...first, id: model }, ...rest] : model ? [withListed({ id: model }, listed)] : [];
  const chosen = settings.defaultModel;
  const follows = first && chosen?.endpoint === id && chosen.model === first.id;
  return {
    ...updateEndpoint(settings, id, { models }),
    ...(follows && { defaultModel: { endpoint: id, model } }),
  };
}

/** A new blank endpoint at the end, named "Endpoint n" with the first n no other endpoint has. */
export function addEndpoint(settings: ModelSettings, nameFor: (count: number) => string): ModelSettings {
  const taken = new Set(settings.endpoints.map((each) => each.name));
  let count = settings.endpoints.length + 1;
  while (taken.has(nameFor(count))) count++;
  const endpoint: ModelEndpoint = {
    id: `ep-${crypto.randomUUID().slice(0, 8)}`,
    name: nameFor(count),
    baseUrl: "",
    apiKey: "",
    models: [],
  };
  return { ...settings, endpoints: [...settings.endpoints, endpoint] };
}

/** Without the endpoint; the default model goes with it (see defaultsSettled). */
export function removeEndpoint(settings: ModelSettings, id: string): ModelSettings {
  const { defaultModel, ...rest } = settings;
  return {
    ...rest,
    ...(defaultModel && defaultModel.endpoint !== id && { defaultModel }),
    endpoints: settings.endpoints.filter((each) => each.id !== id),
  };
}

/** The settings to save: with a default model (the first endpoint's first model) when none is chosen yet. */
export function defaultsSettled(settings: ModelSettings): ModelSettings {
  const chosen = settings.defaultModel;
  const holder = chosen && settings.endpoints.find((each) => each.id === chosen.endpoint);
  if (holder?.models.some((entry) => entry.id === chosen?.model)) return settings;
  const first = settings.endpoints.find((each) => each.models.length > 0);
  const model = first?.models[0]?.id.trim();
  if (!first || !model) return settings;
  return { ...settings, defaultModel: { endpoint: first.id, model } };
}
