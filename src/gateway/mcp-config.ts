// Settings → Tools: the MCP servers the user lists, checked before they are stored, and DeerFlow's `mcpServers`
// file (extensions_config.json) read and written. Secrets (a bearer token, header values) never go into that file.
import { z } from "zod";
import {
  MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_SERVER_NAME,
  type McpConfigImport,
  type McpServerConfig,
  type McpServerEntry,
} from "../protocol/index.ts";

/** A header name as HTTP allows it. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the browser or the transport sets itself. */
const RESERVED_HEADERS = new Set(["authorization", "content-type", "content-length", "host", "mcp-session-id"]);
const MAX_SERVERS = 50;

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
  } catch {
    return false;
  }
}

const entrySchema = z.object({
  name: z
    .string()
    .trim()
    .regex(MCP_SERVER_NAME, "A server's name is 1 to 32 letters, digits, '-' or '_' (it prefixes its tools' names)"),
  url: z
    .string()
    .trim()
    .refine(httpUrl, "The URL is an http:// or https:// address, like https://example.com/mcp (no user name in it)"),
  enabled: z.boolean().default(true),
  useProxy: z.boolean().optional(),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, "A header's name is letters, digits and '-'"),
      z
        .string()
        .max(8000)
        .refine((value) => !/[\r\n]/.test(value), "A header's value is one line"),
    )
    .refine(
      (headers) => Object.keys(headers).every((name) => !RESERVED_HEADERS.has(name.toLowerCase())),
      "Put a bearer token in Bearer token, not in the headers; Content-Type and the session are set by Fawn",
    )
    .optional(),
  bearerToken: z
    .string()
    .trim()
    .max(8000)
    .refine((value) => !/[\s]/.test(value), "A bearer token has no spaces")
    .optional(),
  oauthClientId: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => !/\s/.test(value), "A client ID has no spaces")
    .optional(),
  oauthClientSecret: z
    .string()
    .trim()
    .max(8000)
    .refine((value) => !/\s/.test(value), "A client secret has no spaces")
    .optional(),
  disabledTools: z.array(z.string().min(1).max(200)).max(1000).optional(),
  timeoutSeconds: z.number().int().min(1).max(3600).optional(),
  description: z.string().trim().max(500).optional(),
});

export type McpParseResult = { ok: true; value: McpServerEntry[] } | { ok: false; message: string };

