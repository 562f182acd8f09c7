// The server's configuration: `fawn-server.json` (at FAWN_SERVER_CONFIG, else ./fawn-server.json when it exists) in
// the spirit of DeerFlow's config.yaml — the models with their keys named by environment variable, the web tools and
// the MCP servers — and the environment, which alone is enough for a quick start (FAWN_MODEL_BASE_URL, FAWN_MODEL…).
// Every problem is one sentence naming the field; a key is never read from the file itself, only from the variable
// it names, so the file can be committed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { ModelEntry, ModelSettings, WebToolSettings } from "../src/protocol/index.ts";
import { parseAllowEntry } from "./outbound.ts";

/** What the server runs with, resolved: keys read from the environment, defaults filled in. */
export interface ServerConfig {
  host: string;
  port: number;
  /** The admin's token (FAWN_SERVER_TOKEN); absent: a new one is made and printed at each start. */
  adminToken?: string;
  /** Web origins allowed by CORS (FAWN_SERVER_ORIGINS, comma-separated); `*` allows any. */
  origins: string[];
  /** A `postgres://` URL (DATABASE_URL); absent: the embedded Postgres in `dataDir`. */
  databaseUrl?: string;
  /** The embedded Postgres's folder and the server's other files (FAWN_SERVER_DATA). */
  dataDir: string;
  /** The largest request body accepted, in bytes (FAWN_SERVER_MAX_BODY_MB); uploads may reach their own limits. */
  maxBodyBytes: number;
  /** How long a replica's claim on a run lasts without a heartbeat (FAWN_RUN_LEASE_MS). */
  runLeaseMs: number;
  /** Every user's models (written into their Settings → Models when their Gateway opens); absent: none configured. */
  models?: ModelSettings;
  /** Every user's web tools; absent: Fawn's defaults. */
  webTools?: WebToolSettings;
  /** Every user's MCP servers, as Settings → Tools stores them (keys resolved); absent: none. */
  mcpServers?: McpServerConfigEntry[];
  /**
   * Private hosts (any port) and host:port the Gateways may reach besides the configured models' (`outbound.allow`
   * and FAWN_SERVER_OUTBOUND_ALLOW, comma-separated); every other non-public target is refused (server/outbound.ts).
   */
  outboundAllow: string[];
  /** Where the configuration came from, for the start-up banner. */
  source: string;
}

export type McpServerConfigEntry = z.infer<typeof mcpServerSchema>;

/** A configuration that cannot be used; its message is one sentence naming the field. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export const DEFAULT_PORT = 2024;
/** The shortest admin token the server takes. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;
const DEFAULT_MAX_BODY_MB = 16;
const DEFAULT_LEASE_MS = 10_000;

/** `$NAME` or `${NAME}`: a value read from the environment. */
const ENV_REFERENCE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
const envReference = z
  .string()
  .regex(ENV_REFERENCE, "must name an environment variable ($NAME); keys are never written into the file");

const modelEntrySchema = z.union([
  z.string().min(1),
  z.strictObject({
    id: z.string().min(1),
    thinking: z.boolean().optional(),
    vision: z.boolean().optional(),
    contextWindow: z.number().int().positive().optional(),
    tools: z.boolean().optional(),
  }),
]);

const endpointSchema = z.strictObject({
  /** Shown in the model picker; its id (lowercase, dashes) is derived from it unless `id` is given. */
  name: z.string().min(1),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, "must be lowercase letters, digits and dashes")
    .optional(),
  provider: z.enum(["openai-compatible", "anthropic", "gemini"]).default("openai-compatible"),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  /** `$OPENAI_API_KEY`: the variable holding the key; absent for a server that takes none. */
  apiKey: envReference.optional(),
  models: z.array(modelEntrySchema).min(1, "must list at least one model"),
});

const webServiceSchema = z.strictObject({
  provider: z.string(),
  apiKey: envReference.optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
});

const mcpServerSchema = z.strictObject({
  name: z.string().min(1),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  enabled: z.boolean().default(true),
  /** Header values may name environment variables (`$TOKEN`), read at start. */
  headers: z.record(z.string(), z.string()).optional(),
  bearerToken: envReference.optional(),
  timeoutSeconds: z.number().int().positive().optional(),
  description: z.string().optional(),
});

