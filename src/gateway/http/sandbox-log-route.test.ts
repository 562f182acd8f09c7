// The sandbox log over HTTP, as a Fawn server workspace reads it: `GET /api/fawn/threads/{id}/sandbox-log` answers
// threads.sandboxLog, Fawn's client (FawnApiClient) reads it back the same, and refuses an entry that is not one.
import { describe, expect, it } from "vitest";
import type { SandboxLogEntry } from "../../protocol/index.ts";
import { memoryStorage } from "../../storage/index.ts";
import { createGateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";
import { FawnApiClient } from "../remote/fawn-api-client.ts";

const ENTRY: SandboxLogEntry = {
  id: "c1",
  at: 1_700_000_000_000,
  duration_ms: 12,
  command: "echo hi > /mnt/user-data/outputs/a.md",
  exit_code: 0,
  files_changed: [{ path: "/mnt/user-data/outputs/a.md", change: "added" }],
};

async function serverWithLog() {
  const storage = memoryStorage();
  const gateway = createGateway(storage, { notify: () => undefined });
  const { thread_id: threadId } = await gateway.threads.create();
  await storage.threads.append(threadId, [{ kind: "sandbox-command", ...ENTRY }]);
  const handle = createGatewayFetch(gateway);
  const client = new FawnApiClient((path, init) => handle(new Request(`http://fawn.local/api${path}`, init)));
  return { gateway, threadId, handle, client };
}

describe("GET /api/fawn/threads/{id}/sandbox-log", () => {
  it("answers the thread's log, which Fawn's client reads back whole", async () => {
    const { gateway, threadId, client } = await serverWithLog();
    expect(await gateway.threads.sandboxLog(threadId)).toEqual([ENTRY]);
    expect(await client.sandboxLog(threadId)).toEqual([ENTRY]);
  });

  it("answers 404 for a thread that is not there", async () => {
    const { handle } = await serverWithLog();
    const response = await handle(new Request("http://fawn.local/api/fawn/threads/nope/sandbox-log"));
    expect(response.status).toBe(404);
  });

  it("is read as malformed by the client when an entry names a file outside the thread", async () => {
    const forged = [{ ...ENTRY, files_changed: [{ path: "/etc/passwd", change: "added" }] }];
    const client = new FawnApiClient(async () => Response.json(forged), { serverName: "forged.example" });
    await expect(client.sandboxLog("t1")).rejects.toMatchObject({ malformed: true });
  });
});
