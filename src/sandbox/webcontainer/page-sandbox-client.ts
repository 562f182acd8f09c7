// The agent worker's side of the WebContainer sandbox: opens a thread on the page's PageSandboxServer
// (page-sandbox-server.ts) and reaches it through a SandboxClient. Types only from the page's side, so the agent
// worker's bundle does not carry the WebContainer code.
import * as Comlink from "comlink";
import { SandboxClient } from "../sandbox-client.ts";
import { unwrap } from "../sandbox-support.ts";
import type { PageSandboxServer } from "./page-sandbox-server.ts";
import type { ThreadFileMap, ThreadFileStore } from "../thread-file-store.ts";

/** Opens the thread on the page: the server loads its files from `store`, which stays in this worker. */
export async function openPageSandbox(
  server: Comlink.Remote<PageSandboxServer>,
  threadId: string,
  store: ThreadFileStore,
  skills?: ThreadFileMap,
): Promise<SandboxClient> {
  unwrap(await server.open(threadId, Comlink.proxy(store), skills));
  return new SandboxClient("webcontainer", threadId, () => ({ server }));
}
