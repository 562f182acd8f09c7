// Tests for the relay's target policy on private targets: loopback, private and named hosts are refused unless their
// host:port is listed, checked on the address connected to and on every redirect.
import { describe, expect, it } from "vitest";
import type { Reply } from "./send-request.ts";
import { type ResolveHost, type StartProxyOptions } from "./server.ts";
import {
  errorOf,
  forwardUrl,
  logLines,
  ORIGIN,
  routeTo,
  send,
  startUpstream,
  type Upstream,
  useProxy,
  useProxyHarness,
} from "./upstream-harness.ts";

useProxyHarness();
/** The upstream of the running test (the harness closes it). */
let upstream: Upstream;

describe("private targets", () => {
  /** The refusal when no FAWN_PROXY_TARGETS list is set, as the app shows it after "Fawn's proxy refused ...: ". */
  const refusal = (shown: string, details: string, entry: string): string =>
    `Fawn's proxy does not forward to ${shown} (${details}); to allow it, ` +
    `set FAWN_PROXY_TARGETS="*,${entry}" (the "*" keeps every public host allowed).`;

  /** Forwards to `target` through a proxy with no target list, then with `entry` listed; returns both replies. */
  async function refusedThenAllowed(
    target: string,
    entry: string,
    options: Partial<StartProxyOptions> = {},
  ): Promise<{ refused: Reply; allowed: Reply }> {
    await useProxy({ ...options, allowedTargets: [] });
    const refused = await send(forwardUrl(target), { headers: { origin: ORIGIN, authorization: "Bearer sk-secret" } });
    await useProxy({ ...options, allowedTargets: [entry] });
    const allowed = await send(forwardUrl(target), { headers: { origin: ORIGIN } });
    return { refused, allowed };
  }

  function expectRefusal(reply: Reply, message: string): void {
    expect(reply.status).toBe(403);
    expect(reply.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(errorOf(reply)).toEqual({ message, type: "proxy_error" });
  }

  it("refuses 127.0.0.1 unless its host:port is listed", async () => {
    upstream = await startUpstream((_req, res) => res.end("local"));
    const entry = `127.0.0.1:${upstream.port}`;
    const { refused, allowed } = await refusedThenAllowed(`${upstream.base}/v1/models`, entry);
    expectRefusal(refused, refusal("127.0.0.1", "a loopback address", entry));
    expect(allowed.text).toBe("local");
    expect(upstream.seen).toHaveLength(1);
    expect(logLines.join("\n")).toContain("403 (target refused)");
  });

  it("refuses [::1] unless its host:port is listed", async () => {
    upstream = await startUpstream((_req, res) => res.end("local v6"), true, "::1");
    const entry = `[::1]:${upstream.port}`;
    const { refused, allowed } = await refusedThenAllowed(`${upstream.base}/v1/models`, entry);
    expectRefusal(refused, refusal("[::1]", "a loopback address", entry));
    expect(allowed.text).toBe("local v6");
    expect(upstream.seen).toHaveLength(1);
  });

  it.each([
    ["10.0.0.1", "a private address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["[::ffff:10.0.0.1]", "a private address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["0.0.0.0", "an unspecified address"],
    ["[fd00:ec2::254]", "a cloud metadata address"],
  ])("refuses %s unless its host:port is listed", async (host, kind) => {
    upstream = await startUpstream((req, res) => res.end(`reached as ${req.headers.host}`));
    const target = `http://${host}:8080/latest/meta-data/`;
    const shown = new URL(target).hostname;
    const entry = `${shown}:8080`;
    // The listed target is connected to the local upstream: the policy lets it through, no real network is touched.
    const { refused, allowed } = await refusedThenAllowed(target, entry, { httpAgent: routeTo(upstream.port) });
    expectRefusal(refused, refusal(shown, kind, entry));
    expect(allowed.text).toBe(`reached as ${entry}`);
    expect(upstream.seen).toHaveLength(1);
  });

  it("refuses a name that resolves to 127.0.0.1, checking the address it connects to", async () => {
    upstream = await startUpstream((req, res) => res.end(`reached as ${req.headers.host}`));
    const lookups: string[] = [];
    const resolveHost: ResolveHost = async (hostname) => {
      lookups.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const entry = `models.rebind.test:${upstream.port}`;
    const target = `http://models.rebind.test:${upstream.port}/v1/models`;
    const { refused, allowed } = await refusedThenAllowed(target, entry, { resolveHost });
    expectRefusal(refused, refusal("models.rebind.test", "127.0.0.1, a loopback address", entry));
    expect(allowed.text).toBe(`reached as ${entry}`);
    expect(upstream.seen).toHaveLength(1);
    expect(lookups).toEqual(["models.rebind.test", "models.rebind.test"]);
  });

  it("refuses a name when any of its addresses is private, and localhost by name", async () => {
    const resolveHost: ResolveHost = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "::ffff:192.168.1.10", family: 6 },
    ];
    await useProxy({ resolveHost, allowedTargets: [] });
    const mixed = await send(forwardUrl("https://mixed.example/x"), { headers: { origin: ORIGIN } });
    expectRefusal(mixed, refusal("mixed.example", "::ffff:192.168.1.10, a private address", "mixed.example:443"));

    const local = await send(forwardUrl("http://localhost:11434/api/tags"), { headers: { origin: ORIGIN } });
    expectRefusal(local, refusal("localhost", "a loopback name", "localhost:11434"));
    const metadata = await send(forwardUrl("http://metadata.google.internal./computeMetadata/v1/"), {
      headers: { origin: ORIGIN },
    });
    expectRefusal(
      metadata,
      refusal("metadata.google.internal", "a cloud metadata address", "metadata.google.internal:80"),
    );
  });

  it("refuses a redirect to 127.0.0.1 unless that host:port is listed", async () => {
    const secret = await startUpstream((_req, res) => res.end("secret"));
    upstream = await startUpstream((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${secret.port}/admin` });
      res.end();
    });
    try {
      const from = `127.0.0.1:${upstream.port}`;
      const entry = `127.0.0.1:${secret.port}`;
      await useProxy({ allowedTargets: [from] });
      const refused = await send(forwardUrl(`${upstream.base}/start`), { headers: { origin: ORIGIN } });
      expectRefusal(
        refused,
        `Fawn's proxy does not forward to 127.0.0.1 (a loopback address, reached by a redirect from ${from}); ` +
          `to allow it, add "${entry}" to FAWN_PROXY_TARGETS.`,
      );
      expect(secret.seen).toHaveLength(0);

      await useProxy({ allowedTargets: [from, entry] });
      const allowed = await send(forwardUrl(`${upstream.base}/start`), { headers: { origin: ORIGIN } });
      expect(allowed.text).toBe("secret");
      expect(secret.seen.map((seen) => seen.url)).toEqual(["/admin"]);
    } finally {
      await secret.close();
    }
  });
});