const fileSchema = z.strictObject({
  $schema: z.string().optional(),
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65_535).optional(),
  origins: z.array(z.string().min(1)).optional(),
  maxBodyMb: z.number().positive().optional(),
  /** The endpoints every user's agent talks to, in the order the model picker lists them. */
  models: z.array(endpointSchema).optional(),
  /** `"<endpoint name or id>/<model id>"`; absent: the first endpoint's first model. */
  defaultModel: z.string().optional(),
  /** Name each thread with a short model-written title after its first exchange. */
  modelTitles: z.boolean().optional(),
  webTools: z
    .strictObject({
      search: webServiceSchema.optional(),
      fetch: webServiceSchema.optional(),
      /** image_search's service (Firecrawl, Brave or Serper); absent: no image_search. */
      images: webServiceSchema.optional(),
      askBeforeSending: z.boolean().optional(),
    })
    .optional(),
  mcpServers: z.array(mcpServerSchema).optional(),
  /** Private addresses the server may connect to for users: `host` or `host:port` (see server/outbound.ts). */
  outbound: z.strictObject({ allow: z.array(z.string().min(1)).optional() }).optional(),
});

type FileConfig = z.infer<typeof fileSchema>;
type Env = Readonly<Record<string, string | undefined>>;

/** Reads the configuration file (if any) and the environment; throws a ConfigError with one sentence. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): ServerConfig {
  const named = env.FAWN_SERVER_CONFIG?.trim();
  const file = named ? path.resolve(cwd, named) : path.resolve(cwd, "fawn-server.json");
  if (named && !existsSync(file)) throw new ConfigError(`FAWN_SERVER_CONFIG names ${file}, which does not exist.`);
  if (!existsSync(file)) return resolveConfig(undefined, env, { cwd, source: "the environment" });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${(error as Error).message}).`);
  }
  return resolveConfig(json, env, { cwd, source: file });
}

/** The configuration from a parsed file (or none) and the environment, which wins for the server's own fields. */
export function resolveConfig(
  json: unknown,
  env: Env,
  { cwd = process.cwd(), source = "the given configuration" }: { cwd?: string; source?: string } = {},
): ServerConfig {
  const parsed = fileSchema.safeParse(json ?? {});
  if (!parsed.success) throw new ConfigError(`${source}: ${firstIssue(parsed.error)}`);
  const file: FileConfig = parsed.data;
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };

  const port = read("PORT") === undefined ? (file.port ?? DEFAULT_PORT) : integerFrom("PORT", read("PORT"), 0, 65_535);
  const maxBodyMb = read("FAWN_SERVER_MAX_BODY_MB");
  const origins = read("FAWN_SERVER_ORIGINS")?.split(",") ?? file.origins ?? [];
  const models = modelsFrom(file, env, read);
  const webTools = file.webTools && webToolsFrom(file.webTools, env);
  const mcpServers = file.mcpServers?.map((server) => mcpServerFrom(server, env));
  const adminToken = read("FAWN_SERVER_TOKEN");
  // The admin's token opens every user's data and a server may listen on every interface: a short one is guessable.
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `FAWN_SERVER_TOKEN is ${adminToken.length} characters; use at least ${MIN_ADMIN_TOKEN_LENGTH} (openssl rand -hex 32 makes one), or leave it unset for a new token at each start.`,
    );
  }
  const databaseUrl = read("DATABASE_URL");
  const fromEnv = read("FAWN_SERVER_OUTBOUND_ALLOW")?.split(",") ?? [];
  const outboundAllow = [...(file.outbound?.allow ?? []), ...fromEnv].map((entry) => entry.trim()).filter(Boolean);
  for (const entry of outboundAllow) {
    try {
      parseAllowEntry(entry);
    } catch (error) {
      throw new ConfigError(`outbound.allow (or FAWN_SERVER_OUTBOUND_ALLOW): ${(error as Error).message}`);
    }
  }
  return {
    host: read("HOST") ?? file.host ?? "127.0.0.1",
    port,
    ...(adminToken && { adminToken }),
    origins: origins.map((origin) => origin.trim().replace(/\/$/, "")).filter(Boolean),
    ...(databaseUrl && { databaseUrl }),
    dataDir: path.resolve(cwd, read("FAWN_SERVER_DATA") ?? ".fawn-server"),
    maxBodyBytes: Math.round(
      (maxBodyMb === undefined
        ? (file.maxBodyMb ?? DEFAULT_MAX_BODY_MB)
        : positiveFrom("FAWN_SERVER_MAX_BODY_MB", maxBodyMb)) *
        1024 *
        1024,
    ),
    runLeaseMs:
      read("FAWN_RUN_LEASE_MS") === undefined
        ? DEFAULT_LEASE_MS
        : integerFrom("FAWN_RUN_LEASE_MS", read("FAWN_RUN_LEASE_MS"), 100, 3_600_000),
    ...(models && { models }),
    ...(webTools && { webTools }),
    ...(mcpServers && { mcpServers }),
    outboundAllow,
    source,
  };
}

