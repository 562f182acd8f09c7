// What a reply offers besides its text: Copy (its Markdown as the model wrote it), Copy code on each code block, and
// Mermaid blocks drawn as diagrams (sanitized, with a Show source toggle) in replies and in a Markdown preview; and
// Settings keeping a tab's unsaved edits across tab switches, asking before they are dropped.
import { expect, test, type Page } from "@playwright/test";
import { DIAGRAM_TEXT, MARKDOWN_TEXT } from "../mock-llm/scenarios.ts";
import { assistantMessages, callTool, configureEndpoint, openPreview, openSettings, send } from "./fixtures.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("Copy puts a reply's Markdown on the clipboard, Copy code a code block's code", async ({ page }) => {
  await configureEndpoint(page);
  await send(page, "markdown");
  await runEnded(page);
  const reply = assistantMessages(page).last();
  await reply.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(reply.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await clipboard(page)).toBe(MARKDOWN_TEXT);

  await reply.getByRole("button", { name: "Copy code" }).click();
  expect(await clipboard(page)).toBe("export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}");
  // "Copied" goes away after a moment.
  await expect(reply.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(0);
});

test("a Copy the browser refuses says so", async ({ page, context }) => {
  await configureEndpoint(page);
  await send(page, "hello");
  await runEnded(page);
  await context.clearPermissions();
  await page.evaluate(() => {
    navigator.clipboard.writeText = () =>
      Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
  await assistantMessages(page).last().getByRole("button", { name: "Copy", exact: true }).click();
  await expect(assistantMessages(page).last().getByRole("alert")).toContainText("refused access to the clipboard");
});

test("a Mermaid block shows as a sanitized diagram with its source a click away; one that does not parse shows its source and why", async ({
  page,
}) => {
  await configureEndpoint(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  await send(page, "draw a diagram");
  await runEnded(page);
  const reply = assistantMessages(page).last();
  const diagram = reply.getByRole("img", { name: "Diagram" });
  await expect(diagram).toHaveCount(1);
  const svg = diagram.locator("svg");
  await expect(svg).toBeVisible();
  await expect(svg).toContainText("Ship it");
  // Nothing that runs or leads away: no script, no handler, no javascript: or external link.
  expect(await reply.locator("script, foreignObject").count()).toBe(0);
  // Every element, those in the diagrams' shadow roots included.
  const risky = await reply.evaluate((root) => {
    const all = (node: Element | ShadowRoot): Element[] =>
      [...node.querySelectorAll("*")].flatMap((element) => [
        element,
        ...(element.shadowRoot ? all(element.shadowRoot) : []),
      ]);
    return all(root).flatMap((element) =>
      [...element.attributes]
        .filter((attribute) => /^on/i.test(attribute.name) || /javascript:/i.test(attribute.value))
        .map((attribute) => `${element.localName} ${attribute.name}=${attribute.value}`),
    );
  });
  expect(risky).toEqual([]);
  // The diagram's source asked for theme CSS that hides Fawn's page: neither it nor mermaid's own styles reach it.
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
  expect(
    await page.evaluate(() => document.querySelectorAll(".mermaid-diagram svg, .mermaid-diagram style").length),
  ).toBe(0);
  expect(await svg.locator("a[href]:not([href^='#'])").count()).toBe(0);
  // The first block's source is hidden while its diagram shows.
  const first = reply.locator(".code-block").first();
  await expect(first.locator("pre")).toBeHidden();
  await first.getByRole("button", { name: "Show source" }).click();
  await expect(first.locator("pre")).toBeVisible();
  await expect(first.locator("pre")).toContainText("flowchart TD");
  await expect(diagram).toBeHidden();
  await first.getByRole("button", { name: "Show diagram" }).click();
  await expect(diagram).toBeVisible();
  await expect(first.locator("pre")).toBeHidden();
  // Copy code copies the diagram's source.
  await first.getByRole("button", { name: "Copy code" }).click();
  expect(await clipboard(page)).toContain('  A["Start <script>alert(1)</script>"] --> B{Ready?}');

  // The second one does not parse: its source, and one line saying why.
  const second = reply.locator(".code-block").nth(1);
  await expect(second.locator("pre")).toBeVisible();
  await expect(second.locator("pre")).toContainText("A --> --> B ((");
  await expect(second.locator(".mermaid-error")).toContainText("The diagram could not be drawn:");
  await expect(second.getByRole("button", { name: "Show source" })).toHaveCount(0);
  // Copy gives the reply as written, diagrams' sources included.
  await reply.getByRole("button", { name: "Copy", exact: true }).click();
  expect(await clipboard(page)).toBe(DIAGRAM_TEXT);
  expect(dialogs).toBe(0);
});

test("a Markdown preview draws its Mermaid blocks and offers Copy code", async ({ page }) => {
  await configureEndpoint(page);
  const path = "/mnt/user-data/outputs/flow.md";
  const content = "# Flow\n\n```mermaid\nsequenceDiagram\n  Alice->>Bob: Hi\n```\n\n```\nplain code\n```\n";
  await send(page, callTool("write_file", { path, content }));
  await runEnded(page);
  await send(page, callTool("present_files", { filepaths: [path] }));
  await runEnded(page);
  const preview = await openPreview(page, "flow.md");
  await expect(preview.getByRole("img", { name: "Diagram" }).locator("svg")).toContainText("Alice");
  await preview.getByRole("button", { name: "Copy code" }).last().click();
  expect(await clipboard(page)).toBe("plain code");
});

test("edits not saved in one Settings tab survive a switch to another; closing asks before dropping them", async ({
  page,
}) => {
  const dialog = await openSettings(page, "Models");
  const baseUrl = dialog.getByRole("textbox", { name: "Base URL", exact: true });
  await baseUrl.fill("http://127.0.0.1:9/draft/v1");
  await dialog.getByRole("tab", { name: "Web" }).click();
  await expect(dialog.getByRole("tabpanel", { name: "Web" })).toBeVisible();
  await dialog.getByRole("tab", { name: "Models" }).click();
  await expect(baseUrl).toHaveValue("http://127.0.0.1:9/draft/v1");

  // Closing asks; "Keep editing" keeps the dialog and the draft.
  await dialog.getByRole("button", { name: "Close settings" }).click();
  const unsaved = page.getByRole("dialog", { name: "Unsaved changes" });
  await expect(unsaved).toContainText("Changes in Models are not saved yet.");
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(unsaved).toBeHidden();
  await expect(baseUrl).toHaveValue("http://127.0.0.1:9/draft/v1");

  // Escape asks too; "Discard changes" closes, and the next opening starts from what is saved.
  await page.keyboard.press("Escape");
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toBeHidden();
  await openSettings(page, "Models");
  await expect(baseUrl).not.toHaveValue("http://127.0.0.1:9/draft/v1");

  // Saved edits close without a question, even when × follows Save at once (the close waits for the Save).
  await baseUrl.fill("http://127.0.0.1:9/saved/v1");
  await dialog.getByRole("combobox", { name: "Model", exact: true }).fill("mock-model");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(dialog).toBeHidden();
  await expect(unsaved).toBeHidden();
});

test("a step opened while its command runs stays open, with its output, once the run ends and the saved reply shows", async ({
  page,
}) => {
  await configureEndpoint(page);
  await send(page, callTool("bash", { command: "sleep 3; echo step-kept-open" }));
  const step = page
    .getByRole("log", { name: "Conversation" })
    .getByRole("list", { name: "Tool calls" })
    .getByRole("listitem")
    .filter({ hasText: "Ran sleep 3; echo step-kept-open" });
  await step.getByText("Ran sleep 3; echo step-kept-open").click();
  await expect(step.getByText("Tool: bash")).toBeVisible();
  await runEnded(page);
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  // The live reply has given way to the saved one by now; the step is still open and shows what the command printed.
  await expect(step.locator("details")).toHaveJSProperty("open", true);
  await expect(step.locator(".step-output")).toContainText("step-kept-open");
  // Opening another thread and coming back starts closed again: the memory is the open thread's.
  await page.getByRole("button", { name: "New thread" }).click();
  await page.getByRole("navigation", { name: "Threads" }).getByRole("link").first().click();
  await expect(step.locator(".step-output")).toBeHidden();
});
