// Two README claims of Settings → Tools, with the MCP project's own test server (server-everything): a server that
// speaks only the older SSE transport works (Fawn falls back to it), and past 30 tools the model gets tool_search
// instead of every schema, finds a tool with it and calls it.
import { expect, test, type Page } from "@playwright/test";
import { startEverything, type Everything } from "../mcp/everything.ts";
import {
  assistantMessages,
  configureEndpoint,
  conversation,
  editSettings,
  fromUser,
  mockLog,
  send,
  type MockLogEntry,
} from "./fixtures.ts";

let sse: Everything;
let streamable: Everything;

test.beforeAll(async () => {
  [sse, streamable] = await Promise.all([startEverything("sse"), startEverything("streamableHttp")]);
});

test.afterAll(async () => {
  await Promise.all([sse.stop(), streamable.stop()]);
});

/** Settings → Tools → Add server for each: named, its connection tested (its echo tool listed), saved together. */
async function addServers(page: Page, servers: { name: string; url: string }[]): Promise<void> {
  await editSettings(page, "Tools", async (dialog) => {
    for (const server of servers) {
      await dialog.getByRole("button", { name: "Add server" }).click();
      await dialog.getByRole("group", { name: "New server" }).getByRole("textbox", { name: "Name" }).fill(server.name);
      const group = dialog.getByRole("group", { name: server.name });
      await group.getByRole("textbox", { name: "URL", exact: true }).fill(server.url);
      await group.getByRole("button", { name: "Test connection" }).click();
      const tools = group.getByRole("list", { name: `Tools of ${server.name}` });
      await expect(tools.getByRole("switch", { name: "echo" })).toBeChecked();
    }
  });
}

const toolNames = (entry: MockLogEntry | undefined): string[] =>
  ((entry?.body.tools ?? []) as { function?: { name?: string } }[]).map((tool) => tool.function?.name ?? "");

test("a server that speaks only SSE, added in Settings → Tools, gives the agent its tools", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await addServers(page, [{ name: "oldstyle", url: sse.url }]);
  const key = crypto.randomUUID().slice(0, 8);
  await send(page, `call tool oldstyle_echo {"message":"over sse ${key}"}`);
  await expect(assistantMessages(page).last()).toContainText(`The tool returned: Echo: over sse ${key}`);
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).last()).toContainText(
    "Used echo on oldstyle",
  );
});

test("past 30 tools the model gets tool_search, finds a tool with it, and calls it", async ({ page }) => {
  test.setTimeout(process.env.CI ? 150_000 : 90_000);
  await page.goto("/");
  await configureEndpoint(page);
  // The same server under three names: over 30 tools.
  await addServers(
    page,
    ["many0", "many1", "many2"].map((name) => ({ name, url: streamable.url })),
  );
  const key = crypto.randomUUID().slice(0, 8);
  const search = `call tool tool_search {"query":"select:many2_echo"} ${key}`;
  await send(page, search);
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  await expect(assistantMessages(page).last()).toContainText("many2_echo");
  const searched = (await mockLog(page)).find((entry) => entry.scenario === "tool-call" && fromUser(entry, search));
  // The schemas wait behind tool_search: the request offers it and none of the servers' tools.
  expect(toolNames(searched)).toContain("tool_search");
  expect(toolNames(searched).filter((name) => name.startsWith("many"))).toEqual([]);

  const call = `call tool many2_echo {"message":"found ${key}"}`;
  await send(page, call);
  await expect(assistantMessages(page).last()).toContainText(`The tool returned: Echo: found ${key}`);
  const called = (await mockLog(page)).find((entry) => entry.scenario === "tool-call" && fromUser(entry, call));
  expect(toolNames(called)).toContain("many2_echo");
  expect(toolNames(called)).not.toContain("many0_echo");
});
