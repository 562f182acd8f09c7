// Settings → Tools through the Gateway, against the MCP project's own test server (server-everything): a server is
// saved and tested, its tools reach the agent in every mode named `<server>_<tool>`, their results reach the model,
// a long call's progress streams to the step, Stop cancels it and the thread goes on, a server that is down is named
// in the prompt instead of breaking the run, and many tools wait behind tool_search.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpServerEntry, RunEvent } from "../../src/protocol/index.ts";
import { startEverything, type Everything } from "../mcp/everything.ts";
import { modelSettings, runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("mcp-tools-test");
let everything: Everything;

beforeAll(async () => {
  everything = await startEverything("streamableHttp");
});
afterAll(async () => {
  await everything.stop();
});

const server = (overrides: Partial<McpServerEntry> = {}): McpServerEntry => ({
  name: "everything",
  url: everything.url,
  enabled: true,
  ...overrides,
});

interface MockRequest {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

const lastRequest = () => harness.mock.requests.at(-1)?.body as MockRequest;
const toolNames = (request: MockRequest) => (request.tools ?? []).map((tool) => tool.function.name);
/** The request's system text (a string, or text blocks). */
function systemPrompt(request: MockRequest): string {
  const content = request.messages.find((message) => message.role === "system")?.content;
  if (typeof content === "string") return content;
  return (content as { text?: string }[]).map((block) => block.text ?? "").join("");
}

describe("MCP tools in a run", () => {
  it("are offered in every mode, and a call's result reaches the model and names the server on its step", async () => {
    const { gateway } = harness;
    const test = await gateway.mcp.test(server());
    expect(test.ok && test.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    await gateway.mcp.save([server({ disabledTools: ["get-env"], description: "The MCP test server" })]);

    const { thread_id: threadId } = await gateway.threads.create();
    await runThread(gateway, threadId, 'call tool everything_echo {"message":"hello from Fawn"}', undefined, {
      mode: "flash",
    });
    const request = lastRequest();
    expect(toolNames(request)).toEqual(expect.arrayContaining(["everything_echo", "everything_get-sum"]));
    expect(toolNames(request)).not.toContain("everything_get-env");
    expect(systemPrompt(request)).toMatch(/<mcp_servers>[\s\S]*- everything_…: The MCP test server/);
    expect(request.messages.find((m) => m.role === "tool")?.content).toBe("Echo: hello from Fawn");

    await runThread(gateway, threadId, 'call tool everything_get-sum {"a":2,"b":3}', undefined, { mode: "ultra" });
    expect(
      lastRequest()
        .messages.filter((m) => m.role === "tool")
        .at(-1)?.content,
    ).toBe("The sum of 2 and 3 is 5.");
    const detail = await gateway.threads.get(threadId);
    const results = detail?.entries.flatMap((entry) =>
      entry.kind === "message" && entry.message.type === "tool" ? [entry.message] : [],
    );
    expect(results?.map((result) => result.artifact)).toEqual([
      expect.objectContaining({ mcp_server: "everything", mcp_tool: "echo" }),
      expect.objectContaining({ mcp_server: "everything", mcp_tool: "get-sum" }),
    ]);
  });

  it("streams a long call's progress, and Stop cancels it; the next message works", async () => {
    const { gateway } = harness;
    await gateway.mcp.save([server()]);
    const { thread_id: threadId } = await gateway.threads.create();
    const events = await runThread(
      gateway,
      threadId,
      'call tool everything_trigger-long-running-operation {"duration":1,"steps":3}',
    );
    const progress = events.flatMap((event) =>
      event.event === "custom" && (event.data as { type?: string }).type === "tool_progress" ? [event.data] : [],
    );
    expect(progress).toEqual([
      expect.objectContaining({ progress: 1, total: 3 }),
      expect.objectContaining({ progress: 2, total: 3 }),
      expect.objectContaining({ progress: 3, total: 3 }),
    ]);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });

    // A 30-second call, stopped at its first progress.
    const runId = crypto.randomUUID();
    const seen: RunEvent[] = [];
    const started = Date.now();
    await gateway.runs.stream(
      {
        run_id: runId,
        thread_id: threadId,
        input: {
          messages: [
            {
              type: "human",
              content: 'call tool everything_trigger-long-running-operation {"duration":30,"steps":30}',
            },
          ],
        },
      },
      (event) => {
        seen.push(event);
        if (event.event === "custom") void gateway.runs.cancel(runId);
      },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(seen.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    const after = await runThread(gateway, threadId, 'call tool everything_echo {"message":"still here"}');
    expect(after.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(
      lastRequest()
        .messages.filter((m) => m.role === "tool")
        .at(-1)?.content,
    ).toBe("Echo: still here");
  });

  it("shows a vision model the images an MCP tool returned; its tool message stays text", async () => {
    const { gateway, mock } = harness;
    await gateway.settings.saveModels(
      modelSettings({
        baseUrl: mock.url,
        apiKey: "sk-test",
        model: "mock-vision",
        models: [{ id: "mock-vision", vision: true }],
      }),
    );
    await gateway.mcp.save([server()]);
    const { thread_id: threadId } = await gateway.threads.create();
    await runThread(gateway, threadId, "call tool everything_get-tiny-image {}");
    const request = lastRequest();
    expect(request.messages.find((m) => m.role === "tool")?.content).toMatch(/\[image image\/png, [\d.]+ KB\]/);
    const shown = request.messages.filter((m) => m.role === "user" && Array.isArray(m.content));
    expect(JSON.stringify(shown)).toMatch(/data:image\/png;base64,iVBOR/);
    expect(JSON.stringify(shown)).toMatch(/from get-tiny-image on everything/);
  });

  it("names a server that is down in the prompt, and the run goes on without it", async () => {
    const { gateway } = harness;
    await gateway.mcp.save([server(), server({ name: "gone", url: "http://127.0.0.1:9/mcp" })]);
    const { thread_id: threadId } = await gateway.threads.create();
    const events = await runThread(gateway, threadId, "hello");
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const prompt = systemPrompt(lastRequest());
    expect(prompt).toMatch(/Unavailable in this run:\n- .*gone/);
    expect(toolNames(lastRequest())).toContain("everything_echo");
    expect(toolNames(lastRequest()).some((name) => name.startsWith("gone_"))).toBe(false);
  });

  it("with over 30 tools, a request carries tool_search instead of every schema, and a found tool runs", async () => {
    const { gateway } = harness;
    // The same server under eight names: over a hundred tools.
    await gateway.mcp.save(Array.from({ length: 8 }, (_, index) => server({ name: `everything${index}` })));
    const { thread_id: threadId } = await gateway.threads.create();
    await runThread(gateway, threadId, 'call tool tool_search {"query":"select:everything3_echo"}');
    const first = harness.mock.requests[0]?.body as MockRequest;
    expect(toolNames(first)).toContain("tool_search");
    expect(toolNames(first).filter((name) => name.startsWith("everything"))).toEqual([]);
    expect(systemPrompt(first)).toMatch(/<available-deferred-tools>[\s\S]*everything7_get-sum/);
    // Once found, the tool is offered and runs.
    await runThread(gateway, threadId, 'call tool everything3_echo {"message":"found"}');
    expect(toolNames(lastRequest())).toContain("everything3_echo");
    expect(
      lastRequest()
        .messages.filter((m) => m.role === "tool")
        .at(-1)?.content,
    ).toBe("Echo: found");
  });
});
