// The fetch under every outbound request of a user's Gateway on the server (web tools, MCP servers and their OAuth,
// model endpoints): on Node those requests leave from inside the deployment, so a user, or a model steered by a web
// page, could otherwise reach its cloud metadata service, localhost, the database or private ranges. Targets are held
// to public addresses by the proxy's rules (proxy/target-policy.ts), checked on the URL, then again on the address a
// name resolves to when the connection is made (so a DNS answer that changes in between cannot rebind it), and on
// every redirect hop. The configured models' host:port and fawn-server.json's `outbound.allow` are let through.
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import {
  blockedAddressKind,
  blockedNameKind,
  canonicalHost,
  hostPort,
  targetPort,
  type ResolveHost,
} from "../proxy/target-policy.ts";

/** Where a refusal tells the admin to look. */
const REMEDY = "the server's admin can allow it in fawn-server.json's outbound.allow";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** Headers a redirect to another origin drops, as fetch does. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** A request the server will not send: its message is the one sentence the model or the user sees. */
export class OutboundRefusedError extends Error {
  override name = "OutboundRefusedError";
}

interface AllowEntry {
  host: string;
  /** Undefined: any port. */
  port?: number;
}

/** One `outbound.allow` entry: `host`, `host:port`, `[v6]` or `[v6]:port`; throws a sentence when it is none. */
export function parseAllowEntry(raw: string): AllowEntry {
  const text = raw.trim();
  const invalid = new Error(`"${raw}" is not a host name or host:port.`);
  const match = /^(\[[^\]]+\]|[^:[\]/]+)(?::(\d+))?$/.exec(text) ?? (isIP(text) === 6 ? [text, `[${text}]`] : null);
  if (match === null || match[1] === undefined) throw invalid;
  let host: string;
  try {
    host = canonicalHost(new URL(`http://${match[1]}/`).hostname);
  } catch {
    throw invalid;
  }
  if (host === "") throw invalid;
  if (match[2] === undefined) return { host };
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) throw invalid;
  return { host, port };
}

/** `host:port` of an http(s) URL (the configured models' base URLs), for the allow-list. */
export function allowEntryOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? hostPort(canonicalHost(parsed.hostname), targetPort(parsed)) : undefined;
  } catch {
    return undefined;
  }
}

export interface OutboundOptions {
  /** Hosts (any port) and host:port entries let through even when they are private. */
  allow?: readonly string[];
  /** Resolves a name to every address (tests play DNS); default `dns.lookup(name, { all: true })`. */
  resolve?: ResolveHost;
}

/** Which targets the server may connect to. */
export class OutboundPolicy {
  readonly #allow: readonly AllowEntry[];
  readonly #resolve: ResolveHost;

  constructor(options: OutboundOptions = {}) {
    this.#allow = (options.allow ?? []).filter((entry) => entry.trim() !== "").map(parseAllowEntry);
    this.#resolve = options.resolve ?? ((name) => dnsLookup(name, { all: true }));
  }

  allows(host: string, port: number): boolean {
    const name = canonicalHost(host);
    return this.#allow.some((entry) => entry.host === name && (entry.port === undefined || entry.port === port));
  }

  /** The refusal for `url` as far as it can be judged without DNS, or undefined. */
  checkUrl(url: URL, redirectedFrom?: string): string | undefined {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return `The server only connects to http:// and https:// addresses, not ${url.protocol} ones.`;
    const host = canonicalHost(url.hostname);
    const port = targetPort(url);
    if (this.allows(host, port)) return undefined;
    const kind = isIP(host) !== 0 ? blockedAddressKind(host) : blockedNameKind(host);
    return kind === undefined ? undefined : refusal(hostPort(host, port), kind, undefined, redirectedFrom);
  }

