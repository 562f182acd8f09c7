// The part of Settings → Servers that runs only when a server is checked or connected, loaded then (the agent worker's
// first load does not carry it): the entered URL, token and name checked, the server probed, and the stored list
// with the server added or replaced. servers-service.ts keeps the rest (the list, disconnect, the workspaces).
import type { ServerCheck, ServerConnectInput, ServerSummary } from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";
import { connectedSentence, probeServer, type ProbeResult } from "./server-probe.ts";

export { connectedSentence };

const MAX_URL_LENGTH = 2_000;
const MAX_TOKEN_LENGTH = 4_096;
const MAX_NAME_LENGTH = 100;
/** What an HTTP header value may hold: a token with a space, a line break or a non-ASCII letter cannot be sent. */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

/** The input trimmed and checked: a refusal names the field in one sentence. */
export function checkedInput(input: ServerConnectInput): ServerConnectInput {
  const url = typeof input.url === "string" ? input.url.trim() : "";
  if (!url) throw new UserError("Enter the server's URL.");
  if (url.length > MAX_URL_LENGTH) throw new UserError("That URL is too long for a server's address.");
  const token = typeof input.token === "string" ? input.token.trim() : "";
  if (token.length > MAX_TOKEN_LENGTH) throw new UserError("That access token is too long.");
  if (token && !TOKEN_CHARACTERS.test(token)) {
    throw new UserError("The access token has a space, a line break or a character a server cannot receive.");
  }
  const name = typeof input.name === "string" ? input.name.trim().slice(0, MAX_NAME_LENGTH) : "";
  return { url, ...(token && { token }), ...(name && { name }) };
}

/** Probes the server (`probe` in tests) with the checked input. */
export function probe(
  input: ServerConnectInput,
  fetcher: typeof fetch,
  scripted?: (input: ServerConnectInput, fetcher: typeof fetch) => Promise<ProbeResult>,
): Promise<ProbeResult> {
  return scripted ? scripted(input, fetcher) : probeServer(input, fetcher);
}

/** What `check` answers: the probe's findings without its internal parts. */
export function publicCheck(result: ProbeResult): ServerCheck {
  const { reachable, authorized, kind, features, sentence } = result;
  return {
    reachable,
    authorized,
    sentence,
    ...(kind && { kind }),
    ...(features && { features }),
  };
}

/**
 * The stored list and tokens with the server `result` found added, or, when its URL is stored already, replacing
 * that one (same id, its name kept unless a new one is given, the new token or none). Refuses a failed check with
 * its sentence.
 */
export function withServer(
  stored: { servers: ServerSummary[]; tokens: Map<string, string> },
  input: ServerConnectInput,
  result: ProbeResult,
  ids: { now: number; newId: () => string },
): { server: ServerSummary; servers: ServerSummary[]; tokens: Map<string, string> } {
  if (!result.authorized || !result.kind || !result.url) throw new UserError(result.sentence);
  const url = result.url;
  const before = stored.servers.find((each) => each.url === url);
  const server: ServerSummary = {
    id: before?.id ?? ids.newId(),
    name: input.name ?? before?.name ?? result.label,
    url,
    kind: result.kind,
    features: result.features ?? {
      fawn: false,
      uploads: false,
      artifacts: false,
      memory: false,
      skills: false,
      models: false,
    },
    added_at: before?.added_at ?? ids.now,
  };
  const servers = before
    ? stored.servers.map((each) => (each.id === server.id ? server : each))
    : [...stored.servers, server];
  const tokens = new Map(stored.tokens);
  if (input.token) tokens.set(server.id, input.token);
  else tokens.delete(server.id);
  return { server, servers, tokens };
}
