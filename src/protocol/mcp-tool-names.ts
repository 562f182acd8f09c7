// The names the model knows MCP tools by: `<server>_<tool>` (DeerFlow's prefix), unless that name is a built-in
// tool's or another MCP tool's. Built-in tools always keep their names; a colliding MCP tool gets the first free
// `<name>_2`, `<name>_3`, … (or is left out when none fits). The Gateway names a run's tools with this and Settings →
// Tools shows the same outcome on each tool's row, so what the user reads is what the model gets.
import { MCP_TOOL_NAME_MAX } from "./mcp.ts";

/**
 * Every tool name the agent has of its own, in any mode and with any setting, whether or not this run offers it: an
 * MCP tool never takes one (agent/builtin-tool-names.test.ts checks that the list covers the agent's tools).
 */
export const BUILT_IN_TOOL_NAMES: readonly string[] = [
  "ask_clarification",
  "bash",
  "glob",
  "grep",
  "image_search",
  "ls",
  "present_files",
  "read_file",
  "setup_agent",
  "str_replace",
  "task",
  "tool_search",
  "update_agent",
  "view_image",
  "web_fetch",
  "web_search",
  "write_file",
  "write_todos",
];

/** The characters a tool name may hold (DeerFlow drops the others; model APIs refuse them). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** The name the server's prefix gives: `<server>_<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}_${tool}`;
}

/** One server's tools as the agent would get them (its switched-off tools already left out). */
export interface McpServerToolList {
  server: string;
  tools: readonly string[];
}

/** Why a tool has another name than `<server>_<tool>`, or none at all. */
export type McpToolNaming =
  | { server: string; tool: string; kind: "named"; name: string }
  /** `owner`: the prefixed name is a built-in tool's, or it is that tool's (of a server whose name sorts first). */
  | {
      server: string;
      tool: string;
      kind: "renamed";
      name: string;
      prefixed: string;
      owner: "built-in" | { server: string; tool: string };
    }
  | {
      server: string;
      tool: string;
      kind: "refused";
      prefixed: string;
      reason: "characters" | "too-long" | "listed-twice" | "no-free-name";
      owner?: "built-in" | { server: string; tool: string };
    };

/** Tool names compare without case: `Ask_Clarification` would read to a model as the built-in all the same. */
const key = (name: string) => name.toLowerCase();

/**
 * The name of every tool of `servers` (returned in their order): the prefixed name when it is free, else the first
 * free `<prefixed>_<n>` (n ≥ 2) that fits in MCP_TOOL_NAME_MAX. Servers are taken by name (code-unit order, so the
 * page and the worker agree whatever order they hold them in): of two servers' tools that come out alike, the one
 * of the server whose name sorts first keeps the name. Prefixed names are claimed first, so a renamed tool never
 * takes the plain name of another. A built-in name is never given, and names are unique without regard to case.
 */
export function nameMcpTools(servers: readonly McpServerToolList[]): McpToolNaming[] {
  const builtIn = new Set(BUILT_IN_TOOL_NAMES.map(key));
  const owners = new Map<string, { server: string; tool: string }>();
  const starts: number[] = [];
  let count = 0;
  for (const { tools } of servers) {
    starts.push(count);
    count += tools.length;
  }
  const result: McpToolNaming[] = Array.from({ length: count });
  const clashes: { index: number; owner: "built-in" | { server: string; tool: string } }[] = [];
  const byName = [...servers.keys()].sort((a, b) => {
    const [left, right] = [servers[a]!.server, servers[b]!.server];
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  for (const position of byName) {
    const { server, tools } = servers[position]!;
    const listed = new Set<string>();
    for (const [offset, tool] of tools.entries()) {
      const index = starts[position]! + offset;
      const prefixed = mcpToolName(server, tool);
      const refuse = (reason: "characters" | "too-long" | "listed-twice") =>
        (result[index] = { server, tool, kind: "refused", prefixed, reason });
      if (!MCP_TOOL_NAME.test(prefixed)) refuse("characters");
      else if (prefixed.length > MCP_TOOL_NAME_MAX) refuse("too-long");
      else if (listed.has(tool)) refuse("listed-twice");
      else {
        listed.add(tool);
        const owner = builtIn.has(key(prefixed)) ? "built-in" : owners.get(key(prefixed));
        if (owner) clashes.push({ index, owner });
        else owners.set(key(prefixed), { server, tool });
        result[index] = { server, tool, kind: "named", name: prefixed };
      }
    }
  }
  for (const { index, owner } of clashes) {
    const { server, tool, name: prefixed } = result[index] as Extract<McpToolNaming, { kind: "named" }>;
    let renamed: string | undefined;
    for (let n = 2; ; n++) {
      const candidate = `${prefixed}_${String(n)}`;
      if (candidate.length > MCP_TOOL_NAME_MAX) break;
      if (!builtIn.has(key(candidate)) && !owners.has(key(candidate))) {
        renamed = candidate;
        break;
      }
    }
    if (renamed === undefined) {
      result[index] = { server, tool, kind: "refused", prefixed, reason: "no-free-name", owner };
      continue;
    }
    owners.set(key(renamed), { server, tool });
    result[index] = { server, tool, kind: "renamed", name: renamed, prefixed, owner };
  }
  return result;
}

/** The sentence saying why a tool is renamed or left out (the worker's log and error text; the UI has its own). */
export function mcpToolNamingReason(naming: McpToolNaming): string | undefined {
  if (naming.kind === "named") return undefined;
  const clash =
    naming.owner === "built-in"
      ? `"${naming.prefixed}" is the name of a built-in tool`
      : naming.owner
        ? `"${naming.prefixed}" is already the name of ${naming.owner.server}'s tool "${naming.owner.tool}"`
        : "";
  if (naming.kind === "renamed") return `renamed to "${naming.name}": ${clash}`;
  switch (naming.reason) {
    case "characters":
      return `its name "${naming.prefixed}" holds characters other than letters, digits, "_" and "-"`;
    case "too-long":
      return `its name "${naming.prefixed}" is longer than ${String(MCP_TOOL_NAME_MAX)} characters`;
    case "listed-twice":
      return `the server lists "${naming.tool}" twice`;
    case "no-free-name":
      return `${clash}, and no other name for it fits in ${String(MCP_TOOL_NAME_MAX)} characters`;
  }
}
