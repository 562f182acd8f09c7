// Tests for the proxy's target policy: which addresses and names it refuses, and how FAWN_PROXY_TARGETS entries read.
import { describe, expect, it } from "vitest";
import { blockedAddressKind, blockedNameKind, TargetPolicy } from "./target-policy.ts";

describe("blockedAddressKind", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.255.0.9", "a loopback address"],
    ["::1", "a loopback address"],
    ["10.0.0.1", "a private address"],
    ["172.16.5.4", "a private address"],
    ["192.168.1.10", "a private address"],
    ["169.254.1.1", "a link-local address"],
    ["fe80::1", "a link-local address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["fc00::1", "a private (unique-local) address"],
    ["fd12:3456::1", "a private (unique-local) address"],
    ["0.0.0.0", "an unspecified address"],
    ["::", "an unspecified address"],
    ["255.255.255.255", "a broadcast address"],
    ["224.0.0.1", "a multicast address"],
    ["192.0.2.1", "a reserved address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["100.100.100.200", "a cloud metadata address"],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:7f00:1", "a loopback address"],
    ["::ffff:a9fe:a9fe", "a cloud metadata address"],
    ["64:ff9b::10.0.0.1", "a private address"],
    ["2002:0a00:0001::1", "a private address"],
    ["64:ff9b:1::1", "a reserved address"],
    ["fe80::1%eth0", "a link-local address"],
  ])("refuses %s as %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "64:ff9b::8.8.8.8",
    "::ffff:8.8.8.8",
    "2002:0808:0808::1",
  ])("allows the public address %s", (address) => {
    expect(blockedAddressKind(address)).toBeUndefined();
  });
});

describe("blockedNameKind", () => {
  it("refuses localhost and metadata names however they are written", () => {
    expect(blockedNameKind("localhost")).toBe("a loopback name");
    expect(blockedNameKind("LOCALHOST.")).toBe("a loopback name");
    expect(blockedNameKind("app.localhost")).toBe("a loopback name");
    expect(blockedNameKind("metadata.google.internal.")).toBe("a cloud metadata address");
    expect(blockedNameKind("api.deepseek.com")).toBeUndefined();
    expect(blockedNameKind("localhost.example.com")).toBeUndefined();
  });
});

