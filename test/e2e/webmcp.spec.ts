// Agents in the browser (WebMCP): Chromium with WebMCP on lists Fawn's tools through Playwright's page.webmcp, and
// each call does what the page's control does, on screen: a thread started streams its reply in the conversation, a
// thread named opens, search finds what the search box finds, export downloads; the page's refusals hold.
import { expect, test } from "@playwright/test";
import { assistantMessages, configureEndpoint } from "./fixtures.ts";

test.use({
  launchOptions: {
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--enable-features=WebMCP"],
  },
});

interface ToolResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

// As the browser lists them: by name.
const TOOLS = ["export_thread", "list_threads", "open_thread", "search_threads", "send_message", "start_thread"];

test("an agent lists Fawn's tools and calls each: the page shows what it did", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await expect.poll(async () => (await page.webmcp.tools()).map((tool) => tool.name)).toEqual(TOOLS);
  const tools = await page.webmcp.tools();
  for (const tool of tools) {
    expect(tool.description.length, tool.name).toBeGreaterThan(40);
    expect(tool.inputSchema, tool.name).toMatchObject({ type: "object", additionalProperties: false });
  }
  expect(tools.filter((tool) => tool.annotations?.readOnly).map((tool) => tool.name)).toEqual([
    "list_threads",
    "open_thread",
    "search_threads",
  ]);
  const call = async (name: string, input: object) => {
    const result = (await page.webmcp.callTool(name, input as never)) as unknown as ToolResult;
    return { ...result, json: () => JSON.parse(result.content[0]!.text) as Record<string, unknown> };
  };

  // start_thread: New thread and Send; the reply streams in the conversation and is answered.
  const started = (await call("start_thread", { message: "first from an agent" })).json();
  expect(started).toMatchObject({ reply: "You said: first from an agent", status: "idle" });
  const firstId = started.thread_id as string;
  await expect(page).toHaveURL(new RegExp(`#/t/${firstId}$`));
  await expect(assistantMessages(page)).toHaveText(["You said: first from an agent"]);

  // send_message in the thread named, from the welcome page: the thread opens and gets the message.
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(assistantMessages(page)).toHaveCount(0);
  const sent = (await call("send_message", { thread_id: firstId, message: "zebra crossing" })).json();
  expect(sent).toMatchObject({ thread_id: firstId, reply: "You said: zebra crossing" });
  await expect(assistantMessages(page)).toHaveText(["You said: first from an agent", "You said: zebra crossing"]);

  // list_threads: the sidebar's threads.
  await call("start_thread", { message: "second thread" });
  const threads = page.getByRole("navigation", { name: "Threads" });
  await expect(threads.getByRole("link")).toHaveCount(2);
  const listed = (await call("list_threads", {})).json() as { threads: { thread_id: string; title: string }[] };
  expect(listed.threads.map((thread) => thread.title)).toEqual(await threads.getByRole("link").allInnerTexts());

  // search_threads: the threads the search box finds.
  const found = (await call("search_threads", { query: "zebra" })).json() as { threads: { thread_id: string }[] };
  expect(found.threads.map((thread) => thread.thread_id)).toEqual([firstId]);
  await threads.getByRole("searchbox", { name: "Search threads" }).fill("zebra");
  await expect(threads.getByRole("status")).toHaveText("1 matching thread.");
  await threads.getByRole("button", { name: "Clear search" }).click();

  // open_thread: the thread shows, and its messages are answered.
  const opened = (await call("open_thread", { thread_id: firstId })).json();
  await expect(page).toHaveURL(new RegExp(`#/t/${firstId}$`));
  await expect(assistantMessages(page)).toHaveCount(2);
  expect(opened.messages).toEqual([
    { role: "user", text: "first from an agent" },
    { role: "assistant", text: "You said: first from an agent" },
    { role: "user", text: "zebra crossing" },
    { role: "assistant", text: "You said: zebra crossing" },
  ]);

  // export_thread: the file downloads as Thread actions → Export's does, and the transcript is answered.
  const download = page.waitForEvent("download");
  const exported = (await call("export_thread", { thread_id: firstId, format: "markdown" })).json();
  expect((await download).suggestedFilename()).toBe(exported.file_name);
  expect(exported.text).toContain("You said: zebra crossing");

  // The page's refusals hold: an unknown thread, an input outside the schema.
  const unknown = await call("open_thread", { thread_id: "no-such-thread" });
  expect(unknown).toMatchObject({ isError: true, content: [{ text: "No thread has the id no-such-thread." }] });
  const bad = await call("send_message", { message: "" });
  expect(bad.isError).toBe(true);
  await expect(assistantMessages(page)).toHaveCount(2);
});
