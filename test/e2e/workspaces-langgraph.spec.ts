// A workspace on `langgraphjs dev` serving Fawn's graph (its model the e2e mock): connected through Settings → Servers
// without a token, the status names it a LangGraph server and what it lacks; the sidebar's "Workspace" switches to
// it, a new thread's reply streams and ends, "Attach files" is dimmed with its reason (no REST routes: no uploads),
// and a reload comes back to the workspace and the thread.
import { expect, test } from "@playwright/test";
import { startLangGraphDev, type LangGraphDev } from "../server/langgraph-dev-harness.ts";
import { START_TIMEOUT_MS } from "./fawn-server-fixture.ts";
import { assistantMessages, closeSettings, conversation, MOCK_URL, openSettings, send } from "./fixtures.ts";

let dev: LangGraphDev;

test.beforeAll(async () => {
  test.setTimeout(START_TIMEOUT_MS);
  dev = await startLangGraphDev({ modelUrl: MOCK_URL });
});

test.afterAll(async () => {
  await dev?.stop();
});

test.use({ viewport: { width: 1280, height: 860 } });

test("a langgraphjs dev workspace: a reply streams, uploads say they are unavailable, a reload comes back", async ({
  page,
}) => {
  test.setTimeout(process.env.CI ? 120_000 : 60_000);
  await page.goto("/");
  const dialog = await openSettings(page, "Servers");
  const panel = dialog.getByRole("tabpanel", { name: "Servers" });
  await panel.getByRole("textbox", { name: "Server URL" }).fill(dev.url);
  await panel.getByRole("button", { name: "Connect", exact: true }).click();
  const name = dev.url.replace(/^https?:\/\//, "");
  await expect(panel.getByRole("status")).toContainText(
    new RegExp(
      `Connected to ${name} \\(LangGraph server[^)]*\\): threads and runs; uploads, .* not available there\\.`,
    ),
  );
  await closeSettings(page);

  const workspace = page.getByRole("combobox", { name: "Workspace" });
  await workspace.selectOption({ label: name });
  await expect(workspace.locator("option:checked")).toHaveText(name);
  await page.getByRole("button", { name: "New thread" }).click();
  // It lists no models: the welcome says the server's own model answers, not that one must be set up.
  await expect(page.locator(".welcome")).toContainText(`Using the model ${name} runs its agent with.`);
  await send(page, "hello");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(assistantMessages(page)).toContainText("Hello! I am Fawn's mock model.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 20_000 });
  await expect(assistantMessages(page)).toContainText("I will answer from a script.");
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);

  const attach = page.getByRole("button", { name: "Attach files" });
  await expect(attach).toHaveAttribute("aria-disabled", "true");
  await expect(attach).toHaveAttribute("title", `Uploads are not available on ${name}.`);

  const title = (await page.locator(".thread-title").textContent()) ?? "";
  expect(title).not.toBe("");
  await page.reload();
  await expect(workspace.locator("option:checked")).toHaveText(name);
  await expect(page.locator(".thread-title")).toHaveText(title);
  await expect(assistantMessages(page)).toContainText("I will answer from a script.");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(1);
  // No models route is no failure: the graph's own model answers (it once failed the workspace's load).
  await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
});
