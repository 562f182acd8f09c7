// "On this device": a GGUF model kept in the browser and run by llama.cpp (wllama) in a worker, no key and no
// network. The model is test/gguf/scripted-model.ts: a real llama architecture, tokenizer and chat template whose
// replies are known in advance, loaded through the same path a user's file takes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  ANSWER_TEXT,
  MALFORMED_ARGUMENTS,
  SCRIPTED_CONTEXT,
  scriptedModelGguf,
  THINKING_TEXT,
  TOOL_CALL_OUTPUT,
} from "../gguf/scripted-model.ts";
import { assistantMessages, clickSettings, conversation, send } from "./fixtures.ts";

const MODEL_NAME = "fawn-scripted.gguf";
const model = Buffer.from(scriptedModelGguf());

/** Settings → Models on an endpoint switched to "On this device". */
async function deviceSettings(page: Page): Promise<Locator> {
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Models", exact: true }).click();
  await dialog.getByRole("combobox", { name: "Provider" }).selectOption({ label: "On this device" });
  return dialog;
}

/** Chooses the scripted model from "disk" (under `name`), saves, and closes Settings. */
async function chooseScriptedModel(page: Page, name = MODEL_NAME): Promise<void> {
  const dialog = await deviceSettings(page);
  const chooser = page.waitForEvent("filechooser");
  await dialog.getByRole("button", { name: "Choose model file" }).click();
  await (await chooser).setFiles({ name, mimeType: "application/octet-stream", buffer: model });
  await expect(dialog.getByText(`${name} is kept in this browser`)).toBeVisible();
  // The scripted model's tokenizer spells most text byte by byte: Fawn's prompt is about 18,000 of its tokens.
  await dialog
    .getByRole("group", { name })
    .getByRole("textbox", { name: "Context window" })
    .fill(String(SCRIPTED_CONTEXT));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close settings" }).click();
}

/**
 * The last tool step ran the scripted command, and its details show the output only running it gives. The model's
 * first choice for the call's arguments was not JSON: llama.cpp's grammar held it to the tool's schema.
 */
async function expectToolRan(page: Page): Promise<void> {
  const steps = conversation(page).getByRole("list", { name: "Tool calls" }).last();
  await expect(steps).toContainText("Ran echo tiny-model-ran");
  await steps.locator("summary").last().click();
  await expect(steps).toContainText(TOOL_CALL_OUTPUT);
  await expect(conversation(page)).not.toContainText(MALFORMED_ARGUMENTS);
}

