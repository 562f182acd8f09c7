// Settings → Tools with the MCP project's own test server (server-everything) as the real server: reached directly
// over Streamable HTTP, through Fawn's proxy, and as a stdio command through the proxy's bridge. In each case the
// scripted model calls its echo and get-sum tools and a long tool with progress, and the results show in the steps
// and reach the model. Stop cancels a long call (the bridge sees the cancellation); a server killed mid-call ends
// that call with a sentence, and the thread goes on.
import { expect, test, type Page } from "@playwright/test";
import { startProxy, type RunningProxy } from "../../proxy/server.ts";
import { EVERYTHING, startEverything, type Everything } from "../mcp/everything.ts";
import { assistantMessages, configureEndpoint, conversation, editSettings, send } from "./fixtures.ts";

let everything: Everything;
let proxy: RunningProxy;
const bridgeLog: string[] = [];
/** The proxy's token, as its token file would hold it; Settings → Web takes it with the proxy's address. */
const PROXY_TOKEN = "e2e-proxy-token-0123456789abcdefABCDEF";

test.beforeAll(async () => {
  everything = await startEverything("streamableHttp");
  proxy = await startProxy({
    port: 0,
    host: "127.0.0.1",
    appOrigin: `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 4173}`,
    log: null,
    // The test server listens on loopback, which the proxy refuses unless it is listed.
    allowedTargets: [`127.0.0.1:${everything.port}`],
    mcpServers: [{ name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"], env: {} }],
    mcpLog: (line) => bridgeLog.push(line),
    token: PROXY_TOKEN,
  });
});

test.afterAll(async () => {
  await proxy.close();
  await everything.stop();
});

/** Settings → Tools → Add server: named, tested (its tools listed), with get-env switched off, saved. */
async function addServer(page: Page, server: { name: string; url: string; useProxy?: boolean }): Promise<void> {
  await editSettings(page, "Tools", async (dialog) => {
    await dialog.getByRole("button", { name: "Add server" }).click();
    await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill(server.name);
    const group = dialog.getByRole("group", { name: server.name });
    await group.getByRole("textbox", { name: "URL", exact: true }).fill(server.url);
    if (server.useProxy) await group.getByRole("checkbox", { name: "Use the proxy" }).check();
    await group.getByRole("button", { name: "Test connection" }).click();
    const tools = group.getByRole("list", { name: `Tools of ${server.name}` });
    await expect(tools.getByRole("switch", { name: "echo" })).toBeChecked();
    await expect(tools).toContainText("Echoes back the input");
    await tools.getByRole("switch", { name: "get-env" }).uncheck();
  });
}

async function setProxy(page: Page): Promise<void> {
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("textbox", { name: "Proxy URL" }).fill(`${proxy.url}/forward/`);
    await dialog.getByRole("textbox", { name: "Proxy token" }).fill(PROXY_TOKEN);
  });
}

/** The model calls echo, get-sum and the long tool on `server`; each result shows in its step and reaches the model. */
async function useTools(page: Page, server: string): Promise<void> {
  const steps = conversation(page).getByRole("list", { name: "Tool calls" });
  await send(page, `call tool ${server}_echo {"message":"hello through ${server}"}`);
  await expect(assistantMessages(page).last()).toContainText(`The tool returned: Echo: hello through ${server}`);
  await expect(steps.last()).toContainText(`Used echo on ${server}`);

  await send(page, `call tool ${server}_get-sum {"a":2,"b":40}`);
  await expect(assistantMessages(page).last()).toContainText("The sum of 2 and 40 is 42.");

  await send(page, `call tool ${server}_trigger-long-running-operation {"duration":4,"steps":4}`);
  await expect(steps.last().locator(".step-progress")).toHaveText(/^[1-4] of 4/);
  await expect(assistantMessages(page).last()).toContainText("Long running operation completed");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

test("a server over Streamable HTTP, added in Settings → Tools, gives the agent its tools", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await addServer(page, { name: "everything", url: everything.url });
  await useTools(page, "everything");
});

test("a server reached through Fawn's proxy, and a stdio server through the proxy's bridge", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await setProxy(page);
  await addServer(page, { name: "proxied", url: everything.url, useProxy: true });
  await addServer(page, { name: "local", url: `${proxy.url}/mcp/everything` });
  await useTools(page, "proxied");
  await useTools(page, "local");

  // Stop during the long tool cancels it: the bridge sees the cancellation, and the next message works.
  await send(page, 'call tool local_trigger-long-running-operation {"duration":60,"steps":60}');
  const steps = conversation(page).getByRole("list", { name: "Tool calls" });
  await expect(steps.last().locator(".step-progress")).toHaveText(/of 60/);
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect.poll(() => bridgeLog.some((line) => /the client cancelled request/.test(line))).toBe(true);
  await send(page, 'call tool local_echo {"message":"after the stop"}');
  await expect(assistantMessages(page).last()).toContainText("The tool returned: Echo: after the stop");
});

test("a server killed in the middle of a call ends the call with a sentence, and the thread goes on", async ({
  page,
}) => {
  const fragile = await startEverything("streamableHttp");
  try {
    await page.goto("/");
    await configureEndpoint(page);
    await addServer(page, { name: "fragile", url: fragile.url });
    await send(page, 'call tool fragile_trigger-long-running-operation {"duration":60,"steps":60}');
    const steps = conversation(page).getByRole("list", { name: "Tool calls" });
    await expect(steps.last().locator(".step-progress")).toHaveText(/of 60/);
    await fragile.stop();
    await expect(assistantMessages(page).last()).toContainText('The MCP server "fragile" is down');
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    await send(page, "hello");
    await expect(assistantMessages(page).last()).toContainText("answer from a script.");
  } finally {
    await fragile.stop();
  }
});
