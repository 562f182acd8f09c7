// Starts the page's WebContainer when Settings → Sandbox asks for it, and tells the agent worker how that went:
// the host on success, or the reason it failed so threads fall back to the browser sandbox with a notice.
// @webcontainer/api loads only here, on demand, so the first page load does not carry it.
import * as Comlink from "comlink";
import { createSignal } from "solid-js";
import type { SandboxSettings } from "../protocol/index.ts";
import { errorMessage, type GatewayClient } from "./gateway-client.ts";

export type WebContainerStatus =
  { state: "off" } | { state: "starting" } | { state: "running" } | { state: "failed"; message: string };

export function createWebContainerStarter(client: GatewayClient, onFailure: (message: string) => void) {
  const [status, setStatus] = createSignal<WebContainerStatus>({ state: "off" });
  /** The page's one WebContainer host, once booted; it stays for the life of the page. */
  let host: object | undefined;

  async function start(): Promise<void> {
    if (status().state === "starting") return;
    setStatus({ state: "starting" });
    try {
      if (!host) {
        const [{ openWebContainerSlot }, { PageSandboxServer }] = await Promise.all([
          import("../sandbox/webcontainer/webcontainer-host.ts"),
          import("../sandbox/webcontainer/page-sandbox-server.ts"),
        ]);
        host = new PageSandboxServer(await openWebContainerSlot());
      }
      await client.sandbox.attachHost(Comlink.proxy(host));
      setStatus({ state: "running" });
    } catch (error) {
      const message = `WebContainer could not start, so threads use the browser sandbox. ${errorMessage(error)}`;
      setStatus({ state: "failed", message });
      await client.sandbox.attachHost(null, message).catch(() => undefined);
      onFailure(message);
    }
  }

  /** Starts WebContainer if the saved choice asks for it (at page load). */
  async function startIfChosen(): Promise<void> {
    if ((await client.settings.getSandbox()).provider === "webcontainer") await start();
  }

  /** Saves the choice, and starts (or attaches again) WebContainer when it is chosen. */
  async function choose(provider: SandboxSettings["provider"]): Promise<SandboxSettings> {
    const saved = await client.settings.saveSandbox({ provider });
    if (saved.provider === "webcontainer") void start();
    return saved;
  }

  return { status, start, startIfChosen, choose };
}

export type WebContainerStarter = ReturnType<typeof createWebContainerStarter>;