test.describe("On this device", () => {
  test("a model file from disk streams a reply, stops, and calls a tool that runs in the sandbox", async ({ page }) => {
    test.slow();
    await page.goto("/");
    await chooseScriptedModel(page);

    // What the run shows before the first word, recorded as it comes (each stage may pass quickly here).
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { progressSeen: string[] }).progressSeen = []);
      new MutationObserver(() => {
        const text = document.querySelector(".run-progress [role=status]")?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    // Its script for a message asking to stream: "la la la…" with no end, until Stop.
    await send(page, "please stream");
    const streaming = assistantMessages(page).last();
    await expect(streaming).toContainText("la la la la", { timeout: 60_000 });
    // The model's load and its reading of the prompt (about 18,000 tokens, 128 a step) were told, then gave way.
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen[0]).toBe("Loading the model on this device…");
    const reading = seen.filter((text) => text.startsWith("Reading the conversation: "));
    const counts = reading.map((text) => {
      const [, processed, total] = /^Reading the conversation: ([\d,]+) of ([\d,]+) tokens \(\d+%\)…$/.exec(text)!;
      return [processed, total].map((count) => Number(count!.replaceAll(",", "")));
    });
    expect(counts.length).toBeGreaterThan(10);
    expect(counts.every(([, total]) => total === counts[0]![1] && total! > 15_000)).toBe(true);
    expect(counts.map(([processed]) => processed)).toEqual(
      counts.map(([processed]) => processed).sort((a, b) => a! - b!),
    );
    expect(counts.at(-1)![0]! / counts.at(-1)![1]!).toBeGreaterThan(0.9);
    await expect(page.locator(".run-progress")).toHaveCount(0);
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    const stopped = (await streaming.textContent()) ?? "";
    await page.waitForTimeout(1_000);
    expect(await streaming.textContent()).toBe(stopped);

    // Any other message: a call of bash, valid only through llama.cpp's grammar, whose output the model cannot know
    // without running it.
    await send(page, "run the scripted command");
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 60_000 });
    await expectToolRan(page);
  });

  test("a thread's message waits, and says so, while the model answers another thread; it runs once that one stops", async ({
    page,
  }) => {
    test.slow();
    await page.goto("/");
    await chooseScriptedModel(page);
    await send(page, "please stream");
    await expect(assistantMessages(page).last()).toContainText("la la la", { timeout: 60_000 });

    // Another thread, while the first one's reply goes on without end.
    await page.getByRole("button", { name: "New thread" }).click();
    await send(page, "run the scripted command");
    await expect(
      page.getByRole("status").filter({ hasText: "The model on this device is busy with another reply" }),
    ).toBeVisible();

    const threads = page.getByRole("navigation", { name: "Threads" });
    await threads.getByRole("link", { name: "please stream" }).click();
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    // The list moves the thread that runs to the top: the row is clicked once it stays put.
    await expect(threads.getByRole("link").first()).toHaveAccessibleName(/run the scripted command/);
    await threads.getByRole("link", { name: "run the scripted command" }).click();
    await expect(conversation(page).getByText("run the scripted command", { exact: true }).first()).toBeVisible();
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 60_000 });
    await expectToolRan(page);
  });

  test("a Qwen 3 file thinks in the Thinking mode and not in Flash: its chat template's switch, set by the mode", async ({
    page,
  }) => {
    test.slow();
    await page.goto("/");
    // Named as Qwen 3's files are: its reasoning switch is the chat template's enable_thinking, and it is marked
    // Thinking when kept. The scripted model thinks only when the request's template arguments switch it on.
    const name = "qwen3-fawn-scripted.gguf";
    await chooseScriptedModel(page, name);
    const modes = page.getByRole("radiogroup", { name: "Mode" });

    await modes.getByRole("radio", { name: "Thinking" }).check();
    await send(page, "run the scripted command, thinking first");
    const thought = assistantMessages(page).filter({ hasText: "Reasoning" });
    await expect(thought).toHaveCount(1, { timeout: 60_000 });
    await thought.getByText("Reasoning").click();
    await expect(thought).toContainText(THINKING_TEXT);
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 60_000 });
    await expectToolRan(page);
    // The thinking is the reasoning's, not the reply's text.
    await expect(conversation(page).getByText("<think>")).toHaveCount(0);

    await modes.getByRole("radio", { name: "Flash" }).check();
    await send(page, "run the scripted command again, quickly");
    await expect(conversation(page).getByRole("list", { name: "Tool calls" })).toHaveCount(2, { timeout: 60_000 });
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 60_000 });
    await expect(assistantMessages(page).filter({ hasText: "Reasoning" })).toHaveCount(1);
  });

  test("a model URL downloads with a progress bar and Cancel; a file that is not GGUF is refused; Remove deletes", async ({
    page,
  }) => {
    const server = await slowServer();
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await page.goto("/");
      const dialog = await deviceSettings(page);
      await expect(dialog.getByText("No model file is kept yet")).toBeVisible();

      await dialog.getByRole("textbox", { name: "Model URL" }).fill(`${base}/not-a-model.gguf`);
      await dialog.getByRole("button", { name: "Download", exact: true }).click();
      await expect(
        dialog.getByText('not-a-model.gguf is not a GGUF model file (it does not start with "GGUF").'),
      ).toBeVisible();
      await expect(dialog.getByText("No model file is kept yet")).toBeVisible();

      // Cancel while it comes: nothing is kept.
      await dialog.getByRole("textbox", { name: "Model URL" }).fill(`${base}/${MODEL_NAME}`);
      await dialog.getByRole("button", { name: "Download", exact: true }).click();
      await expect(dialog.getByRole("progressbar", { name: "Model download" })).toBeVisible();
      await dialog.getByRole("button", { name: "Cancel", exact: true }).click();
      await expect(dialog.getByText("The model file was not kept: cancelled.")).toBeVisible();
      await expect(dialog.getByText("No model file is kept yet")).toBeVisible();

      await dialog.getByRole("button", { name: "Download", exact: true }).click();
      await expect(dialog.getByRole("progressbar", { name: "Model download" })).toBeVisible();
      await expect(dialog.getByText(`${MODEL_NAME} is kept in this browser`)).toBeVisible({ timeout: 30_000 });
      await expect(dialog.getByRole("progressbar", { name: "Model download" })).toBeHidden();
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.getByText("Saved.")).toBeVisible();

      // Kept across a reload, then removed.
      await page.reload();
      const again = await deviceSettings(page);
      await again.getByRole("button", { name: `Remove ${MODEL_NAME}` }).click();
      await expect(again.getByText(`${MODEL_NAME} was deleted from this browser.`)).toBeVisible();
      await expect(again.getByText("No model file is kept yet")).toBeVisible();
    } finally {
      server.close();
    }
  });
});

test.describe("On this device, offline", () => {
  // What the service worker keeps: wllama and its WebAssembly, cached when the model first answered.
  test.use({ serviceWorkers: "allow" });

  test("with the model kept and used once, the agent answers and runs its tool with the network off", async ({
    page,
    context,
  }) => {
    test.slow();
    await page.goto("/");
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    await chooseScriptedModel(page);
    await send(page, "run the scripted command");
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 60_000 });
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

    await context.setOffline(true);
    await page.reload();
    await send(page, "run it again, offline");
    await expect(assistantMessages(page).last()).toContainText(ANSWER_TEXT, { timeout: 90_000 });
    await expectToolRan(page);
    await context.setOffline(false);
  });
});

/** Serves the scripted model slowly (so its progress shows) and a file that is not a model, with CORS. */
function slowServer(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((request, response) => {
      const body = request.url?.endsWith(`/${MODEL_NAME}`) ? model : Buffer.from("<html>not a model</html>");
      response.writeHead(200, {
        "access-control-allow-origin": "*",
        "content-type": "application/octet-stream",
        "content-length": String(body.length),
      });
      const pieces = 20;
      let sent = 0;
      const step = Math.ceil(body.length / pieces);
      const next = (): void => {
        if (sent >= body.length) {
          response.end();
          return;
        }
        response.write(body.subarray(sent, sent + step));
        sent += step;
        setTimeout(next, 100);
      };
      next();
    });
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
