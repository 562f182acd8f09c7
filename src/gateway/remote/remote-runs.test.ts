// A server workspace's run refused before it starts, over a fake fetch: a 409 (the thread already runs) is `busy`
// whatever its sentence says, and another refusal is not, even when its sentence speaks of running.
import { describe, expect, it } from "vitest";
import type { RunEvent, ServerSummary } from "../../protocol/index.ts";
import { RemoteContext } from "./remote-context.ts";
import { RemoteRuns } from "./remote-runs.ts";

const server: ServerSummary = {
  id: "runs-test",
  name: "Team server",
  url: "https://fawn.example",
  kind: "langgraph",
  features: { fawn: false, uploads: false, artifacts: false, memory: false, skills: false, models: false },
  added_at: 0,
};

async function refusedRun(status: number, detail: string): Promise<RunEvent[]> {
  const remote = new RemoteContext({ server, fetch: async () => Response.json({ detail }, { status }) });
  const events: RunEvent[] = [];
  await new RemoteRuns(remote).stream(
    { run_id: "r1", thread_id: "t1", input: { messages: [{ type: "human", content: "hi" }] } },
    (event) => events.push(event),
  );
  return events;
}

describe("a server workspace's refused run", () => {
  it("is busy for a 409, whatever its sentence", async () => {
    expect(await refusedRun(409, "Thread t1 has inflight runs.")).toEqual([
      { event: "error", data: { error: "busy", message: "Thread t1 has inflight runs." } },
      { event: "end", data: { status: "error" } },
    ]);
  });

  it("is not busy for another refusal that speaks of running", async () => {
    const [error] = await refusedRun(422, "The running model is not configured.");
    expect(error).toEqual({
      event: "error",
      data: { error: "server_error", message: "The running model is not configured." },
    });
  });
});