/** The servers as they will be stored: each checked, blanks dropped, names unique. */
export function parseMcpServers(input: unknown): McpParseResult {
  if (!Array.isArray(input)) return { ok: false, message: "The MCP servers are a list." };
  if (input.length > MAX_SERVERS) return { ok: false, message: `Fawn keeps at most ${MAX_SERVERS} MCP servers.` };
  const servers: McpServerEntry[] = [];
  const names = new Set<string>();
  for (const [index, raw] of input.entries()) {
    const parsed = entrySchema.safeParse(raw);
    const label = typeof (raw as { name?: unknown })?.name === "string" ? (raw as { name: string }).name : "";
    const which = label ? `Server ${JSON.stringify(label)}` : `Server ${index + 1}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue?.message ?? "is not valid";
      return { ok: false, message: `${which}: ${message}${/[.!?]$/.test(message) ? "" : "."}` };
    }
    const entry = parsed.data;
    if (names.has(entry.name.toLowerCase())) {
      return {
        ok: false,
        message: `Two servers are named ${JSON.stringify(entry.name)}: each needs a name of its own.`,
      };
    }
    names.add(entry.name.toLowerCase());
    servers.push(clean(entry));
  }
  return { ok: true, value: servers };
}

/** The entry without empty optional fields, so what is stored reads back the same. */
function clean(entry: z.infer<typeof entrySchema>): McpServerEntry {
  const headers = Object.fromEntries(Object.entries(entry.headers ?? {}).filter(([, value]) => value !== ""));
  const disabled = [...new Set(entry.disabledTools ?? [])].sort();
  return {
    name: entry.name,
    url: entry.url,
    enabled: entry.enabled,
    ...(entry.useProxy && { useProxy: true }),
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(entry.bearerToken && { bearerToken: entry.bearerToken }),
    ...(entry.oauthClientId && { oauthClientId: entry.oauthClientId }),
    ...(entry.oauthClientId && entry.oauthClientSecret && { oauthClientSecret: entry.oauthClientSecret }),
    ...(disabled.length > 0 && { disabledTools: disabled }),
    ...(entry.timeoutSeconds !== undefined &&
      entry.timeoutSeconds !== MCP_DEFAULT_TIMEOUT_SECONDS && { timeoutSeconds: entry.timeoutSeconds }),
    ...(entry.description && { description: entry.description }),
  };
}

/** The settings part of an entry (what may be stored beside the secrets, and exported). */
export function withoutMcpSecrets(entry: McpServerEntry): McpServerConfig {
  const { bearerToken: _token, headers: _headers, oauthClientSecret: _secret, ...config } = entry;
  return config;
}

// ---- DeerFlow's mcpServers file ----

const deerFlowServer = z.looseObject({
  type: z.string().optional(),
  transport: z.string().optional(),
  url: z.string().optional(),
  command: z.string().optional(),
  enabled: z.boolean().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  description: z.string().optional(),
  tool_call_timeout: z.number().nullable().optional(),
  use_proxy: z.boolean().optional(),
  tools: z.record(z.string(), z.looseObject({ enabled: z.boolean().optional() })).optional(),
});

/**
 * Reads DeerFlow's `extensions_config.json` (or just its `mcpServers` object): the HTTP and SSE servers become
 * entries; a stdio command cannot run in a browser and is left out with a sentence pointing to the proxy's bridge.
 * Header values that name an environment variable ($TOKEN) are left out too: a browser has no environment.
 */
export function readDeerFlowMcpConfig(input: unknown): McpConfigImport {
  const root = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const isEntry = (value: unknown) =>
    Boolean(value) && typeof value === "object" && ("url" in (value as object) || "command" in (value as object));
  // The whole file, or just its mcpServers object (every value then a server).
  const bare = !Array.isArray(input) && Object.keys(root).length > 0 && Object.values(root).every(isEntry);
  const map = "mcpServers" in root ? root.mcpServers : bare ? root : undefined;
  if (!map || typeof map !== "object" || Array.isArray(map)) {
    throw new TypeError('This is not an MCP configuration: it has no "mcpServers" object.');
  }
  const servers: McpServerEntry[] = [];
  const skipped: McpConfigImport["skipped"] = [];
  for (const [name, raw] of Object.entries(map as Record<string, unknown>)) {
    const parsed = deerFlowServer.safeParse(raw);
    if (!parsed.success) {
      skipped.push({ name, reason: `${name} is not a server entry Fawn can read.` });
      continue;
    }
    const server = parsed.data;
    const type = (server.type ?? server.transport ?? (server.command ? "stdio" : "http")).toLowerCase();
    if (type === "stdio" || server.command) {
      skipped.push({
        name,
        reason:
          `${name} is a program to run on your computer, which a web page cannot start: list it in the settings ` +
          `of Fawn's proxy, then add it here by its proxy address, …/mcp/${name}.`,
      });
      continue;
    }
    const headers = Object.fromEntries(
      Object.entries(server.headers ?? {}).filter(([, value]) => !/^\$\{?[A-Za-z_]/.test(value)),
    );
    const disabledTools = Object.entries(server.tools ?? {})
      .filter(([, tool]) => tool.enabled === false)
      .map(([tool]) => tool);
    const entry = parseMcpServers([
      {
        name,
        url: server.url ?? "",
        enabled: server.enabled ?? true,
        ...(server.use_proxy && { useProxy: true }),
        ...(Object.keys(headers).length > 0 && { headers }),
        ...(disabledTools.length > 0 && { disabledTools }),
        ...(typeof server.tool_call_timeout === "number" && { timeoutSeconds: Math.round(server.tool_call_timeout) }),
        ...(server.description && { description: server.description }),
      },
    ]);
    if (entry.ok) servers.push(...entry.value);
    else skipped.push({ name, reason: entry.message });
  }
  return { servers, skipped };
}

/** The servers in DeerFlow's `mcpServers` shape, without a secret: no bearer token, no header values. */
export function toDeerFlowMcpConfig(servers: readonly McpServerConfig[]): { mcpServers: Record<string, unknown> } {
  return {
    mcpServers: Object.fromEntries(
      servers.map((server) => [
        server.name,
        {
          type: "http",
          url: server.url,
          enabled: server.enabled,
          ...(server.description && { description: server.description }),
          ...(server.timeoutSeconds !== undefined && { tool_call_timeout: server.timeoutSeconds }),
          ...(server.useProxy && { use_proxy: true }),
          ...(server.disabledTools?.length && {
            tools: Object.fromEntries(server.disabledTools.map((tool) => [tool, { enabled: false }])),
          }),
        },
      ]),
    ),
  };
}
