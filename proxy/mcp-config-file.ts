// The proxy's MCP config file (DeerFlow's extensions_config.json shape): which local stdio servers it serves.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** Read from the proxy's working directory when FAWN_PROXY_MCP_CONFIG is unset and the file exists. */
export const DEFAULT_MCP_CONFIG_FILE = "fawn-mcp.json";

const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** One configured stdio server. Only the config file makes these: nothing from a request reaches them. */
export interface McpStdioServer {
  name: string;
  command: string;
  args: readonly string[];
  /** Added to the SDK's small default environment (PATH, HOME, USER, ...), not to the proxy's whole environment. */
  env: Readonly<Record<string, string>>;
  cwd?: string;
}

/** A config file the proxy cannot use; its message is one sentence naming the file and the problem. */
export class McpConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

// DeerFlow's extensions_config.json entry; extra keys (url, headers, description, tools, ...) are allowed and unused.
const entrySchema = z.looseObject({
  type: z.string().optional(),
  transport: z.string().optional(),
  command: z.string({ error: "must be a string" }).optional(),
  args: z.array(z.string(), { error: "must be a list of strings" }).optional(),
  env: z.record(z.string(), z.string(), { error: "must map variable names to strings" }).optional(),
  cwd: z.string({ error: "must be a string" }).optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
});
const configSchema = z.looseObject({
  mcpServers: z.record(z.string(), entrySchema, {
    error: 'must be an object of servers by name, as in {"mcpServers": {}}',
  }),
});

/** `${VAR}` anywhere, or a whole value of `$VAR` (DeerFlow's form), from the proxy's environment. */
function resolveEnvValue(value: string, env: Env, where: string): string {
  const missing = (name: string): never => {
    throw new McpConfigError(`${where} uses $${name}, which is not set in the proxy's environment.`);
  };
  const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  if (whole !== null) return env[whole[1] as string] ?? missing(whole[1] as string);
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => env[name] ?? missing(name));
}

/**
 * The stdio servers a config file (DeerFlow's `mcpServers` shape) serves. Entries that are disabled or not stdio are
 * left out with a log line; anything malformed throws one McpConfigError sentence naming `source` and the problem.
 */
export function mcpServersFromConfig(
  text: string,
  source: string,
  env: Env,
  log: (line: string) => void = () => {},
): McpStdioServer[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`The MCP config ${source} is not valid JSON (${(err as Error).message}).`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue === undefined || issue.path.length === 0 ? "its top level" : issue.path.join(".");
    const problem =
      issue?.code === "invalid_type" && issue.path.length === 0 ? "must be a JSON object" : issue?.message;
    throw new McpConfigError(`In the MCP config ${source}, ${at} ${problem ?? "is not valid"}.`);
  }
  const servers: McpStdioServer[] = [];
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    const type = entry.type ?? entry.transport ?? (entry.command !== undefined ? "stdio" : undefined);
    if (entry.enabled === false) {
      log(`[fawn-proxy] MCP server "${name}" in ${source} is disabled; skipped.`);
      continue;
    }
    if (type !== "stdio") {
      log(
        `[fawn-proxy] MCP server "${name}" in ${source} is not a stdio server (${type ?? "no type or command"}); ` +
          "skipped: add it in Fawn by its URL.",
      );
      continue;
    }
    if (!SERVER_NAME.test(name)) {
      throw new McpConfigError(
        `The MCP server name "${name}" in ${source} must be 1 to 32 letters, digits, "-" or "_" (it becomes the URL /mcp/<name>).`,
      );
    }
    if (entry.command === undefined || entry.command.trim() === "") {
      throw new McpConfigError(`The MCP server "${name}" in ${source} is stdio but has no "command".`);
    }
    const where = `The MCP server "${name}" in ${source}`;
    const resolved = Object.entries(entry.env ?? {}).map(([key, value]) => [key, resolveEnvValue(value, env, where)]);
    servers.push({
      name,
      command: entry.command,
      args: entry.args ?? [],
      env: Object.fromEntries(resolved),
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    });
  }
  return servers;
}

/**
 * Reads FAWN_PROXY_MCP_CONFIG (a path; empty turns the bridge off) or, when unset, `./fawn-mcp.json` if it exists.
 * A named file that is missing or unreadable, and any malformed config, throws one McpConfigError sentence.
 */
export function mcpServersFromEnv(
  env: Env,
  cwd: string,
  log: (line: string) => void = () => {},
): { source?: string; servers: McpStdioServer[] } {
  const named = env.FAWN_PROXY_MCP_CONFIG;
  if (named !== undefined && named.trim() === "") return { servers: [] };
  const file = path.resolve(cwd, named?.trim() ?? DEFAULT_MCP_CONFIG_FILE);
  if (named === undefined && !existsSync(file)) return { servers: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : (err as Error).message;
    throw new McpConfigError(`The MCP config ${file} (FAWN_PROXY_MCP_CONFIG) cannot be read: ${reason}.`);
  }
  return { source: file, servers: mcpServersFromConfig(text, file, env, log) };
}
