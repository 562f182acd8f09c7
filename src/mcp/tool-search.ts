// DeerFlow's deferred tool loading, for when many MCP tools are enabled: the model sees their names only (a list in
// the system prompt) and a tool_search tool; the schemas a search returns are bound from the next model call on.
// What was found is read back from the thread's own tool_search results, tagged with the catalog's hash, so a
// changed set of tools never exposes a stale schema. Built-in tools are never deferred.
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAIFunction } from "@langchain/core/utils/function_calling";
import { createMiddleware } from "langchain";

export const TOOL_SEARCH_TOOL_NAME = "tool_search";
/** Above this many enabled MCP tools, Fawn defers them (DeerFlow leaves it to a switch). */
export const MCP_TOOL_SEARCH_THRESHOLD = 30;
/** The most tools one search returns (a `select:` takes every name it lists). */
export const TOOL_SEARCH_MAX_RESULTS = 5;

/** The deferred tools, and a hash that changes whenever one of their names or schemas does. */
export interface ToolCatalog {
  hash: string;
  tools: readonly StructuredToolInterface[];
}

/** What a tool_search result carries beside its text: the names it found, for the catalog it searched. */
export interface ToolSearchArtifact {
  catalog_hash: string;
  names: string[];
}

/** True when this many MCP tools should be deferred behind tool_search. */
export function shouldDeferTools(count: number, threshold = MCP_TOOL_SEARCH_THRESHOLD): boolean {
  return count > threshold;
}

function schemaOf(tool: StructuredToolInterface): unknown {
  return convertToOpenAIFunction(tool).parameters;
}

/** A catalog of `tools`, hashed over their sorted names and schemas (SHA-256, first 16 hex digits, as DeerFlow). */
export async function toolCatalog(tools: readonly StructuredToolInterface[]): Promise<ToolCatalog> {
  const entries = [...tools]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((tool) => ({ name: tool.name, schema: schemaOf(tool) }));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(entries)));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return { hash: hex.slice(0, 16), tools };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * DeerFlow's query forms: `select:a,b` (those exact names), `+word rest` (names containing `word`, ranked by how
 * many of `rest` appear), anything else a case-insensitive regular expression (a literal when it is not one) over
 * name and description, name matches first. At most `max` results, except for `select:`.
 */
export function searchTools(
  tools: readonly StructuredToolInterface[],
  query: string,
  max = TOOL_SEARCH_MAX_RESULTS,
): StructuredToolInterface[] {
  const trimmed = query.trim();
  if (trimmed.startsWith("select:")) {
    const wanted = trimmed
      .slice("select:".length)
      .split(",")
      .map((name) => name.trim());
    return wanted.flatMap((name) => tools.filter((tool) => tool.name === name));
  }
  if (trimmed.startsWith("+")) {
    const [required = "", ...rest] = trimmed.slice(1).toLowerCase().split(/\s+/);
    const scored = tools
      .filter((tool) => tool.name.toLowerCase().includes(required))
      .map((tool) => {
        const haystack = `${tool.name} ${tool.description}`.toLowerCase();
        return { tool, score: rest.filter((word) => haystack.includes(word)).length };
      });
    return scored
      .sort((a, b) => b.score - a.score)
      .slice(0, max)
      .map((entry) => entry.tool);
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(trimmed, "i");
  } catch {
    pattern = new RegExp(escapeRegExp(trimmed), "i");
  }
  const byName = tools.filter((tool) => pattern.test(tool.name));
  const byDescription = tools.filter((tool) => !pattern.test(tool.name) && pattern.test(tool.description));
  return [...byName, ...byDescription].slice(0, max);
}

/** The tool_search tool over `catalog`: its text is the found tools' function schemas as JSON. */
export function toolSearchTool(catalog: ToolCatalog): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description:
      "Fetch the full definitions of deferred tools (listed by name in <available-deferred-tools>) so you can call " +
      "them; a deferred tool cannot be called before it is fetched. Query forms: 'select:name1,name2' fetches those " +
      "tools; '+word more words' finds tools whose name contains 'word', ranked by the other words; anything else " +
      `is a case-insensitive regular expression over names and descriptions. At most ${String(TOOL_SEARCH_MAX_RESULTS)} results.`,
    schema: {
      type: "object",
      properties: { query: { type: "string", description: "What to look for (see the query forms)." } },
      required: ["query"],
    },
    responseFormat: "content_and_artifact",
    func: async (input: unknown): Promise<[string, ToolSearchArtifact]> => {
      const query = String((input as { query?: unknown }).query ?? "");
      const found = searchTools(catalog.tools, query);
      const artifact = { catalog_hash: catalog.hash, names: found.map((tool) => tool.name) };
      if (found.length === 0) return [`No tools found matching: ${query}`, artifact];
      return [JSON.stringify(found.map((tool) => convertToOpenAIFunction(tool))), artifact];
    },
  });
}

/** The names tool_search has found in this thread for this catalog (older catalogs' findings do not count). */
export function promotedToolNames(messages: readonly BaseMessage[], catalog: ToolCatalog): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (!ToolMessage.isInstance(message) || message.name !== TOOL_SEARCH_TOOL_NAME) continue;
    const artifact = message.artifact as Partial<ToolSearchArtifact> | undefined;
    if (artifact?.catalog_hash !== catalog.hash || !Array.isArray(artifact.names)) continue;
    for (const name of artifact.names) names.add(name);
  }
  return names;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The system prompt's list of deferred tools, as DeerFlow writes it. */
export function deferredToolsPrompt(catalog: ToolCatalog): string {
  const names = catalog.tools.map((tool) => escapeHtml(tool.name)).sort();
  return `<available-deferred-tools>\n${names.join("\n")}\n</available-deferred-tools>`;
}

/** The error a call to a deferred tool gets before tool_search found it. */
export function deferredToolError(name: string): string {
  return `Error: ${name} is a deferred tool: call ${TOOL_SEARCH_TOOL_NAME} first (e.g. "select:${name}") to fetch its definition, then retry.`;
}

/**
 * DeerFlow's DeferredToolFilterMiddleware with tool_search: adds tool_search and the list of deferred names,
 * hides the deferred tools tool_search has not found yet from the model, and answers a call to one of them with
 * an error. The deferred tools themselves must still be given to the agent, so found ones can run.
 */
export function toolSearchMiddleware(catalog: ToolCatalog) {
  const deferred = new Set(catalog.tools.map((tool) => tool.name));
  const prompt = deferredToolsPrompt(catalog);
  return createMiddleware({
    name: "DeferredToolFilterMiddleware",
    tools: [toolSearchTool(catalog)],
    wrapModelCall: (request, handler) => {
      const promoted = promotedToolNames(request.messages, catalog);
      const tools = request.tools.filter((tool) => {
        const name = (tool as { name?: unknown }).name;
        return typeof name !== "string" || !deferred.has(name) || promoted.has(name);
      });
      return handler({ ...request, tools, systemMessage: request.systemMessage.concat(`\n\n${prompt}`) });
    },
    wrapToolCall: (request, handler) => {
      const name = request.toolCall.name;
      if (!deferred.has(name)) return handler(request);
      const messages = (request.state as { messages?: BaseMessage[] }).messages ?? [];
      if (promotedToolNames(messages, catalog).has(name)) return handler(request);
      return new ToolMessage({
        content: deferredToolError(name),
        tool_call_id: request.toolCall.id ?? "",
        name,
        status: "error",
      });
    },
  });
}
