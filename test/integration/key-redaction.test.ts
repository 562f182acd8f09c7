// A provider that echoes the key it was sent (and other stored keys) in its error: the run's error event, the thread's
// stored history, its run record, a backup and "Fetch models" all say "[redacted key]" instead of any stored key. And a
// scan of every exported byte (the backup, each thread's .fawn, Markdown and DeerFlow JSON; raw, inflated, decoded)
// finds no stored key in any encoding, an MCP server's OAuth tokens included.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type { ModelEndpoint, ThreadExportFormat } from "../../src/protocol/index.ts";
import { REDACTED_KEY } from "../../src/shared/redact.ts";
import { McpOAuthRepository, openFawnDb } from "../../src/storage/index.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("key-redaction-test");

const MODEL_KEY = "sk-echo-MODELKEY-93ad51";
const OTHER_KEY = "sk-echo-OTHERKEY-0c7e12";
const SEARCH_KEY = "tvly-echo-SEARCHKEY-5b61";
const NEW_KEY = "sk-echo-NOTSTOREDYET-4410";
const ALL_KEYS = [MODEL_KEY, OTHER_KEY, SEARCH_KEY, NEW_KEY];

/** An OpenAI-compatible endpoint that refuses every request, quoting its Authorization header and the keys above. */
let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      // The status text echoes the key too: a model list's error quotes only the status line.
      response.writeHead(401, `Unauthorized ${request.headers.authorization ?? ""}`.trim(), {
        "content-type": "application/json",
        "access-control-allow-origin": "*",
      });
      response.end(
        JSON.stringify({
          error: {
            message:
              `Incorrect API key provided: ${request.headers.authorization ?? "(none)"}. ` +
              `Known keys: ${[OTHER_KEY, SEARCH_KEY].join(", ")}; ` +
              `url-encoded: ${encodeURIComponent(MODEL_KEY)}.`,
            type: "invalid_request_error",
            param: null,
            code: "invalid_api_key",
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/**
 * The main endpoint is the echoing one; a second endpoint (and `more.endpoints`) and the web search key (and
 * `more.fetchKey`) are stored beside it.
 */
async function storeKeys(
  gateway: Gateway,
  more: { endpoints?: ModelEndpoint[]; fetchKey?: string } = {},
): Promise<void> {
  await gateway.settings.saveModels(
    modelSettings({
      baseUrl,
      apiKey: MODEL_KEY,
      model: "echo-model",
      endpoints: [
        { id: "other", name: "Other", baseUrl: harness.mock.url, apiKey: OTHER_KEY, models: [{ id: "mock-model" }] },
        ...(more.endpoints ?? []),
      ],
    }),
  );
  await gateway.settings.saveWebTools({
    search: { provider: "tavily", apiKey: SEARCH_KEY },
    fetch: { provider: "jina", apiKey: more.fetchKey ?? "" },
  });
}

function expectNoKey(text: string): void {
  for (const key of ALL_KEYS) expect(text).not.toContain(key);
  expect(text).not.toMatch(/MODELKEY|OTHERKEY|SEARCHKEY|NOTSTOREDYET/);
}

describe("error text never carries a stored key", () => {
  it("in the run's error event, the stored thread, its run record and a backup", async () => {
    const gateway = harness.gateway;
    await storeKeys(gateway);
    const thread = await gateway.threads.create();
    const events = await runThread(gateway, thread.thread_id, "hello there");

    const error = events.find((event) => event.event === "error");
    expect(error).toMatchObject({ event: "error", data: { error: "authentication" } });
    const message = error?.event === "error" ? error.data.message : "";
    expect(message).toContain(`Incorrect API key provided: Bearer ${REDACTED_KEY}`);
    expect(message).toContain(`Known keys: ${REDACTED_KEY}, ${REDACTED_KEY}`);
    expect(message).toContain(`url-encoded: ${REDACTED_KEY}.`);
    expectNoKey(JSON.stringify(events));

    const stored = await gateway.threads.get(thread.thread_id);
    expect(stored?.entries.some((entry) => entry.kind === "error")).toBe(true);
    expectNoKey(JSON.stringify(stored));
    // Redacted before it is stored, not only when read back: the raw step records (serialized bytes included) hold none.
    const db = await openFawnDb(harness.gatewayDbName());
    const stepStores = ["checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_messages"] as const;
    const raw = await Promise.all(stepStores.map((store) => db.getAll(store)));
    db.close();
    const bytesAsText = (_key: string, value: unknown) =>
      value instanceof Uint8Array || value instanceof ArrayBuffer ? new TextDecoder("latin1").decode(value) : value;
    const rawText = JSON.stringify(raw, bytesAsText);
    expect(rawText).toContain(REDACTED_KEY);
    expectNoKey(rawText);
    const runs = await gateway.runs.list(thread.thread_id);
    expect(runs.at(-1)?.error?.message).toContain(REDACTED_KEY);
    expectNoKey(JSON.stringify(runs));

    const archive = new Uint8Array(await (await gateway.data.export()).blob.arrayBuffer());
    for (const data of Object.values(unzipSync(archive))) expectNoKey(new TextDecoder("latin1").decode(data));
  });

  it("in the message of a model list that failed, the key being tried included", async () => {
    const gateway = harness.gateway;
    await storeKeys(gateway);
    const failure = await gateway.settings.listModels({ baseUrl, apiKey: NEW_KEY }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain(REDACTED_KEY);
    expectNoKey(message);
  });
});

/** The forms a key could take in exported bytes: as text (UTF-8, UTF-16), URL-encoded, and base64 at every alignment. */
function keyForms(key: string): Uint8Array[] {
  const forms = [strToU8(key), Buffer.from(key, "utf16le"), strToU8(encodeURIComponent(key))];
  for (let shift = 0; shift < 3; shift++) {
    // The part of base64(prefix + key) that depends on the key alone.
    const encoded = Buffer.from("..".slice(0, shift) + key).toString("base64");
    const start = Math.ceil((shift * 4) / 3);
    const end = Math.floor(((shift + key.length) * 4) / 3);
    forms.push(strToU8(encoded.slice(start, end)));
  }
  return forms;
}

/** Every byte sequence an export holds: itself, each zip member inflated, and each `$bytes` field decoded. */
function exportedBytes(bytes: Uint8Array): Uint8Array[] {
  const all = [bytes];
  let members: Record<string, Uint8Array> = {};
  try {
    members = unzipSync(bytes);
  } catch {
    // not a zip (Markdown, DeerFlow JSON)
  }
  for (const [name, data] of Object.entries(members)) {
    all.push(strToU8(name), data);
    for (const match of new TextDecoder("latin1").decode(data).matchAll(/"\$bytes":"([A-Za-z0-9+/=]*)"/g)) {
      all.push(Buffer.from(match[1] ?? "", "base64"));
    }
  }
  return all;
}

describe("no stored key in any exported byte", () => {
  const FETCH_KEY = "jina-scan-FETCHKEY-77e0";
  const THIRD_KEY = "sk-scan-THIRDKEY-a1b2";
  const MCP_KEYS = ["mcp-scan-HEADERKEY-3c4d", "mcp-scan-TOKEN-5e6f", "mcp-scan-SECRET-7a8b"];
  const OAUTH_KEYS = ["oauth-scan-ACCESS-9c0d", "oauth-scan-REFRESH-1e2f", "oauth-scan-CLIENTSECRET-3a4b"];

  it("in the backup, nor in any thread's .fawn, Markdown or DeerFlow JSON, nor DeerFlow's MCP config", async () => {
    const gateway = harness.gateway;
    await storeKeys(gateway, {
      endpoints: [{ id: "third", name: "Third", baseUrl: harness.mock.url, apiKey: THIRD_KEY, models: [{ id: "m3" }] }],
      fetchKey: FETCH_KEY,
    });
    // An MCP server as a later Fawn may store one, credentials inline (its headers, a token, a client secret).
    const db = await openFawnDb(harness.gatewayDbName());
    await db.put("mcp_servers", {
      name: "tools",
      enabled: true,
      transport: "streamable-http",
      url: "https://mcp.example/mcp",
      headers: { "X-API-Key": MCP_KEYS[0], Authorization: `Bearer ${MCP_KEYS[1]}` },
      oauth: { client_id: "fawn", clientSecret: MCP_KEYS[2], accessToken: MCP_KEYS[1] },
    } as never);
    // A server signed in with OAuth: its tokens and registered client, as the sign-in keeps them.
    await gateway.mcp.save([{ name: "signed", url: "https://signed.example/mcp", enabled: true }]);
    const oauth = new McpOAuthRepository(db);
    await oauth.set("signed", "https://signed.example/mcp", "tokens", {
      access_token: OAUTH_KEYS[0],
      refresh_token: OAUTH_KEYS[1],
      token_type: "bearer",
    });
    await oauth.set("signed", "https://signed.example/mcp", "client", {
      client_id: "c1",
      client_secret: OAUTH_KEYS[2],
    });
    expect(await gateway.mcp.signedIn()).toEqual(["signed"]);
    db.close();
    const keys = [MODEL_KEY, OTHER_KEY, THIRD_KEY, SEARCH_KEY, FETCH_KEY, ...MCP_KEYS, ...OAUTH_KEYS];

    // A run the echoing endpoint refuses (its error quotes keys), and one that works, with an upload and a skill.
    const failed = await gateway.threads.create();
    await runThread(gateway, failed.thread_id, "hello there");
    const worked = await gateway.threads.create();
    await gateway.threads.upload(worked.thread_id, [{ name: "notes.txt", bytes: strToU8("bees") }]);
    await runThread(gateway, worked.thread_id, "hello", undefined, { endpoint: "other", model: "mock-model" });
    await gateway.memory.addFact({ content: "User keeps bees" });
    const skill = "---\nname: scan-skill\ndescription: A skill.\n---\n# Scan\n";
    await gateway.skills.install({ name: "scan-skill.skill", bytes: zipSync({ "SKILL.md": strToU8(skill) }) });

    // The failed step's error as a Fawn from before its redaction stored it: the provider's text, keys and all.
    const stored = await openFawnDb(harness.gatewayDbName());
    const errors = (await stored.getAll("checkpoint_writes")).filter((write) => write.channel === "__error__");
    expect(errors.length).toBeGreaterThan(0);
    const quoted = {
      message: `401 Incorrect API key provided: Bearer ${MODEL_KEY}. Known keys: ${OTHER_KEY}`,
      name: "Error",
    };
    for (const write of errors)
      await stored.put("checkpoint_writes", { ...write, type: "json", bytes: strToU8(JSON.stringify(quoted)) });
    stored.close();

    const exports: [string, Uint8Array][] = [];
    const backup = await gateway.data.export();
    exports.push([backup.file_name, new Uint8Array(await backup.blob.arrayBuffer())]);
    for (const { thread_id: threadId } of await gateway.threads.list()) {
      for (const format of ["fawn", "markdown", "deerflow"] as ThreadExportFormat[]) {
        const exported = await gateway.bundles.export(threadId, format);
        exports.push([`${threadId} ${exported.file_name}`, new Uint8Array(await exported.blob.arrayBuffer())]);
      }
    }
    const mcpConfig = await gateway.mcp.exportConfig();
    exports.push([mcpConfig.file_name, new Uint8Array(await mcpConfig.blob.arrayBuffer())]);
    expect(exports).toHaveLength(8);

    const found: string[] = [];
    let scanned = 0;
    for (const [name, bytes] of exports) {
      for (const data of exportedBytes(bytes)) {
        scanned += 1;
        const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        for (const key of keys) {
          if (keyForms(key).some((form) => buffer.includes(Buffer.from(form)))) found.push(`${key} in ${name}`);
        }
      }
    }
    // The scan reads the history: the failed run's error is there, redacted.
    const texts = exports.flatMap(([, bytes]) => exportedBytes(bytes).map((data) => Buffer.from(data).toString()));
    expect(texts.some((text) => text.includes(`Incorrect API key provided: Bearer ${REDACTED_KEY}`))).toBe(true);
    expect(scanned).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
