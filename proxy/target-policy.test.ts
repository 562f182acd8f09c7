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
