// Settings → Tools' form: each MCP server as text fields, and back. Headers are typed one per line, `Name: value`.
import { MCP_SERVER_NAME, type McpServerEntry, type McpToolInfo } from "../../../protocol/index.ts";
import { newId } from "../../../shared/ids.ts";
// Its texts: Settings' English, which the first screen's dictionary does not hold (i18n/en.ts).
import "../../i18n/en-models-tools.ts";
import { t } from "../../i18n/index.ts";

/** One server as the form shows it. `key` keeps its fields' elements while the list changes. */
export interface McpServerRow {
  key: string;
  name: string;
  url: string;
  enabled: boolean;
  useProxy: boolean;
  bearerToken: string;
  /** A pre-registered OAuth client, for servers without dynamic client registration. */
  oauthClientId: string;
  oauthClientSecret: string;
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
    oauthClientId: "",
    oauthClientSecret: "",
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
    oauthClientId: entry.oauthClientId ?? "",
    oauthClientSecret: entry.oauthClientSecret ?? "",
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
    ...(row.oauthClientId.trim() && { oauthClientId: row.oauthClientId.trim() }),
    ...(row.oauthClientSecret.trim() && { oauthClientSecret: row.oauthClientSecret.trim() }),
    // A copy: the row may be a store's proxy, which cannot be sent to the worker.
    ...(row.disabledTools.length > 0 && { disabledTools: [...row.disabledTools] }),
    ...(timeout !== "" && { timeoutSeconds: Number(timeout) }),
    ...(row.description.trim() && { description: row.description.trim() }),
  };
}

/** A field of a server's group that a problem belongs to. */
export type McpFormField =
  "name" | "url" | "headers" | "bearerToken" | "oauthClientId" | "oauthClientSecret" | "timeout";

/** A problem with one field of one server (the row's `key`), in the order the form shows them. */
export interface McpFormProblem {
  key: string;
  field: McpFormField;
  message: string;
}

/** A header name as HTTP allows it, and the headers the browser or the transport sets itself (as the Gateway checks). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const RESERVED_HEADERS = new Set(["authorization", "content-type", "content-length", "host", "mcp-session-id"]);

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
}

/**
 * What the Gateway would refuse in the servers, field by field, so a refused Save can mark each field: a blank,
 * malformed or repeated name (names are told apart without regard to case), a URL that is not http(s), a header
 * line without a colon or with a name HTTP does not allow or Fawn sets, a bearer token, client ID or client secret
 * with spaces, a client secret without its client ID, a timeout out of range.
 */
export function mcpFormProblems(rows: readonly McpServerRow[]): McpFormProblem[] {
  const problems: McpFormProblem[] = [];
  rows.forEach((row, index) => {
    const at = (field: McpFormField, message: string) => problems.push({ key: row.key, field, message });
    const name = row.name.trim();
    const earlier = rows.slice(0, index).some((other) => other.name.trim().toLowerCase() === name.toLowerCase());
    if (!name) at("name", t("tools.error.name"));
    else if (!MCP_SERVER_NAME.test(name)) at("name", t("tools.error.nameForm"));
    else if (earlier) at("name", t("tools.error.nameTwice", { name }));

    if (!isHttpUrl(row.url.trim())) at("url", t("tools.error.url"));

    const token = row.bearerToken.trim();
    if (/\s/.test(token)) at("bearerToken", t("tools.error.token"));

    const clientId = row.oauthClientId.trim();
    const clientSecret = row.oauthClientSecret.trim();
    if (/\s/.test(clientId)) at("oauthClientId", t("tools.error.clientId"));
    if (/\s/.test(clientSecret)) at("oauthClientSecret", t("tools.error.clientSecret"));
    else if (clientSecret && !clientId) at("oauthClientSecret", t("tools.error.secretWithoutId"));

    const header = headerProblem(row.headers);
    if (header) at("headers", header);

    const timeout = row.timeoutSeconds.trim();
    const seconds = Number(timeout);
    if (timeout !== "" && !(Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600)) {
      at("timeout", t("tools.error.timeout"));
    }
  });
  return problems;
}

/** The first thing wrong with the Headers field's lines, if any. */
function headerProblem(text: string): string | undefined {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) return t("tools.error.headerLine");
    const name = line.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) return t("tools.error.headerName", { name: JSON.stringify(name) });
    if (RESERVED_HEADERS.has(name.toLowerCase())) return t("tools.error.headerReserved");
  }
  return undefined;
}
