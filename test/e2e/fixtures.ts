// Shared steps for the end-to-end tests, written against the UI contract of docs/architecture.md#ui-contract.
import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Locator, type Page } from "@playwright/test";

export const MOCK_URL = `http://127.0.0.1:${process.env.E2E_MOCK_PORT ?? 11436}/v1`;

/** Clicks "Settings": in the sidebar, or on a phone in the drawer that "Show threads" opens. */
export async function clickSettings(page: Page): Promise<void> {
  const settings = page.getByRole("button", { name: "Settings", exact: true });
  const menu = page.getByRole("button", { name: "Show threads" });
  await expect(settings.or(menu).first()).toBeVisible();
  if (!(await settings.isVisible())) await menu.click();
  await settings.click();
}

/** Opens Settings on `tab`, lets `fill` change it, saves, waits for "Saved." and closes the dialog. */
export async function editSettings(page: Page, tab: string, fill: (dialog: Locator) => Promise<void>): Promise<void> {
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("tab", { name: tab, exact: true }).click();
  await fill(dialog);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Thread actions → Delete, answered in its dialog: "Delete" confirms, else "Cancel". The dialog names the thread,
 * `title`, when given.
 */
export async function deleteThread(page: Page, options: { title?: string; confirm?: boolean } = {}): Promise<void> {
  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete thread?" });
  await expect(dialog).toBeVisible();
  if (options.title !== undefined) await expect(dialog).toContainText(`Delete "${options.title}"`);
  await dialog.getByRole("button", { name: options.confirm === false ? "Cancel" : "Delete" }).click();
  await expect(dialog).toBeHidden();
}

/** Settings → Models: the mock (or `baseUrl`) as the endpoint, its model; `thinking` marks the model Thinking. */
export async function configureEndpoint(
  page: Page,
  endpoint: { baseUrl?: string; apiKey?: string; model?: string; thinking?: boolean } = {},
): Promise<void> {
  const model = endpoint.model ?? "mock-model";
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(endpoint.baseUrl ?? MOCK_URL);
    await dialog.getByRole("textbox", { name: "API key", exact: true }).fill(endpoint.apiKey ?? "sk-test-key");
    await dialog.getByRole("combobox", { name: "Model", exact: true }).fill(model);
    if (endpoint.thinking) {
      await dialog.getByRole("group", { name: model }).getByRole("checkbox", { name: "Thinking", exact: true }).check();
    }
  });
}

/** A message the mock model answers with a call of `name` (every sandbox tool takes a `description`). */
export function callTool(name: string, args: Record<string, unknown>): string {
  return `call tool ${name} ${JSON.stringify({ description: "e2e", ...args })}`;
}

