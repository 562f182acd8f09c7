// Where the server's thread sandboxes come from. The built-in provider (server-sandboxes.ts) runs the browser's
// sandbox in the server's process; a provider that runs each thread in a container (Docker, E2B, a Kubernetes pod)
// implements the same two members: `open` returns a `Sandbox` (src/sandbox/sandbox.ts: run, readFile, writeFile, list,
// stat, glob, grep, remove, dispose) whose files under /mnt/user-data are loaded from and saved back to the
// `ThreadFileStore` it is given, so the thread's files stay in the user's storage whichever provider ran them, and
// the Gateway, the agent's tools and the Terminal work unchanged. See docs/architecture.md (D11, the sandbox).
import type { GatewayOptions } from "../../src/gateway/index.ts";

/** Opens a thread's sandbox over the thread's stored files: the shape of GatewayOptions.openSandbox. */
export type OpenServerSandbox = NonNullable<GatewayOptions["openSandbox"]>;

/** A source of thread sandboxes for every user's Gateway (one per server process). */
export interface ServerSandboxProvider {
  /** Names the provider in logs and /info. */
  readonly name: string;
  open: OpenServerSandbox;
  /** Ends what the provider keeps running (interpreters, containers); called when the server stops. */
  close(): Promise<void>;
}