  /**
   * The address to connect to for `host:port`: the first it resolves to, after every one was found public (a name
   * with one private address among public ones is refused), or the name itself when it is allowed.
   */
  async connectAddress(host: string, port: number): Promise<string> {
    const name = canonicalHost(host);
    if (this.allows(name, port)) return name;
    if (isIP(name) !== 0) {
      const kind = blockedAddressKind(name);
      if (kind !== undefined) throw new OutboundRefusedError(refusal(hostPort(name, port), kind));
      return name;
    }
    const nameKind = blockedNameKind(name);
    if (nameKind !== undefined) throw new OutboundRefusedError(refusal(hostPort(name, port), nameKind));
    const addresses = await this.#resolve(name);
    if (addresses.length === 0) throw new Error(`${name} has no address.`);
    for (const { address } of addresses) {
      const kind = blockedAddressKind(address);
      if (kind !== undefined) throw new OutboundRefusedError(refusal(hostPort(name, port), kind, address));
    }
    return addresses[0]!.address;
  }
}

function refusal(target: string, kind: string, resolved?: string, redirectedFrom?: string): string {
  const via = redirectedFrom === undefined ? "" : ` (reached by a redirect from ${redirectedFrom})`;
  const what = resolved === undefined ? kind : `resolves to ${resolved}, ${kind}`;
  return `${target}${via} ${resolved === undefined ? "is " : ""}${what}; ${REMEDY}.`;
}

/** The refusal an error carries, the error itself or its `cause` (fetch wraps a connector's error). */
function refusalIn(error: unknown): OutboundRefusedError | undefined {
  if (error instanceof OutboundRefusedError) return error;
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof OutboundRefusedError ? cause : undefined;
}

export interface OutboundFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes the pooled connections. */
  close(): Promise<void>;
}

/**
 * Node's fetch held to `policy`: the URL is checked before anything is sent, the connection's address when it is made
 * (undici's connector, so the address checked is the address connected to), and each redirect is followed here, hop
 * by hop, through the same checks. A refusal rejects with an OutboundRefusedError whose message is one sentence.
 */
export function outboundFetch(options: OutboundOptions | OutboundPolicy = {}): OutboundFetch {
  const policy = options instanceof OutboundPolicy ? options : new OutboundPolicy(options);
  const connector = buildConnector({});
  const dispatcher = new Agent({
    connect: (opts, callback) => {
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      policy.connectAddress(opts.hostname, port).then(
        // The name stays the TLS server name (and the certificate's), the checked address is where it connects.
        (address) => connector({ ...opts, hostname: address }, callback),
        (error: Error) => callback(error, null),
      );
    },
  });

  const send = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let request = new Request(input, init);
    const mode = init.redirect ?? (input instanceof Request ? input.redirect : "follow");
    // Kept as bytes, so a 307/308 can send it again.
    let body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    let from: string | undefined;
    for (let hop = 0; ; hop++) {
      const url = new URL(request.url);
      const refused = policy.checkUrl(url, from);
      if (refused !== undefined) throw new OutboundRefusedError(refused);
      let response: Response;
      try {
        response = await fetch(url, {
          method: request.method,
          headers: request.headers,
          ...(body !== undefined && { body }),
          signal: request.signal,
          redirect: "manual",
          dispatcher,
        } as RequestInit);
      } catch (error) {
        throw refusalIn(error) ?? error;
      }
      const location = response.headers.get("location");
      if (mode === "manual" || !REDIRECT_STATUSES.has(response.status) || location === null) return response;
      void response.body?.cancel().catch(() => undefined);
      if (mode === "error") throw new TypeError(`${url.href} redirected, and this request does not follow redirects.`);
      if (hop >= MAX_REDIRECTS) throw new TypeError(`${url.href} redirected more than ${MAX_REDIRECTS} times.`);
      const next = new URL(location, url);
      const headers = new Headers(request.headers);
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      const toGet =
        (response.status === 303 && request.method !== "HEAD") ||
        ((response.status === 301 || response.status === 302) && request.method === "POST");
      if (toGet) {
        body = undefined;
        for (const name of ["content-type", "content-length", "content-encoding"]) headers.delete(name);
      }
      from = hostPort(canonicalHost(url.hostname), targetPort(url));
      request = new Request(next, {
        method: toGet ? "GET" : request.method,
        headers,
        ...(body !== undefined && { body }),
        signal: request.signal,
      });
    }
  };
  return Object.assign(send, { close: () => dispatcher.close() });
}