describe("TargetPolicy", () => {
  const url = (text: string): URL => new URL(text);

  it("allows any public host with no list, and refuses private ones with the exact setting", () => {
    const policy = new TargetPolicy();
    expect(policy.check(url("https://api.deepseek.com/v1"))).toEqual({ ok: true, explicit: false });
    expect(policy.check(url("http://192.168.1.10:11434/v1"))).toEqual({
      ok: false,
      message:
        'Fawn\'s proxy does not forward to 192.168.1.10 (a private address); to allow it, set FAWN_PROXY_TARGETS="*,192.168.1.10:11434" ' +
        '(the "*" keeps every public host allowed).',
    });
  });

  it("lets an exact host:port through, including IPv6 and IPv4-mapped forms", () => {
    const policy = new TargetPolicy(["*", "192.168.1.10:11434", "[::1]:8080", "::ffff:127.0.0.1"]);
    expect(policy.check(url("http://192.168.1.10:11434/v1"))).toEqual({ ok: true, explicit: true });
    expect(policy.check(url("http://[::1]:8080/"))).toEqual({ ok: true, explicit: true });
    expect(policy.check(url("http://192.168.1.10:11435/v1"))).toMatchObject({ ok: false });
    // A bare host (any port) never unlocks a refused address.
    expect(policy.check(url("http://[::ffff:127.0.0.1]/"))).toEqual({
      ok: false,
      message:
        'Fawn\'s proxy does not forward to [::ffff:7f00:1] (a loopback address); to allow it, add "[::ffff:7f00:1]:80" to FAWN_PROXY_TARGETS.',
    });
    expect(policy.check(url("https://api.deepseek.com/"))).toEqual({ ok: true, explicit: false });
  });

  it("narrows to its entries without *, matching a bare host on any port and host:port on that port only", () => {
    const policy = new TargetPolicy(["API.deepseek.com", "mcp.example.com:8443"]);
    expect(policy.check(url("https://api.deepseek.com:444/"))).toEqual({ ok: true, explicit: false });
    expect(policy.check(url("https://mcp.example.com:8443/mcp"))).toEqual({ ok: true, explicit: true });
    expect(policy.check(url("https://mcp.example.com/mcp"))).toMatchObject({ ok: false });
    expect(policy.check(url("https://api.openai.com/"), "api.deepseek.com")).toEqual({
      ok: false,
      message:
        "Target host api.openai.com is not allowed (reached by a redirect from api.deepseek.com). Add it to FAWN_PROXY_TARGETS (comma-separated).",
    });
  });

  it("judges resolved addresses of a name, naming the address found", () => {
    const policy = new TargetPolicy(["*"]);
    expect(policy.checkResolved("ollama.lan", 11434, [{ address: "203.0.114.9", family: 4 }])).toBeUndefined();
    expect(policy.checkResolved("ollama.lan", 11434, [{ address: "192.168.1.10", family: 4 }])).toBe(
      'Fawn\'s proxy does not forward to ollama.lan (192.168.1.10, a private address); to allow it, add "ollama.lan:11434" to FAWN_PROXY_TARGETS.',
    );
  });

  it("rejects entries it cannot read, naming the setting", () => {
    for (const entry of ["http://x.example/", "x.example:0", "x.example:70000", "[::1", "a b"]) {
      expect(() => new TargetPolicy([entry]), entry).toThrow(/FAWN_PROXY_TARGETS entry/);
    }
  });

  it("describes what it lets through", () => {
    expect(new TargetPolicy().describe()).toBe("any public host");
    expect(new TargetPolicy(["*", "192.168.1.10:11434", "::1"]).describe()).toBe(
      "any public host, 192.168.1.10:11434, ::1",
    );
  });
});

/**
 * Every entry of IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its updates, as of 2025), plus
 * multicast and the forms of IPv6 that carry an IPv4 address. For each: its first and last address are refused, and
 * the public addresses just outside it (where the neighbour is not itself special) are allowed.
 */
