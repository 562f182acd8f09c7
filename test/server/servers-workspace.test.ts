// The servers seam end to end against a real Fawn server: Settings → Servers' connect (the real check) stores the
// server, `gateway.openWorkspace(id)` loads the remote workspace and answers with the server's threads, across a
// comlink boundary as the agent worker hands it to the page (Comlink.proxy over the guarded workspace), and a
// disconnect closes it and refuses it afterwards. A server that quotes the token back has it redacted from a refusal
// and from a run's error event.
import * as Comlink from "comlink";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, WorkspaceGatewayApi } from "../../src/protocol/index.ts";
import { memoryStorage } from "../../src/storage/index.ts";
import { startTestServer, type TestServer } from "./server-harness.ts";

/** The workspace as the page calls it (src/ui/gateway-client.ts's WorkspaceClient). */
type WorkspaceClient = { [K in keyof WorkspaceGatewayApi]: Comlink.Remote<WorkspaceGatewayApi[K]> };
type Remote = { openWorkspace(id: string): Promise<WorkspaceClient> };

let server: TestServer;
let gateway: Gateway;
let channel: MessageChannel;
let token = "";

/** The server, but a careless one: its refusal of one rename and of every run quotes the Authorization header sent. */
const echoing: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.pathname.endsWith("/fawn/threads/no-such-thread") || url.pathname.endsWith("/runs/stream")) {
    return Response.json({ detail: `Not for ${request.headers.get("authorization")}.` }, { status: 422 });
  }
  return fetch(input, init);
};

beforeAll(async () => {
  server = await startTestServer();
  token = await server.addUser("grace");
  gateway = createGateway(memoryStorage(), { notify: () => undefined, fetch: echoing });
  channel = new MessageChannel();
  // What workers/agent.worker.ts exposes for it.
  Comlink.expose(
    { openWorkspace: async (id: string) => Comlink.proxy(await gateway.openWorkspace(id)) },
    channel.port1,
  );
});

afterAll(async () => {
  if (gateway) for (const each of await gateway.servers.list()) await gateway.servers.disconnect(each.id);
  channel?.port1.close();
  channel?.port2.close();
  await server?.close();
});

describe("a connected server's workspace", () => {
  it("is opened by the Gateway with the stored token, and answers through comlink as the page calls it", async () => {
    const { server: connected, sentence } = await gateway.servers.connect({ url: server.url, token });
    expect(sentence).toMatch(/^Connected to 127\.0\.0\.1:\d+ \(Fawn server 0\.1\.0\): threads, runs, uploads/);
    expect(connected.features.fawn).toBe(true);

    const workspace = await gateway.openWorkspace(connected.id);
    expect(await gateway.openWorkspace(connected.id)).toBe(workspace);
    const created = await workspace.threads.create();
    expect((await workspace.threads.list()).map((thread) => thread.thread_id)).toContain(created.thread_id);
    expect(await workspace.workspace.server()).toMatchObject({ id: connected.id, kind: "fawn" });

    // Across a MessagePort, as the page holds it.
    const remote = Comlink.wrap<Remote>(channel.port2) as unknown as Remote;
    const proxied = await remote.openWorkspace(connected.id);
    const listed = await proxied.threads.list();
    expect(listed.map((thread) => thread.thread_id)).toContain(created.thread_id);
    expect(await proxied.workspace.connection()).toEqual({ state: "online" });
    // A refusal crosses as an Error with the server's sentence, never the token, even when the server quotes it.
    const refused = (await proxied.threads.rename("no-such-thread", "x").catch((error: unknown) => error)) as Error;
    expect(refused).toBeInstanceOf(Error);
    expect(refused.message).toMatch(/^Not for Bearer /);
    expect(refused.message).not.toContain(token);
    expect(refused.stack ?? "").not.toContain(token);

    // So does a run's error event, which reaches the page as an event, not a rejection.
    const events: RunEvent[] = [];
    await workspace.runs.streamBatched(
      {
        run_id: crypto.randomUUID(),
        thread_id: created.thread_id,
        input: { messages: [{ type: "human", content: "hello" }] },
      },
      (batch) => void events.push(...batch),
    );
    const failed = events.find((event) => event.event === "error");
    expect(failed?.data).toMatchObject({ message: expect.stringMatching(/Not for Bearer /) });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("is closed by a disconnect and refused after it", async () => {
    const [connected] = await gateway.servers.list();
    await gateway.openWorkspace(connected!.id);
    await gateway.servers.disconnect(connected!.id);
    await expect(gateway.openWorkspace(connected!.id)).rejects.toThrow(
      "That server is not connected any more: connect it again in Settings → Servers.",
    );
  });
});