/** A message the mock model answers with several calls at once. */
export function callTools(calls: [string, Record<string, unknown>][]): string {
  return `call tools ${calls.map(([name, args]) => `${name} ${JSON.stringify({ description: "e2e", ...args })}`).join("; ")}`;
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

export function conversation(page: Page) {
  return page.getByRole("log", { name: "Conversation" });
}

export function assistantMessages(page: Page) {
  return conversation(page).getByRole("article", { name: "Assistant message" });
}

// The Terminal panel (xterm in screen-reader mode, so its rows are in the accessibility tree).

export function terminal(page: Page) {
  return page.getByRole("region", { name: "Terminal" });
}

/** The terminal's visible rows, as its accessibility tree (xterm's screen reader mode) exposes them. */
export function rows(page: Page) {
  return terminal(page).getByRole("listitem");
}

/** Rows whose whole text is `text`, give or take trailing blanks (the prompt ends with one). */
export function rowsReading(page: Page, text: string) {
  return rows(page).filter({ hasText: wholeRow(text) });
}

export function wholeRow(text: string): RegExp {
  return new RegExp(`^${escapeRegExp(text)}\\s*$`);
}

/** A prompt with nothing typed after it. */
export const EMPTY_PROMPT = /\$\s*$/;

/** The last row with text: the prompt, or the line being typed. */
export function lastRow(page: Page) {
  return rows(page).filter({ hasText: /\S/ }).last();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export async function openTerminal(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Terminal", exact: true });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(terminal(page)).toBeVisible();
  // The first prompt shows once the sandbox has answered.
  await expect(lastRow(page)).toHaveText(EMPTY_PROMPT, { timeout: 20_000 });
  await terminal(page).getByRole("textbox", { name: "Terminal input" }).focus();
}

/** Types a command line, presses Enter, and waits for the next prompt. */
export async function runInTerminal(page: Page, command: string): Promise<void> {
  await page.keyboard.type(command);
  // Rows are cut at the terminal's width; their text joined is what was typed.
  await expect(terminal(page).getByRole("list")).toContainText(command);
  await page.keyboard.press("Enter");
  await expect(lastRow(page)).toHaveText(EMPTY_PROMPT, { timeout: 30_000 });
}

// What the mock model was sent (GET /__mock/requests), for tests that check the prompt.

interface MockRequest {
  body: { messages?: { role: string; content: unknown }[] };
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("\n");
}

/** One request in the mock model's log, as GET /__mock/requests serves it (test/mock-llm/server.ts). */
export interface MockLogEntry {
  path: string;
  body: { model?: string; messages?: { role: string; content: unknown }[] } & Record<string, unknown>;
  scenario: string | null;
  disconnected: boolean;
  /** The HTTP status it was answered with; null while unanswered. */
  status: number | null;
}

/** The mock model's request log, whole, in arrival order. */
export async function mockLog(page: Page): Promise<MockLogEntry[]> {
  const response = await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`);
  return (await response.json()) as MockLogEntry[];
}

/** Whether a logged request's messages include a user message containing `text`. */
export function fromUser(entry: MockLogEntry, text: string): boolean {
  return (entry.body.messages ?? []).some(
    (message) => message.role === "user" && messageText(message.content).includes(text),
  );
}

/** The marker of Fawn's follow-up suggestions prompt (src/agent/suggestions.ts). */
export const SUGGESTIONS_MARKER = "You propose follow-up questions for Fawn's user.";

/**
 * The chat requests the mock model got, each as role/text pairs, in arrival order. Follow-up suggestion requests,
 * which quote the conversation after every reply, are left out unless `suggestions` asks for them.
 */
export async function mockRequests(
  page: Page,
  options: { suggestions?: boolean } = {},
): Promise<{ role: string; text: string }[][]> {
  const response = await page.request.get(`${new URL(MOCK_URL).origin}/__mock/requests`);
  const requests = (await response.json()) as MockRequest[];
  return requests
    .map((request) =>
      (request.body.messages ?? []).map((message) => ({ role: message.role, text: messageText(message.content) })),
    )
    .filter(
      (messages) =>
        options.suggestions === true ||
        !messages.some((message) => message.role === "system" && message.text.includes(SUGGESTIONS_MARKER)),
    );
}

/** The marker of Fawn's memory-update prompt (src/agent/memory/memory-prompt.ts). */
const MEMORY_UPDATE_MARKER = "You maintain Fawn's long-term memory of the user.";

/**
 * The system prompt of the latest agent request whose user messages include `userText` (memory updates, which
 * quote the conversation, are left out).
 */
export async function systemPromptFor(page: Page, userText: string): Promise<string> {
  const requests = await mockRequests(page);
  const request = requests.findLast(
    (messages) =>
      messages.some((message) => message.role === "user" && message.text.includes(userText)) &&
      !messages.some((message) => message.role === "system" && message.text.includes(MEMORY_UPDATE_MARKER)),
  );
  if (!request) throw new Error(`The mock model got no request with the user message ${JSON.stringify(userText)}`);
  return request
    .filter((message) => message.role === "system")
    .map((message) => message.text)
    .join("\n");
}

/** Opens Settings on `tab` and returns the dialog (close it with closeSettings). */
export async function openSettings(page: Page, tab: string): Promise<Locator> {
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  // Exact: "Subagents" holds "Agents".
  await dialog.getByRole("tab", { name: tab, exact: true }).click();
  return dialog;
}

export async function closeSettings(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(dialog).toBeHidden();
}

// Previews (the Artifacts region's preview dialog).

/** Opens a presented file's preview from the Artifacts region; returns the dialog. */
export async function openPreview(page: Page, name: string): Promise<Locator> {
  await page
    .getByRole("region", { name: "Artifacts" })
    .getByRole("button", { name: `Preview ${name}`, exact: true })
    .click();
  const dialog = page.getByRole("dialog", { name: `Preview: ${name}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * The page an HTML preview shows: inside Fawn's frame document ("HTML preview", frames/preview.html), the sandboxed
 * child frame that runs it.
 */
export function htmlPage(dialog: Locator) {
  return dialog.frameLocator('iframe[title="HTML preview"]').frameLocator("iframe");
}

/** Sets up the mock model, says "hello", then reloads offline: the thread and its message are still there. */
export async function chatThenReopenOffline(page: Page, context: BrowserContext): Promise<void> {
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Threads" }).getByRole("link", { name: "hello" })).toBeVisible();
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveText("hello");
}

// Accessibility (axe-core).

/** The WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA: what axe checks on every state the tests visit. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/**
 * Runs axe on the page as it is now and fails listing each violation (rule, impact, element), `label` naming the
 * state. The pages inside HTML preview frames are the model's, not Fawn's, and are left out.
 */
export async function expectNoA11yViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).exclude('iframe[title="HTML preview"]').analyze();
  const found = results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact ?? "?"}) at ${node.target.join(" ")}: ${violation.help}`,
    ),
  );
  expect(found, `accessibility violations: ${label}`).toEqual([]);
}

// Waits on the state itself, not on time: what IndexedDB holds, and when the page has finished loading what it shows.

/**
 * How many records of `store` in Fawn's IndexedDB hold every one of `needles` (in a string, or in bytes read as
 * UTF-8, as checkpoints keep messages). The app must have made the database (opening it first makes an empty one).
 */
export async function storedMentions(page: Page, store: string, needles: string[]): Promise<number> {
  return page.evaluate(
    async ([name, words]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open("fawn");
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const texts = (value: unknown): string[] => {
        if (typeof value === "string") return [value];
        if (value instanceof Uint8Array) return [new TextDecoder().decode(value)];
        if (Array.isArray(value)) return value.flatMap(texts);
        if (value && typeof value === "object") return Object.values(value).flatMap(texts);
        return [];
      };
      const records = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(name, "readonly").objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return records.filter((record) => {
        const text = texts(record).join("\n");
        return words.every((word) => text.includes(word));
      }).length;
    },
    [store, needles] as const,
  );
}

/**
 * Waits until the model's message calling a tool with `argument` in its arguments is saved in a checkpoint: from
 * then on the tool runs, and a thread cut off reopens at that step.
 */
export async function toolCallSaved(page: Page, argument: string): Promise<void> {
  await expect
    .poll(() => storedMentions(page, "checkpoint_messages", ["AIMessage", "tool_calls", argument]), {
      message: `a saved tool call with ${argument}`,
    })
    .toBeGreaterThan(0);
}

/** The runs Fawn's IndexedDB holds (each thread's run records), in no particular order. */
export async function storedRuns(page: Page): Promise<{ thread_id: string; status: string; kind?: string }[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const runs = await new Promise<{ thread_id: string; status: string; kind?: string }[]>((resolve, reject) => {
      const request = db.transaction("runs", "readonly").objectStore("runs").getAll();
      request.onsuccess = () => resolve(request.result as { thread_id: string; status: string; kind?: string }[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return runs.map(({ thread_id, status, kind }) => ({ thread_id, status, ...(kind && { kind }) }));
  });
}

/**
 * Waits until the page has handled everything it shows: every image in the document and its same-origin frames is
 * complete (loaded or failed, so its load or error handler has run), fonts are ready, and two frames were drawn.
 * What a "nothing ran, nothing was fetched" check waits for instead of a fixed time.
 */
export async function pageSettled(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const documents = [document];
        for (const frame of document.querySelectorAll("iframe")) {
          try {
            if (frame.contentDocument) documents.push(frame.contentDocument);
          } catch {
            // Another origin's frame: its own loads are its own.
          }
        }
        return documents.every((doc) => [...doc.images].every((image) => image.complete));
      }),
    )
    .toBe(true);
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}
