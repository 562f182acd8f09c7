// LangGraph's own JS server (`langgraphjs dev`, reading langgraph.json) serving Fawn's lead agent graph
// (server/graph.ts), driven with the SDK's Client: the shared SDK suite (sdk-suite.ts), so Fawn's server and
// LangGraph's agree, and a reply whose tool call writes a file in the thread's sandbox. The dev server runs in a temp
// folder that links to the repository, so its `.langgraph_api/` never lands in the checkout.
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";
import { startLangGraphDev, type LangGraphDev } from "./langgraph-dev-harness.ts";
import { sdkSuite } from "./sdk-suite.ts";

let mock: MockLlm;
let dev: LangGraphDev | undefined;
let apiUrl = "";

beforeAll(async () => {
  // The test's own mock, to read what the graph sent the model.
  mock = await startMockLlm({ port: 0 });
  dev = await startLangGraphDev({ modelUrl: mock.url });
  apiUrl = dev.url;
}, 100_000);

afterAll(async () => {
  await dev?.stop();
  await mock?.close();
});

const client = () => new Client({ apiUrl, callerOptions: { maxRetries: 0 } });

sdkSuite({
  name: "langgraphjs dev serving Fawn's graph",
  client,
  parts: ["core", "assistants", "threads", "state", "runs"],
});

describe("Fawn's graph on langgraphjs dev", () => {
  it("streams a reply whose tool call writes a file in the thread's sandbox; the next run reads it back", async () => {
    const thread = await client().threads.create();
    const write = JSON.stringify({
      description: "Write a note",
      path: "/mnt/user-data/outputs/note.md",
      content: "# Hello from Fawn\n",
    });
    const events: string[] = [];
    for await (const part of client().runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: `call tool write_file ${write}` }] },
      streamMode: ["values", "messages-tuple", "updates"],
    })) {
      events.push(part.event);
    }
    expect(events).toEqual(expect.arrayContaining(["metadata", "values", "messages", "updates"]));
    expect(events).not.toContain("error");

    const read = JSON.stringify({ description: "Read the note", command: "cat /mnt/user-data/outputs/note.md" });
    const values = (await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: `call tool bash ${read}` }] },
    })) as { messages: { type: string; content: unknown }[] };
    const tool = values.messages.filter((message) => message.type === "tool").at(-1);
    expect(tool?.content).toBe("# Hello from Fawn");
    // The model was offered the sandbox's tools, and the API key never went into a message.
    const last = mock.requests.at(-1)?.body as { tools?: { function: { name: string } }[] };
    expect(last.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["bash", "write_file"]));
    expect(JSON.stringify(mock.requests.map((request) => request.body))).not.toContain("sk-test");
  });
});
