// The proxy's token, end to end: `npm run proxy` itself (tsx proxy/server.ts, spawned with a home of its own) makes
// its token file; the user pastes the token into Settings → Web beside the proxy's address, and a model endpoint
// marked "Use the proxy" and an MCP server on the proxy's stdio bridge work. A wrong token reads as "Fawn's proxy
// needs its token", in the conversation and in Settings → Tools.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { EVERYTHING } from "../mcp/everything.ts";
import { assistantMessages, conversation, editSettings, MOCK_URL, openSettings, send } from "./fixtures.ts";

const APP_ORIGIN = `http://127.0.0.1:${process.env.E2E_APP_PORT ?? 4173}`;

let home: string;
let cli: ChildProcess;
let proxyUrl: string;
let tokenFile: string;

test.beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), "fawn-e2e-proxy-"));
  const config = path.join(home, "fawn-mcp.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [path.resolve(EVERYTHING), "stdio"] } },
    }),
  );
  const { FAWN_PROXY_TOKEN_FILE: _file, XDG_CONFIG_HOME: _xdg, ...env } = process.env;
  cli = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "proxy/server.ts"], {
    env: {
      ...env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      FAWN_PROXY_PORT: "0",
      FAWN_APP_ORIGIN: APP_ORIGIN,
      FAWN_PROXY_MCP_CONFIG: config,
      // The mock model listens on loopback, which the proxy reaches only when its host:port is listed.
      FAWN_PROXY_TARGETS: `*,${new URL(MOCK_URL).host}`,
      FAWN_PROXY_QUIET: "1",
    },
  });
  let out = "";
  cli.stdout?.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  cli.stderr?.resume();
  await expect.poll(() => /MCP servers from /.test(out), { timeout: 20_000 }).toBe(true);
  proxyUrl = /Fawn proxy on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1] as string;
  tokenFile = /Token: (\S+) \(made now\)/.exec(out)?.[1] as string;
  expect(tokenFile).toBe(path.join(home, ".config", "fawn-proxy", "token"));
  expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
});

test.afterAll(async () => {
  const exited = new Promise((resolve) => cli.once("exit", resolve));
  cli.kill("SIGTERM");
  await exited;
  rmSync(home, { recursive: true, force: true });
});

/** Settings → Web: the proxy's address and `token`. */
async function setProxy(page: Page, token: string): Promise<void> {
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("textbox", { name: "Proxy URL" }).fill(`${proxyUrl}/forward/`);
    await dialog.getByRole("textbox", { name: "Proxy token" }).fill(token);
  });
}

/** Settings → Models: the mock model, reached through the proxy. */
async function proxiedEndpoint(page: Page): Promise<void> {
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(MOCK_URL);
    await dialog.getByRole("textbox", { name: "API key", exact: true }).fill("sk-test-key");
    await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("mock-model");
    await dialog.getByRole("checkbox", { name: "Use the proxy" }).check();
  });
}

/** Settings → Tools → Add server at the proxy's bridge, and Test connection; returns the server's group. */
async function testBridge(page: Page) {
  const dialog = await openSettings(page, "Tools");
  await dialog.getByRole("button", { name: "Add server" }).click();
  await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill("local");
  const group = dialog.getByRole("group", { name: "local" });
  await group.getByRole("textbox", { name: "URL", exact: true }).fill(`${proxyUrl}/mcp/everything`);
  await group.getByRole("button", { name: "Test connection" }).click();
  return group;
}

test("with the token from the proxy's file in Settings → Web, a proxied model and the stdio bridge work", async ({
  page,
}) => {
  await page.goto("/");
  await setProxy(page, readFileSync(tokenFile, "utf8").trim());
  await proxiedEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toContainText("Hello! I am Fawn's mock model.");

  const group = await testBridge(page);
  await expect(group.getByRole("list", { name: "Tools of local" }).getByRole("switch", { name: "echo" })).toBeChecked();
});

test("a wrong token says the proxy needs its token, in the conversation and in Settings → Tools", async ({ page }) => {
  await page.goto("/");
  await setProxy(page, "a-wrong-token-0123456789abcdefABCDEF");
  await proxiedEndpoint(page);
  await send(page, "hello");
  const alert = conversation(page).getByRole("alert");
  await expect(alert).toContainText(
    "Fawn's proxy needs its token: the request carried no token or a wrong one. Paste the token from the proxy's " +
      `token file (${tokenFile}) into Settings → Web → Proxy token.`,
  );
  await expect(alert).not.toContainText("a-wrong-token");

  const group = await testBridge(page);
  await expect(group).toContainText('The MCP server "local" cannot be used: Fawn\'s proxy needs its token');
});
