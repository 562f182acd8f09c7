// The server's guarded fetch (server/outbound.ts): private, loopback and metadata targets refused by URL, by the
// address a name resolves to at connect time, and after a redirect; allowed hosts pass.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolveHost } from "../proxy/target-policy.ts";
import { createChatModel, describeModelError, isRetryableModelError } from "../src/models/index.ts";
import { resolveConfig } from "./config.ts";
import { OutboundPolicy, OutboundRefusedError, outboundFetch, parseAllowEntry } from "./outbound.ts";

const REMEDY = "the server's admin can allow it in fawn-server.json's outbound.allow.";

/** A DNS that answers from a table (names not in it do not exist). */
const dns =
  (table: Record<string, string>): ResolveHost =>
  async (name) => {
    const address = table[name];
    if (address === undefined) throw new Error(`getaddrinfo ENOTFOUND ${name}`);
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundRefusedError);
    return (error as Error).message;
  }
  throw new Error("It was not refused.");
}

describe("OutboundPolicy.checkUrl", () => {
  const policy = new OutboundPolicy();
  const check = (url: string) => policy.checkUrl(new URL(url));

  it("refuses the cloud metadata address, localhost, private ranges and IPv6 loopback in its forms", () => {
    expect(check("http://169.254.169.254/latest/meta-data/")).toBe(
      `169.254.169.254:80 is a cloud metadata address; ${REMEDY}`,
    );
    expect(check("http://metadata.google.internal/")).toContain("a cloud metadata address");
    expect(check("http://localhost:5432/")).toBe(`localhost:5432 is a loopback name; ${REMEDY}`);
    expect(check("http://127.0.0.1:8080/")).toBe(`127.0.0.1:8080 is a loopback address; ${REMEDY}`);
    expect(check("https://10.1.2.3/")).toBe(`10.1.2.3:443 is a private address; ${REMEDY}`);
    expect(check("http://192.168.0.10/")).toContain("a private address");
    expect(check("http://[::1]:2024/")).toBe(`[::1]:2024 is a loopback address; ${REMEDY}`);
    expect(check("http://[::ffff:127.0.0.1]/")).toContain("a loopback address");
    expect(check("http://[::ffff:a9fe:a9fe]/")).toContain("a cloud metadata address");
    expect(check("http://[fd00::1]/")).toContain("unique-local");
    expect(check("http://2130706433/")).toContain("a loopback address"); // 127.0.0.1 as one number
    expect(check("file:///etc/passwd")).toMatch(/only connects to http/);
  });

  it("lets public hosts through, and allowed hosts (any port, or the exact host:port)", () => {
    expect(check("https://example.com/")).toBeUndefined();
    expect(check("http://93.184.216.34/")).toBeUndefined();
    const allowing = new OutboundPolicy({ allow: ["127.0.0.1:11434", "ollama", "[::1]:8080"] });
    expect(allowing.checkUrl(new URL("http://127.0.0.1:11434/v1"))).toBeUndefined();
    expect(allowing.checkUrl(new URL("http://127.0.0.1:11435/v1"))).toContain("a loopback address");
    expect(allowing.checkUrl(new URL("http://ollama:1234/"))).toBeUndefined();
    expect(allowing.checkUrl(new URL("http://[::1]:8080/"))).toBeUndefined();
  });

  it("reads allow entries, and refuses what is not one", () => {
    expect(parseAllowEntry("Example.COM:8080")).toEqual({ host: "example.com", port: 8080 });
    expect(parseAllowEntry("10.0.0.7")).toEqual({ host: "10.0.0.7" });
    expect(parseAllowEntry("::1")).toEqual({ host: "::1" });
    expect(() => parseAllowEntry("http://x/")).toThrow('"http://x/" is not a host name or host:port.');
    expect(() => parseAllowEntry("x:70000")).toThrow();
  });
});

describe("OutboundPolicy.connectAddress", () => {
  it("refuses a name that resolves to a private address, naming the address", async () => {
    const policy = new OutboundPolicy({ resolve: dns({ "intranet.example": "10.0.0.5", "good.example": "8.8.8.8" }) });
    expect(await refusalOf(policy.connectAddress("intranet.example", 80))).toBe(
      `intranet.example:80 resolves to 10.0.0.5, a private address; ${REMEDY}`,
    );
    expect(await policy.connectAddress("good.example", 443)).toBe("8.8.8.8");
  });
});

