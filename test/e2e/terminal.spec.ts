// The Terminal panel: a thread's sandbox from the keyboard. Output, the working directory carried between
// commands, history, files kept across a reload, a runaway loop stopped, and a path outside the sandbox refused.
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  configureEndpoint,
  EMPTY_PROMPT,
  lastRow,
  openTerminal,
  rows,
  rowsReading,
  runInTerminal as run,
  send,
  terminal,
  wholeRow,
} from "./fixtures.ts";

const WORKSPACE_PROMPT = "/mnt/user-data/workspace $";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, "hello");
  await expect(assistantMessages(page)).toContainText("answer from a script.");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

test("runs commands in the thread's sandbox, carries the working directory, recalls history, keeps files", async ({
  page,
}) => {
  await openTerminal(page);
  await expect(rowsReading(page, WORKSPACE_PROMPT)).toHaveCount(1);

  await run(page, "echo hello > /mnt/user-data/outputs/t.txt && cat /mnt/user-data/outputs/t.txt");
  await expect(rowsReading(page, "hello")).toHaveCount(1);

  await run(page, "cd /mnt/user-data/outputs");
  await run(page, "pwd");
  await expect(rowsReading(page, "/mnt/user-data/outputs")).toHaveCount(1);
  await expect(lastRow(page)).toHaveText(wholeRow("/mnt/user-data/outputs $"));

  await page.keyboard.press("ArrowUp");
  await expect(rowsReading(page, "/mnt/user-data/outputs $ pwd")).toHaveCount(2);
  await page.keyboard.press("ArrowUp");
  await expect(rows(page).filter({ hasText: /cd \/mnt\/user-data\/outputs\s*$/ })).toHaveCount(2);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(rowsReading(page, "/mnt/user-data/outputs")).toHaveCount(2);

  await page.reload();
  await expect(page.getByRole("heading", { name: "hello" })).toBeVisible();
  await openTerminal(page);
  await run(page, "cat /mnt/user-data/outputs/t.txt");
  await expect(rowsReading(page, "hello")).toHaveCount(1);
});

test("Ctrl+C cancels a running command, a runaway loop is stopped, and the next command works", async ({ page }) => {
  await openTerminal(page);
  await page.keyboard.type("sleep 30");
  await page.keyboard.press("Enter");
  await expect(terminal(page).getByRole("status")).toHaveText(/Running/);
  await page.keyboard.press("Control+c");
  await expect(rowsReading(page, "Command cancelled.")).toHaveCount(1);
  await expect(lastRow(page)).toHaveText(EMPTY_PROMPT);
  await expect(terminal(page).getByRole("status")).toHaveText("");

  // The sandbox's execution limits end the loop without a Ctrl+C.
  await run(page, "while true; do :; done");
  await expect(rows(page).filter({ hasText: /^Command stopped/ })).toHaveCount(1);
  await run(page, "echo still here");
  await expect(rowsReading(page, "still here")).toHaveCount(1);
});

test("non-ASCII text is typed, run and shown", async ({ page }) => {
  await openTerminal(page);
  await run(page, "echo 'naïve café 你好'");
  await expect(rowsReading(page, "naïve café 你好")).toHaveCount(1);
});

test("a path that climbs out of the sandbox is refused with an error", async ({ page }) => {
  await openTerminal(page);
  await run(page, "cat /mnt/user-data/../../x");
  await expect(rows(page).filter({ hasText: /^cat: .*(No such file|not allowed|outside|denied)/i })).toHaveCount(1);
  await run(page, "echo ok");
  await expect(rowsReading(page, "ok")).toHaveCount(1);
});

test("each thread keeps its own terminal while switching threads", async ({ page }) => {
  await openTerminal(page);
  await run(page, "cd /mnt/user-data/outputs");
  const threads = page.getByRole("navigation", { name: "Threads" });
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, "second");
  await expect(assistantMessages(page)).toContainText("You said: second");
  await expect(terminal(page)).toBeVisible();
  await expect(rowsReading(page, WORKSPACE_PROMPT)).toHaveCount(1, { timeout: 20_000 });

  await threads.getByRole("link", { name: "hello" }).click();
  await expect(lastRow(page)).toHaveText(wholeRow("/mnt/user-data/outputs $"));
  await page.getByRole("button", { name: "Terminal", exact: true }).click();
  await expect(terminal(page)).toHaveCount(0);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the terminal spans the screen's width and runs commands", async ({ page }) => {
    await openTerminal(page);
    const box = await terminal(page).boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(389);
    await run(page, "echo phone");
    await expect(rowsReading(page, "phone")).toHaveCount(1);

    const handle = terminal(page).getByRole("separator", { name: "Resize terminal" });
    const before = Number(await handle.getAttribute("aria-valuenow"));
    await handle.focus();
    await page.keyboard.press("ArrowUp");
    await expect.poll(async () => Number(await handle.getAttribute("aria-valuenow"))).toBeGreaterThan(before);
  });
});

test("python3 alone says the interactive interpreter is not available and how to run Python instead", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openTerminal(page);
  const screen = terminal(page).getByRole("list");
  await run(page, "python3");
  await expect(screen).toContainText("The interactive Python interpreter is not available here.");
  await expect(screen).toContainText("python3 file.py");
  const notes = rows(page).filter({ hasText: "interactive Python" });
  const once = await notes.count();
  expect(once).toBeGreaterThan(0);
  await run(page, "python -q");
  await expect(notes).toHaveCount(once * 2);
  // A program still runs: given with -c, or piped in.
  await run(page, "python3 -c 'print(6 * 7)'");
  await expect(rowsReading(page, "42")).toHaveCount(1);
  await run(page, "echo 'print(5 * 5)' | python3");
  await expect(rowsReading(page, "25")).toHaveCount(1);
});
