// A server workspace's file reads over a fake fetch (a file too large to serve is impractical from a real server): a
// file over 100 MB is one sentence naming it, and the workspace stays connected (the server answered as it should).
import { describe, expect, it } from "vitest";
import type { ServerKind, ServerSummary } from "../../protocol/index.ts";
import { RemoteContext } from "./remote-context.ts";
import { RemoteThreads } from "./remote-threads.ts";

function workspace(kind: ServerKind, answer: (url: string) => Response) {
  const server: ServerSummary = {
    id: `threads-test-${kind}`,
    name: "Team server",
    url: "https://fawn.example",
    kind,
    features: { fawn: kind === "fawn", uploads: true, artifacts: true, memory: false, skills: false, models: false },
    added_at: 0,
  };
  const remote = new RemoteContext({ server, fetch: async (input) => answer(String(input)) });
  const local = { readFile: () => Promise.reject(new Error("not this browser's")) };
  return { remote, threads: new RemoteThreads(remote, local) };
}

/** A chunked body (no Content-Length) of 1 MB pieces, endless. */
function endless(): Response {
  const piece = new Uint8Array(1024 * 1024);
  return new Response(new ReadableStream({ pull: (controller) => controller.enqueue(piece) }));
}

describe("a server workspace's file over 100 MB", () => {
  for (const kind of ["fawn", "deerflow"] as const) {
    it(`is one sentence naming it, and the workspace stays connected (${kind})`, async () => {
      const { remote, threads } = workspace(kind, () => endless());
      await expect(threads.readFile("t1", "/mnt/user-data/outputs/huge.bin")).rejects.toThrow(
        "/mnt/user-data/outputs/huge.bin is larger than 100 MB.",
      );
      expect(remote.connection.current()).toEqual({ state: "online" });
    });
  }
});
