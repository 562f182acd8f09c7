// Where Fawn's proxy may connect: FAWN_PROXY_TARGETS entries, and the loopback/private/metadata addresses it refuses.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** The environment variable named in every target refusal. */
export const TARGETS_SETTING = "FAWN_PROXY_TARGETS";

/** One address a host name resolved to, as `dns.lookup(name, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it may connect to (injectable, so tests can play a rebinding DNS). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Cloud instance-metadata services: all of them sit in refused ranges anyway; these get a clearer name. */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254"]);
const METADATA_NAMES = new Set([
  "metadata.google.internal",
  "metadata.goog",
  "metadata",
  "instance-data",
  "instance-data.ec2.internal",
]);
const METADATA_KIND = "a cloud metadata address";

/** ipaddr.js range names worth their own words; every other non-unicast range is "a reserved address". */
const RANGE_KINDS: Readonly<Record<string, string>> = {
  loopback: "a loopback address",
  private: "a private address",
  uniqueLocal: "a private (unique-local) address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a shared (CGNAT) address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
};

/** A URL's hostname as entries and checks compare it: lower case, no IPv6 brackets, no trailing dot. */
export function canonicalHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

/** `host:port`, with IPv6 hosts in brackets, as an entry of FAWN_PROXY_TARGETS is written. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The port a request to `url` connects to. */
export function targetPort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

function ipv4FromParts(high: number | undefined, low: number | undefined): ipaddr.IPv4 {
  const h = high ?? 0;
  const l = low ?? 0;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/** IANA's global unicast space: the only IPv6 block whose addresses can be public (RFC 4291, IANA's allocations). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
/** IPv4-compatible IPv6 (RFC 4291 §2.5.5.1, deprecated): some stacks still route `::127.0.0.1` to loopback. */
const IPV4_COMPATIBLE_V6 = ipaddr.parseCIDR("::/96");
const IPV4_COMPATIBLE_KIND = "a deprecated IPv4-compatible IPv6 address";

/**
 * `address` as the URL parser writes it (IPv6 in hex, `::127.0.0.1` as `::7f00:1`). ipaddr.js reads the dotted
 * `::a.b.c.d` as `::ffff:a.b.c.d`, and Node's DNS results write IPv4-compatible addresses that way.
 */
function canonicalIp(address: string): string {
  return address.includes(":") ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
}

/**
 * Why the proxy refuses to connect to the IP `address` ("a loopback address", ...), or undefined for a public unicast
 * address. An IPv4 address is public unless one of ipaddr.js's special ranges (IANA's IPv4 special-purpose registry,
 * multicast, broadcast) holds it. An IPv6 address is public only inside global unicast `2000::/3` and outside every
 * special range there (Teredo, documentation, AS112, ...). IPv6 forms that carry an IPv4 address (mapped, SIIT,
 * NAT64 /96, 6to4) are judged by that IPv4 address, so `::ffff:127.0.0.1` is loopback while DNS64's
 * `64:ff9b::8.8.8.8` stays public; the deprecated IPv4-compatible `::/96` is refused whatever it carries.
 */
export function blockedAddressKind(address: string): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(canonicalIp(address.replace(/%.*$/, "")));
  } catch {
    return "an address Fawn's proxy cannot read";
  }
  if (METADATA_ADDRESSES.has(ip.toString())) return METADATA_KIND;
  if (ip.kind() === "ipv4") {
    const range = ip.range();
    return range === "unicast" ? undefined : (RANGE_KINDS[range] ?? "a reserved address");
  }
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const parts = v6.parts;
  if (range === "ipv4Mapped" || range === "rfc6145")
    return blockedAddressKind(ipv4FromParts(parts[6], parts[7]).toString());
  // 64:ff9b::/96 embeds the IPv4 address in its last 32 bits; the local-use 64:ff9b:1::/48 is a private translator.
  if (range === "rfc6052" && parts[2] === 0) return blockedAddressKind(ipv4FromParts(parts[6], parts[7]).toString());
  if (range === "6to4") return blockedAddressKind(ipv4FromParts(parts[1], parts[2]).toString());
  if (range !== "unicast") return RANGE_KINDS[range] ?? "a reserved address";
  // ipaddr.js calls every address outside its named ranges "unicast", ::/96 and unassigned blocks included.
  if (v6.match(IPV4_COMPATIBLE_V6)) return IPV4_COMPATIBLE_KIND;
  return v6.match(GLOBAL_UNICAST_V6) ? undefined : "a reserved address";
}

/** Why the proxy refuses a host NAME before resolving it (localhost, metadata services), or undefined. */
export function blockedNameKind(hostname: string): string | undefined {
  const host = canonicalHost(hostname);
  if (host === "localhost" || host.endsWith(".localhost")) return "a loopback name";
  if (METADATA_NAMES.has(host)) return METADATA_KIND;
  return undefined;
}

interface TargetEntry {
  host: string;
  /** Undefined: any port (a bare host never unlocks a refused address, only `host:port` does). */
  port?: number;
}