const SPECIAL_PURPOSE: readonly { range: string; refused: readonly string[]; publicNeighbours: readonly string[] }[] = [
  // IPv4 (iana-ipv4-special-registry)
  { range: "0.0.0.0/8 this network", refused: ["0.0.0.0", "0.255.255.255"], publicNeighbours: ["1.0.0.0"] },
  {
    range: "10.0.0.0/8 private",
    refused: ["10.0.0.0", "10.255.255.255"],
    publicNeighbours: ["9.255.255.255", "11.0.0.0"],
  },
  {
    range: "100.64.0.0/10 shared address space",
    refused: ["100.64.0.0", "100.127.255.255"],
    publicNeighbours: ["100.63.255.255", "100.128.0.0"],
  },
  {
    range: "127.0.0.0/8 loopback",
    refused: ["127.0.0.0", "127.255.255.255"],
    publicNeighbours: ["126.255.255.255", "128.0.0.0"],
  },
  {
    range: "169.254.0.0/16 link-local",
    refused: ["169.254.0.0", "169.254.255.255"],
    publicNeighbours: ["169.253.255.255", "169.255.0.0"],
  },
  {
    range: "172.16.0.0/12 private",
    refused: ["172.16.0.0", "172.31.255.255"],
    publicNeighbours: ["172.15.255.255", "172.32.0.0"],
  },
  {
    range:
      "192.0.0.0/24 IETF protocol assignments (with /29 IPv4-only, .8 dummy, .9 PCP, .10 TURN, .170/.171 NAT64 discovery)",
    refused: [
      "192.0.0.0",
      "192.0.0.7",
      "192.0.0.8",
      "192.0.0.9",
      "192.0.0.10",
      "192.0.0.170",
      "192.0.0.171",
      "192.0.0.255",
    ],
    publicNeighbours: ["191.255.255.255", "192.0.1.0"],
  },
  {
    range: "192.0.2.0/24 TEST-NET-1",
    refused: ["192.0.2.0", "192.0.2.255"],
    publicNeighbours: ["192.0.1.255", "192.0.3.0"],
  },
  {
    range: "192.31.196.0/24 AS112-v4",
    refused: ["192.31.196.0", "192.31.196.255"],
    publicNeighbours: ["192.31.195.255", "192.31.197.0"],
  },
  {
    range: "192.52.193.0/24 AMT",
    refused: ["192.52.193.0", "192.52.193.255"],
    publicNeighbours: ["192.52.192.255", "192.52.194.0"],
  },
  {
    range: "192.88.99.0/24 deprecated 6to4 relay anycast",
    refused: ["192.88.99.0", "192.88.99.2", "192.88.99.255"],
    publicNeighbours: ["192.88.98.255", "192.88.100.0"],
  },
  {
    range: "192.168.0.0/16 private",
    refused: ["192.168.0.0", "192.168.255.255"],
    publicNeighbours: ["192.167.255.255", "192.169.0.0"],
  },
  {
    range: "192.175.48.0/24 direct delegation AS112",
    refused: ["192.175.48.0", "192.175.48.255"],
    publicNeighbours: ["192.175.47.255", "192.175.49.0"],
  },
  {
    range: "198.18.0.0/15 benchmarking",
    refused: ["198.18.0.0", "198.19.255.255"],
    publicNeighbours: ["198.17.255.255", "198.20.0.0"],
  },
  {
    range: "198.51.100.0/24 TEST-NET-2",
    refused: ["198.51.100.0", "198.51.100.255"],
    publicNeighbours: ["198.51.99.255", "198.51.101.0"],
  },
  {
    range: "203.0.113.0/24 TEST-NET-3",
    refused: ["203.0.113.0", "203.0.113.255"],
    publicNeighbours: ["203.0.112.255", "203.0.114.0"],
  },
  { range: "224.0.0.0/4 multicast", refused: ["224.0.0.0", "239.255.255.255"], publicNeighbours: ["223.255.255.255"] },
  { range: "240.0.0.0/4 reserved", refused: ["240.0.0.0", "255.255.255.254"], publicNeighbours: [] },
  { range: "255.255.255.255/32 limited broadcast", refused: ["255.255.255.255"], publicNeighbours: [] },
  // IPv6 (iana-ipv6-special-registry)
  { range: "::1/128 loopback", refused: ["::1"], publicNeighbours: [] },
  { range: "::/128 unspecified", refused: ["::"], publicNeighbours: [] },
  {
    range: "::/96 IPv4-compatible (deprecated), whatever IPv4 it holds",
    refused: ["::0.0.0.2", "::7f00:1", "::127.0.0.1", "::a00:1", "::c0a8:101", "::8.8.8.8", "::ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "::ffff:0:0/96 IPv4-mapped, judged by its IPv4",
    refused: ["::ffff:0.0.0.0", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:255.255.255.255"],
    publicNeighbours: ["::ffff:8.8.8.8"],
  },
  {
    range: "64:ff9b::/96 NAT64 well-known prefix, judged by its IPv4",
    refused: ["64:ff9b::", "64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::ffff:ffff"],
    publicNeighbours: ["64:ff9b::8.8.8.8"],
  },
  {
    range: "64:ff9b:1::/48 local-use NAT64, whatever IPv4 it holds",
    refused: ["64:ff9b:1::", "64:ff9b:1::808:808", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  { range: "100::/64 discard-only", refused: ["100::", "100::ffff:ffff:ffff:ffff"], publicNeighbours: [] },
  {
    range: "100:0:0:1::/64 dummy prefix",
    refused: ["100:0:0:1::", "100::1:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "2001::/23 IETF protocol assignments",
    refused: ["2001::", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: ["2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::"],
  },
  {
    range: "2001::/32 Teredo, whatever IPv4 it holds",
    refused: [
      "2001::",
      "2001:0:ffff:ffff:ffff:ffff:ffff:ffff",
      "2001:0:a00:1::f5ff:fffe",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    ],
    publicNeighbours: [],
  },
  { range: "2001:1::1/128 PCP anycast", refused: ["2001:1::1"], publicNeighbours: [] },
  { range: "2001:1::2/128 TURN anycast", refused: ["2001:1::2"], publicNeighbours: [] },
  { range: "2001:1::3/128 DNS-SD SRP anycast", refused: ["2001:1::3"], publicNeighbours: [] },
  {
    range: "2001:2::/48 benchmarking",
    refused: ["2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  { range: "2001:3::/32 AMT", refused: ["2001:3::", "2001:3:ffff:ffff:ffff:ffff:ffff:ffff"], publicNeighbours: [] },
  {
    range: "2001:4:112::/48 AS112-v6",
    refused: ["2001:4:112::", "2001:4:112:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "2001:10::/28 deprecated ORCHID",
    refused: ["2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "2001:20::/28 ORCHIDv2",
    refused: ["2001:20::", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "2001:30::/28 drone remote ID",
    refused: ["2001:30::", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "2001:db8::/32 documentation",
    refused: ["2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
  },
  {
    range: "2002::/16 6to4, judged by its IPv4",
    refused: ["2002::", "2002:7f00:1::", "2002:c0a8:101::1", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: ["2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2002:808:808::1", "2003::"],
  },
  {
    range: "2620:4f:8000::/48 direct delegation AS112",
    refused: ["2620:4f:8000::", "2620:4f:8000:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: ["2620:4f:7fff:ffff:ffff:ffff:ffff:ffff", "2620:4f:8001::"],
  },
  {
    range: "3fff::/20 documentation",
    refused: ["3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: ["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"],
  },
  {
    range: "5f00::/16 segment routing SIDs",
    refused: ["5f00::", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "fc00::/7 unique-local",
    refused: ["fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "fe80::/10 link-local",
    refused: ["fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  {
    range: "fec0::/10 deprecated site-local",
    refused: ["fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
    publicNeighbours: [],
  },
  { range: "ff00::/8 multicast", refused: ["ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"], publicNeighbours: [] },
  {
    range: "outside global unicast 2000::/3 (unassigned by IANA)",
    refused: [
      "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "4000::",
      "5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "5f01::",
      "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ],
    publicNeighbours: ["2000::", "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
  },
];

describe("the IANA special-purpose registries", () => {
  it.each(SPECIAL_PURPOSE.flatMap(({ range, refused }) => refused.map((address) => [address, range])))(
    "refuses %s (%s)",
    (address) => {
      expect(blockedAddressKind(address)).toBeDefined();
      // As a URL names it, too: the URL parser's canonical form must not slip through.
      const host = address.includes(":") ? `[${address}]` : address;
      expect(new TargetPolicy().check(new URL(`http://${host}:8080/`))).toMatchObject({ ok: false });
    },
  );

  it.each(
    SPECIAL_PURPOSE.flatMap(({ range, publicNeighbours }) => publicNeighbours.map((address) => [address, range])),
  )("allows %s, just outside %s", (address) => {
    expect(blockedAddressKind(address)).toBeUndefined();
  });

  it("names IPv4-compatible IPv6 addresses for what they are", () => {
    expect(blockedAddressKind("::7f00:1")).toBe("a deprecated IPv4-compatible IPv6 address");
    expect(new TargetPolicy().check(new URL("http://[::127.0.0.1]:11434/"))).toEqual({
      ok: false,
      message:
        'Fawn\'s proxy does not forward to [::7f00:1] (a deprecated IPv4-compatible IPv6 address); to allow it, set FAWN_PROXY_TARGETS="*,[::7f00:1]:11434" (the "*" keeps every public host allowed).',
    });
  });
});
