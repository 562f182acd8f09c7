// The server's sandbox layer: each thread's sandbox for every user's Gateway (GatewayOptions.openSandbox), and the
// seam for a container provider (sandbox-provider.ts).
import { ServerSandboxes } from "./server-sandboxes.ts";
import type { OpenServerSandbox } from "./sandbox-provider.ts";

export { ServerSandboxes, type ServerSandboxesOptions } from "./server-sandboxes.ts";
export type { OpenServerSandbox, ServerSandboxProvider } from "./sandbox-provider.ts";
export { NodePythonRunner, measurePythonStartup } from "./node-python-runner.ts";

let shared: ServerSandboxes | undefined;

/**
 * Opens a thread's sandbox with the process's shared built-in provider: pass it as `createGateway(storage, {
 * openSandbox: openServerSandbox })`. Idle Python interpreters never keep the process alive;
 * closeServerSandboxes ends them.
 */
export const openServerSandbox: OpenServerSandbox = (threadId, files, skills) =>
  (shared ??= new ServerSandboxes()).open(threadId, files, skills);

/** Ends the shared provider's Python interpreters (the next sandbox opened starts afresh). */
export async function closeServerSandboxes(): Promise<void> {
  const closing = shared;
  shared = undefined;
  await closing?.close();
}