describe("outboundFetch", () => {
  let hits: string[];
  let target: Server;
  let redirector: Server;
  let targetPort: number;
  let redirectorPort: number;

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    hits = [];
    target = createServer((request, response) => {
      hits.push(request.url ?? "");
      response.end(`secret ${request.method ?? ""}`);
    });
    redirector = createServer((request, response) => {
      const to = request.url === "/away" ? `http://127.0.0.1:${targetPort}/secret` : "/final";
      if (request.url === "/final") return void response.end("final");
      response.writeHead(302, { location: to }).end();
    });
    targetPort = await listen(target);
    redirectorPort = await listen(redirector);
  });
  afterAll(async () => {
    await Promise.all([target, redirector].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("refuses a loopback target without connecting", async () => {
    const guarded = outboundFetch();
    const message = await refusalOf(guarded(`http://127.0.0.1:${targetPort}/secret`));
    expect(message).toBe(`127.0.0.1:${targetPort} is a loopback address; ${REMEDY}`);
    expect(hits).toEqual([]);
    await guarded.close();
  });

  it("refuses at connect time a public-looking name that resolves to loopback (DNS rebinding)", async () => {
    const guarded = outboundFetch({ resolve: dns({ "rebind.example": "127.0.0.1" }) });
    const message = await refusalOf(guarded(`http://rebind.example:${targetPort}/secret`));
    expect(message).toBe(`rebind.example:${targetPort} resolves to 127.0.0.1, a loopback address; ${REMEDY}`);
    expect(hits).toEqual([]);
    await guarded.close();
  });

  it("checks each redirect hop: an allowed host redirecting to a private one is refused there", async () => {
    const guarded = outboundFetch({ allow: [`127.0.0.1:${redirectorPort}`] });
    const message = await refusalOf(guarded(`http://127.0.0.1:${redirectorPort}/away`));
    expect(message).toBe(
      `127.0.0.1:${targetPort} (reached by a redirect from 127.0.0.1:${redirectorPort}) is a loopback address; ${REMEDY}`,
    );
    expect(hits).toEqual([]);
    // A redirect within the allowed host is followed.
    const response = await guarded(`http://127.0.0.1:${redirectorPort}/here`);
    expect(await response.text()).toBe("final");
    expect(response.url).toBe(`http://127.0.0.1:${redirectorPort}/final`);
    await guarded.close();
  });

  it("lets an allowed host:port through, with its method and body", async () => {
    const guarded = outboundFetch({ allow: [`127.0.0.1:${targetPort}`] });
    const response = await guarded(new Request(`http://127.0.0.1:${targetPort}/ok`, { method: "POST", body: "x" }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("secret POST");
    expect(hits).toEqual(["/ok"]);
    hits.length = 0;
    await guarded.close();
  });

  it("is what the model clients send with: a private endpoint is refused in its sentence, and not retried", async () => {
    const guarded = outboundFetch();
    const baseUrl = `http://127.0.0.1:${targetPort}/v1`;
    for (const provider of ["openai-compatible", "anthropic"] as const) {
      const target = { name: "Local", provider, baseUrl, apiKey: "k", model: "m", models: [{ id: "m" }] };
      const model = await createChatModel(target, { fetch: guarded });
      const error = await model.invoke("hi").then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(isRetryableModelError(error)).toBe(false);
      expect(describeModelError(error, baseUrl)).toEqual({
        error: "unreachable",
        message: `The model endpoint ${baseUrl} cannot be used: 127.0.0.1:${targetPort} is a loopback address; ${REMEDY}`,
      });
    }
    expect(hits).toEqual([]);
    await guarded.close();
  });
});

describe("outbound.allow in the configuration", () => {
  it("joins fawn-server.json's list and FAWN_SERVER_OUTBOUND_ALLOW, and refuses an entry that is no host", () => {
    const config = resolveConfig(
      { outbound: { allow: ["10.0.0.7:8080"] } },
      { FAWN_SERVER_OUTBOUND_ALLOW: " ollama , [fd00::5]:443" },
    );
    expect(config.outboundAllow).toEqual(["10.0.0.7:8080", "ollama", "[fd00::5]:443"]);
    expect(resolveConfig(undefined, {}).outboundAllow).toEqual([]);
    expect(() => resolveConfig({ outbound: { allow: ["http://10.0.0.7/"] } }, {})).toThrow(
      'outbound.allow (or FAWN_SERVER_OUTBOUND_ALLOW): "http://10.0.0.7/" is not a host name or host:port.',
    );
  });
});