function modelsFrom(file: FileConfig, env: Env, read: (name: string) => string | undefined): ModelSettings | undefined {
  const baseUrl = read("FAWN_MODEL_BASE_URL");
  const model = read("FAWN_MODEL");
  if (baseUrl || model) {
    if (file.models?.length) {
      throw new ConfigError("Models are set both in the configuration file and by FAWN_MODEL_*: keep one of them.");
    }
    if (!baseUrl || !model) throw new ConfigError("FAWN_MODEL_BASE_URL and FAWN_MODEL are needed together.");
    if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError("FAWN_MODEL_BASE_URL must be an http(s) URL.");
    return {
      endpoints: [
        {
          id: "main",
          name: "Main endpoint",
          provider: "openai-compatible",
          baseUrl,
          apiKey: read("FAWN_MODEL_API_KEY") ?? "",
          models: [{ id: model }],
        },
      ],
      defaultModel: { endpoint: "main", model },
    };
  }
  if (!file.models?.length) return undefined;
  const ids = new Set<string>();
  const endpoints = file.models.map((endpoint, index) => {
    const id = endpoint.id ?? idOf(endpoint.name);
    if (!id) throw new ConfigError(`models[${index}].name has no letter or digit to make an id of; give it an "id".`);
    if (ids.has(id))
      throw new ConfigError(`models[${index}] has the id "${id}" of an earlier endpoint; give it another "id".`);
    ids.add(id);
    const models: ModelEntry[] = endpoint.models.map((entry) => (typeof entry === "string" ? { id: entry } : entry));
    return {
      id,
      name: endpoint.name,
      provider: endpoint.provider,
      baseUrl: endpoint.baseUrl,
      apiKey: endpoint.apiKey ? envValue(endpoint.apiKey, env, `models[${index}].apiKey`) : "",
      models,
    };
  });
  const first = endpoints[0]!;
  let defaultModel = { endpoint: first.id, model: first.models[0]!.id };
  if (file.defaultModel) {
    const slash = file.defaultModel.indexOf("/");
    const endpointName = file.defaultModel.slice(0, slash);
    const modelId = file.defaultModel.slice(slash + 1);
    const endpoint = endpoints.find((entry) => entry.id === endpointName || entry.name === endpointName);
    if (slash < 0 || !endpoint || !endpoint.models.some((entry) => entry.id === modelId)) {
      throw new ConfigError(`defaultModel "${file.defaultModel}" is not "<endpoint>/<model>" of a listed model.`);
    }
    defaultModel = { endpoint: endpoint.id, model: modelId };
  }
  return { endpoints, defaultModel, ...(file.modelTitles && { modelTitles: true }) };
}

function webToolsFrom(web: NonNullable<FileConfig["webTools"]>, env: Env): WebToolSettings {
  const service = (part: "search" | "fetch" | "images", fallback: string) => {
    const given = web[part];
    return {
      provider: given?.provider ?? fallback,
      apiKey: given?.apiKey ? envValue(given.apiKey, env, `webTools.${part}.apiKey`) : "",
      ...(given?.baseUrl && { baseUrl: given.baseUrl }),
    };
  };
  // The providers' names are checked by the settings service when they are saved (one sentence, as in Settings).
  return {
    search: service("search", "off"),
    fetch: service("fetch", "jina"),
    ...(web.images && { images: service("images", "off") }),
    ...(web.askBeforeSending !== undefined && { askBeforeSending: web.askBeforeSending }),
  } as WebToolSettings;
}

function mcpServerFrom(server: McpServerConfigEntry, env: Env): McpServerConfigEntry {
  const headers =
    server.headers &&
    Object.fromEntries(
      Object.entries(server.headers).map(([name, value]) => [
        name,
        ENV_REFERENCE.test(value) ? envValue(value, env, `mcpServers "${server.name}" header ${name}`) : value,
      ]),
    );
  return {
    ...server,
    ...(headers && { headers }),
    ...(server.bearerToken && {
      bearerToken: envValue(server.bearerToken, env, `mcpServers "${server.name}" bearerToken`),
    }),
  };
}

/** The value of the variable `$NAME` names; a ConfigError when it is unset. */
function envValue(reference: string, env: Env, field: string): string {
  const name = ENV_REFERENCE.exec(reference)?.[1] ?? reference;
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${field} names the environment variable ${name}, which is not set.`);
  return value;
}

function idOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function integerFrom(name: string, value: string | undefined, min: number, max: number): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
  }
  return number;
}

function positiveFrom(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0)
    throw new ConfigError(`${name} must be a positive number, not "${value}".`);
  return number;
}

/** The first problem zod found, as "field: message." */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "it is not a valid configuration.";
  const where = issue.path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : `${index > 0 ? "." : ""}${String(part)}`))
    .join("");
  return `${where ? `${where} ` : ""}${issue.message.replace(/\.$/, "")}.`;
}
