// Runs the mock LLM by hand (`npm run mock-llm`) so Fawn can be tried without an API key.

import { scenarios } from "./scenarios.ts";
import { startMockLlm, type MockLlm } from "./server.ts";

const port = Number(process.env.MOCK_LLM_PORT ?? 11435);
const host = process.env.MOCK_LLM_HOST ?? "127.0.0.1";

async function start(): Promise<MockLlm> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`MOCK_LLM_PORT must be a port number, got "${process.env.MOCK_LLM_PORT}"`);
  }
  try {
    return await startMockLlm({ port, host });
  } catch (error) {
    const inUse = error instanceof Error && "code" in error && error.code === "EADDRINUSE";
    throw inUse ? new Error(`${host}:${port} is already in use; set MOCK_LLM_PORT to another port`) : error;
  }
}

function printBanner(mock: MockLlm): void {
  console.log(`Mock LLM listening on ${mock.url} (any API key; model "mock-model")`);
  console.log("Triggers, matched in the last message (case-insensitive), first match wins:");
  for (const scenario of scenarios) console.log(`  ${scenario.trigger}\n      → ${scenario.reply}`);
  console.log(
    'Models: mock-model, mock-thinking (streams reasoning first), mock-vision. Keys with "bad"/"wrong" → 401.',
  );
  console.log(
    `Anthropic (POST /v1/messages) and Gemini (POST /v1beta/models/…:streamGenerateContent): Base URL ${mock.url.replace(/\/v1$/, "")}`,
  );
}

try {
  const mock = await start();
  printBanner(mock);
  const stop = (signal: NodeJS.Signals): void => {
    console.log(`\nMock LLM stopping (${signal})`);
    void mock.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`mock-llm: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
