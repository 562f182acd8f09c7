// What Settings → Models does to the settings it edits, apart from the DOM: starting, adding and removing endpoints,
// the "Model" field (an endpoint's first model), adding the models a list offered, a default model once there is one
// to have, and what is wrong with a field before Save sends it (the gateway checks again; see models/model-settings.ts).
import {
  maxTemperature,
  modelOptionIssues,
  providerOf,
  type ListedModel,
  type ModelEndpoint,
  type ModelEntry,
  type ModelOptionIssue,
  type ModelSettings,
} from "../../../protocol/index.ts";
// Its texts: Settings' English, which the first screen's dictionary does not hold (i18n/en.ts).
import "../../i18n/en-models-tools.ts";
import { t } from "../../i18n/index.ts";

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
 * a default model that was that first model follows it. An emptied field changes nothing: the model keeps its name
 * (the tab marks the field instead; see modelFormProblems).
 */
export function setFirstModel(
  settings: ModelSettings,
  id: string,
  model: string,
  listed: readonly ListedModel[] = [],
): ModelSettings {
  const endpoint = settings.endpoints.find((each) => each.id === id);
  if (!endpoint || model.trim() === "") return settings;
  const [first, ...rest] = endpoint.models;
  const models = first ? [{ ...first, id: model }, ...rest] : [withListed({ id: model }, listed)];
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

/** At most this many models per endpoint, as the gateway allows (models/model-settings.ts). */
export const MODELS_PER_ENDPOINT = 50;

/**
 * The endpoint with the models `ids` added after its own (what `listed` says of each), skipping any it has; none past
 * MODELS_PER_ENDPOINT.
 */
export function addModels(
  settings: ModelSettings,
  id: string,
  ids: readonly string[],
  listed: readonly ListedModel[] = [],
): ModelSettings {
  const endpoint = settings.endpoints.find((each) => each.id === id);
  if (!endpoint) return settings;
  const models = [...endpoint.models];
  for (const model of ids.map((each) => each.trim())) {
    if (models.length >= MODELS_PER_ENDPOINT) break;
    if (model && !models.some((entry) => entry.id.trim() === model)) models.push(withListed({ id: model }, listed));
  }
  return updateEndpoint(settings, id, { models });
}

/** The fields of Settings → Models a problem can belong to; a context window and options are their model's. */
export type ModelFormField = "name" | "baseUrl" | "model" | "contextWindow" | ModelOptionIssue["field"];

/** A problem with one field of one endpoint, in the words shown under that field. */
export interface ModelFormProblem {
  endpoint: string;
  field: ModelFormField;
  /** The model whose context window or option it is. */
  model?: string;
  message: string;
}

const ENDPOINT_NAME_LENGTH = 40;
const MODEL_ID_LENGTH = 200;

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/**
 * What Save would be refused for, field by field, in the order the fields are shown (each endpoint's name, Base URL,
 * Model field, then its models' context windows); at most one problem per field. `blankModelFields` holds the
 * endpoints whose Model field the user has emptied (their models keep their names; the field still needs one).
 */
export function modelFormProblems(
  settings: ModelSettings,
  blankModelFields: ReadonlySet<string> = new Set(),
): ModelFormProblem[] {
  const problems: ModelFormProblem[] = [];
  for (const endpoint of settings.endpoints) {
    const at = (field: ModelFormField, message: string, model?: string) =>
      problems.push({ endpoint: endpoint.id, field, message, ...(model !== undefined && { model }) });
    const name = endpoint.name.trim();
    const namesake = settings.endpoints.find(
      (other) => other !== endpoint && other.name.trim().toLowerCase() === name.toLowerCase(),
    );
    if (!name) at("name", t("models.error.name"));
    else if (name.length > ENDPOINT_NAME_LENGTH) at("name", t("models.error.nameLong"));
    else if (namesake) at("name", t("models.error.nameTwice", { name }));

    const url = endpoint.baseUrl.trim();
    if (!url) at("baseUrl", t("models.error.baseUrl"));
    else if (!isHttpUrl(url)) at("baseUrl", t("models.error.baseUrlForm"));

    const [first, ...rest] = endpoint.models.map((entry) => entry.id.trim());
    if (blankModelFields.has(endpoint.id) || first === "") at("model", t("models.error.model"));
    else if (first === undefined) at("model", t("models.error.noModels", { name: endpoint.name }));
    else if (first.length > MODEL_ID_LENGTH) at("model", t("models.error.modelLong"));
    else if (rest.includes(first)) at("model", t("models.error.modelTwice", { model: first }));

    for (const entry of endpoint.models) {
      const tokens = entry.contextWindow;
      if (tokens !== undefined && !(Number.isInteger(tokens) && tokens >= 1_000 && tokens <= 100_000_000)) {
        at("contextWindow", t("models.error.contextWindow"), entry.id);
      }
      for (const issue of modelOptionIssues(providerOf(endpoint), entry)) {
        at(issue.field, optionIssueText(issue, endpoint), entry.id);
      }
    }
  }
  return problems;
}

/** An option's problem in the words shown under its field. */
function optionIssueText(issue: ModelOptionIssue, endpoint: ModelEndpoint): string {
  switch (issue.field) {
    case "temperature":
      return t("models.error.temperature", { max: String(maxTemperature(providerOf(endpoint))) });
    case "maxTokens":
      return t("models.error.maxTokens");
    case "responsesApi":
      return t("models.error.responsesApi");
    case "thinkingExtraBody":
      if (issue.problem === "provider") return t("models.error.extraBodyProvider");
      if (issue.problem === "reserved") return t("models.error.extraBodyReserved", { key: issue.key });
      if (issue.problem === "size") return t("models.error.extraBodySize");
      return t("models.error.extraBody");
  }
}

/**
 * A number field as typed: nothing (the provider's default) when blank, else the number. Text that is not a number
 * is kept as it is (the check above refuses it with the field's sentence, and the field shows it to correct). A
 * count may be written with thousands commas.
 */
export function numberField(text: string, count = false): number | undefined {
  const trimmed = text.replace(count ? /[\s,_]/g : /\s/g, "");
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : (text as unknown as number);
}

/** A number field's text: the number, or what was typed when it was not one. */
export function numberText(value: number | undefined): string {
  return value === undefined ? "" : String(value);
}

/**
 * The extra body as typed: nothing when blank, else what the JSON says. Text that is not JSON is kept as it is, and
 * anything but an object is refused by the check above with the field's own sentence, the text left to correct.
 */
export function extraBodyField(text: string): ModelEntry["thinkingExtraBody"] {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as ModelEntry["thinkingExtraBody"];
  } catch {
    return text as unknown as ModelEntry["thinkingExtraBody"];
  }
}

/** The extra body as the field shows it: the text as typed when it was not JSON, else indented JSON. */
export function extraBodyText(value: ModelEntry["thinkingExtraBody"]): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
