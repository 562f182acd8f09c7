// MCP tools never shadow Fawn's own: through the Gateway, with a real MCP server whose tools collide once prefixed, a
// server named "ask" with a tool "clarification" leaves `ask_clarification` to the built-in (the MCP tool is offered
// as `ask_clarification_2`), and two servers whose tools both come out as `ask_docs_echo` each keep a name of their
// own. The model is offered every name once, and each name runs the tool it stands for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpServerEntry, RunEvent } from "../../src/protocol/index.ts";
import { startCollidingServer, type CollidingServer } from "../mcp/colliding.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("mcp-tool-names-test");
let colliding: CollidingServer;

beforeAll(async () => {
  colliding = await startCollidingServer();
});
afterAll(async () => {
  await colliding.stop();
});

const server = (name: string): McpServerEntry => ({ name, url: colliding.url, enabled: true });

interface MockRequest {
  tools?: { function: { name: string } }[];
}
const offeredTools = () =>
  ((harness.mock.requests.at(-1)?.body as MockRequest | undefined)?.tools ?? []).map((tool) => tool.function.name);
/** The run's error events: none, when the tools were put together right. */
const errors = (events: RunEvent[]) => events.filter((event) => event.event === "error");

/** The thread's tool results: the name the model called and the MCP tool that answered (if one did). */
async function toolResults(threadId: string) {
  const detail = await harness.gateway.threads.get(threadId);
  return (detail?.entries ?? []).flatMap((entry) =>
    entry.kind === "message" && entry.message.type === "tool"
      ? [
          {
            name: entry.message.name,
            mcp: (entry.message.artifact as { mcp_tool?: string } | undefined)?.mcp_tool,
            text: typeof entry.message.content === "string" ? entry.message.content : "",
          },
        ]
      : [],
  );
}

describe("MCP tool names", () => {
  it("leave a built-in tool's name to the built-in: ask_clarification asks the user, ask_clarification_2 runs the MCP tool", async () => {
    const { gateway } = harness;
    await gateway.mcp.save([server("ask")]);
    colliding.calls.length = 0;
    const { thread_id: threadId } = await gateway.threads.create();

    expect(
      errors(await runThread(gateway, threadId, 'call tool ask_clarification {"question":"Which colour?"}')),
    ).toEqual([]);
    const offered = offeredTools();
    expect(offered.filter((name) => name === "ask_clarification")).toHaveLength(1);
    expect(offered).toContain("ask_clarification_2");
    expect(new Set(offered).size).toBe(offered.length);
    // The built-in asked: no MCP call was made, and the question is the tool's answer.
    expect(colliding.calls).toEqual([]);
    expect(await toolResults(threadId)).toEqual([
      { name: "ask_clarification", mcp: undefined, text: expect.stringContaining("Which colour?") as string },
    ]);

    await runThread(gateway, threadId, 'call tool ask_clarification_2 {"question":"Which size?"}');
    expect(colliding.calls).toEqual(['clarification {"question":"Which size?"}']);
    expect((await toolResults(threadId)).at(-1)).toEqual({
      name: "ask_clarification_2",
      mcp: "clarification",
      text: 'The MCP tool clarification ran with {"question":"Which size?"}',
    });
  });

  it("give two servers' tools that come out alike a name each: the server whose name sorts first keeps it", async () => {
    const { gateway } = harness;
    await gateway.mcp.save([server("ask"), server("ask_docs")]);
    colliding.calls.length = 0;
    const { thread_id: threadId } = await gateway.threads.create();

    expect(errors(await runThread(gateway, threadId, 'call tool ask_docs_echo {"message":"one"}'))).toEqual([]);
    const offered = offeredTools();
    expect(new Set(offered).size).toBe(offered.length);
    expect(offered).toEqual(expect.arrayContaining(["ask_docs_echo", "ask_docs_echo_2"]));
    await runThread(gateway, threadId, 'call tool ask_docs_echo_2 {"message":"two"}');
    // "ask" sorts before "ask_docs", so its docs_echo keeps the name.
    expect(colliding.calls).toEqual(['docs_echo {"message":"one"}', 'echo {"message":"two"}']);
  });
});