/** Splits `host`, `host:port`, `[v6]`, `[v6]:port` or a bare IPv6 literal (no port) into host and port text. */
function splitEntry(text: string): { host: string; port?: string } | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null)
    return { host: `[${bracketed[1]}]`, ...(bracketed[2] !== undefined && { port: bracketed[2] }) };
  if (text.split(":").length > 2) return { host: `[${text}]` };
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  if (plain === null || plain[1] === undefined) return undefined;
  return { host: plain[1], ...(plain[2] !== undefined && { port: plain[2] }) };
}

function parseEntry(raw: string): TargetEntry {
  const invalid = new Error(`${TARGETS_SETTING} entry "${raw}" is not "*", a host name or host:port.`);
  const parts = splitEntry(raw.trim());
  if (parts === undefined) throw invalid;
  let host: string;
  try {
    // The URL parser writes IP literals the way target URLs will carry them (e.g. "::ffff:7f00:1", "127.0.0.1").
    host = canonicalHost(new URL(`http://${parts.host}/`).hostname);
  } catch {
    throw invalid;
  }
  if (host === "") throw invalid;
  if (parts.port === undefined) return { host };
  const port = Number(parts.port);
  if (port < 1 || port > 65535) throw invalid;
  return { host, port };
}

/** What checking one target decided before any connection: refused with a sentence, or allowed. */
export type TargetCheck =
  | { ok: true; /** Listed as `host:port`: no address check, at connect time either. */ explicit: boolean }
  | { ok: false; message: string };

/**
 * FAWN_PROXY_TARGETS as a policy. Entries are `*` (any public host), a host name (any port) or `host:port`. An empty
 * list means `*`. A list without `*` narrows forwarding to its entries. Loopback, private, link-local, CGNAT,
 * unique-local, reserved and cloud-metadata targets are refused, whether named directly or reached through a name that
 * resolves there, unless their exact `host:port` is listed.
 */
export class TargetPolicy {
  private readonly entries: readonly TargetEntry[];
  private readonly anyPublicHost: boolean;
  private readonly listEmpty: boolean;

  constructor(list: readonly string[] = []) {
    const items = list.map((item) => item.trim()).filter((item) => item !== "");
    this.listEmpty = items.length === 0;
    this.anyPublicHost = this.listEmpty || items.includes("*");
    this.entries = items.filter((item) => item !== "*").map(parseEntry);
  }

  /** Checks `url` as far as can be done without DNS. `redirectedFrom` (a host:port) says a redirect led here. */
  check(url: URL, redirectedFrom?: string): TargetCheck {
    const host = canonicalHost(url.hostname);
    const port = targetPort(url);
    const explicit = this.entries.some((entry) => entry.host === host && entry.port === port);
    const listed = explicit || this.entries.some((entry) => entry.host === host && entry.port === undefined);
    if (explicit) return { ok: true, explicit };
    // A refused address names its exact host:port remedy, even when the list would not have allowed the host anyway.
    const kind = isIP(host) !== 0 ? blockedAddressKind(host) : blockedNameKind(host);
    if (kind !== undefined) return { ok: false, message: this.refusal(host, port, kind, undefined, redirectedFrom) };
    if (!this.anyPublicHost && !listed) {
      const via = redirectedFrom === undefined ? "" : ` (reached by a redirect from ${redirectedFrom})`;
      return {
        ok: false,
        message: `Target host ${host} is not allowed${via}. Add it to ${TARGETS_SETTING} (comma-separated).`,
      };
    }
    return { ok: true, explicit };
  }

  /** The refusal for a target NAME whose resolved addresses include a refused one, or undefined when all are public. */
  checkResolved(
    hostname: string,
    port: number,
    addresses: readonly ResolvedAddress[],
    redirectedFrom?: string,
  ): string | undefined {
    for (const { address } of addresses) {
      const kind = blockedAddressKind(address);
      if (kind !== undefined) return this.refusal(canonicalHost(hostname), port, kind, address, redirectedFrom);
    }
    return undefined;
  }

  /**
   * One sentence naming the setting and the exact entry that allows the target. With no list yet, it proposes
   * `*,host:port`, since a list without `*` would stop every other host.
   */
  private refusal(host: string, port: number, kind: string, resolved?: string, redirectedFrom?: string): string {
    const entry = hostPort(host, port);
    const details = [resolved, kind, redirectedFrom && `reached by a redirect from ${redirectedFrom}`].filter(Boolean);
    const remedy = this.listEmpty
      ? `set ${TARGETS_SETTING}="*,${entry}" (the "*" keeps every public host allowed)`
      : `add "${entry}" to ${TARGETS_SETTING}`;
    return `Fawn's proxy does not forward to ${host.includes(":") ? `[${host}]` : host} (${details.join(", ")}); to allow it, ${remedy}.`;
  }

  /** For the start-up line: what the list lets through. */
  describe(): string {
    const listed = this.entries.map((entry) =>
      entry.port === undefined ? entry.host : hostPort(entry.host, entry.port),
    );
    return [...(this.anyPublicHost ? ["any public host"] : []), ...listed].join(", ");
  }
}
