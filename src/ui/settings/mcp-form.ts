// Settings → Tools' form: each MCP server as text fields, and back. Headers are typed one per line, `Name: value`.
import type { McpServerEntry, McpToolInfo } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";

/** One server as the form shows it. `key` keeps its fields' elements while the list changes. */
export interface McpServerRow {
  key: string;
  name: string;
  url: string;
  enabled: boolean;
  useProxy: boolean;
  bearerToken: string;
  headers: string;
  description: string;
  timeoutSeconds: string;
  disabledTools: string[];
  /** The tools "Test connection" found (not stored). */
  tools?: McpToolInfo[];
}

export function blankMcpRow(): McpServerRow {
  return {
    key: newId(),
    name: "",
    url: "",
    enabled: true,
    useProxy: false,
    bearerToken: "",
    headers: "",
    description: "",
    timeoutSeconds: "",
    disabledTools: [],
  };
}

export function toMcpRow(entry: McpServerEntry, key = newId()): McpServerRow {
  return {
    key,
    name: entry.name,
    url: entry.url,
    enabled: entry.enabled,
    useProxy: entry.useProxy === true,
    bearerToken: entry.bearerToken ?? "",
    headers: Object.entries(entry.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n"),
    description: entry.description ?? "",
    timeoutSeconds: entry.timeoutSeconds === undefined ? "" : String(entry.timeoutSeconds),
    disabledTools: [...(entry.disabledTools ?? [])],
  };
}

/** The row as an entry for the Gateway to check; a header line without a colon is an error sentence. */
export function fromMcpRow(row: McpServerRow): McpServerEntry | { error: string } {
  const headers: Record<string, string> = {};
  for (const line of row.headers.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      return { error: `Server ${JSON.stringify(row.name.trim())}: write each header as Name: value, one per line.` };
    }
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const timeout = row.timeoutSeconds.trim();
  return {
    name: row.name.trim(),
    url: row.url.trim(),
    enabled: row.enabled,
    ...(row.useProxy && { useProxy: true }),
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(row.bearerToken.trim() && { bearerToken: row.bearerToken.trim() }),
    // A copy: the row may be a store's proxy, which cannot be sent to the worker.
    ...(row.disabledTools.length > 0 && { disabledTools: [...row.disabledTools] }),
    ...(timeout !== "" && { timeoutSeconds: Number(timeout) }),
    ...(row.description.trim() && { description: row.description.trim() }),
  };
}
