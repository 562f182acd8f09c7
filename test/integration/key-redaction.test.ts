// A provider that echoes the key it was sent (and other stored keys) in its error: the run's error event, the thread's
// stored history, its run record, a backup and "Fetch models" all say "[redacted key]" instead of any stored key.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { REDACTED_KEY } from "../../src/shared/redact.ts";
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

/** The main endpoint is the echoing one; a second endpoint and the web search key are stored beside it. */
async function storeKeys(gateway: Gateway): Promise<void> {
  await gateway.saveModelSettings(
    modelSettings({
      baseUrl,
      apiKey: MODEL_KEY,
      model: "echo-model",
      endpoints: [
        { id: "other", name: "Other", baseUrl: harness.mock.url, apiKey: OTHER_KEY, models: [{ id: "mock-model" }] },
      ],
    }),
  );
  await gateway.saveWebToolSettings({
    search: { provider: "tavily", apiKey: SEARCH_KEY },
    fetch: { provider: "jina", apiKey: "" },
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
    const thread = await gateway.createThread();
    const events = await runThread(gateway, thread.thread_id, "hello there");

    const error = events.find((event) => event.event === "error");
    expect(error).toMatchObject({ event: "error", data: { error: "authentication" } });
    const message = error?.event === "error" ? error.data.message : "";
    expect(message).toContain(`Incorrect API key provided: Bearer ${REDACTED_KEY}`);
    expect(message).toContain(`Known keys: ${REDACTED_KEY}, ${REDACTED_KEY}`);
    expect(message).toContain(`url-encoded: ${REDACTED_KEY}.`);
    expectNoKey(JSON.stringify(events));

    const stored = await gateway.getThread(thread.thread_id);
    expect(stored?.entries.some((entry) => entry.kind === "error")).toBe(true);
    expectNoKey(JSON.stringify(stored));
    const runs = await gateway.listRuns(thread.thread_id);
    expect(runs.at(-1)?.error?.message).toContain(REDACTED_KEY);
    expectNoKey(JSON.stringify(runs));

    const archive = new Uint8Array(await (await gateway.exportData()).blob.arrayBuffer());
    for (const data of Object.values(unzipSync(archive))) expectNoKey(new TextDecoder("latin1").decode(data));
  });

  it("in the message of a model list that failed, the key being tried included", async () => {
    const gateway = harness.gateway;
    await storeKeys(gateway);
    const failure = await gateway.listModels({ baseUrl, apiKey: NEW_KEY }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain(REDACTED_KEY);
    expectNoKey(message);
  });
});
