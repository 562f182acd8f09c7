// The agent's sandbox in a real browser: bash and python3 through the mock model, files that survive a reload,
// runaway commands stopped, and paths outside the sandbox refused.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  callTools,
  configureEndpoint,
  conversation,
  openTerminal,
  rowsReading,
  runInTerminal,
  send,
  toolCallSaved,
} from "./fixtures.ts";

const HELLO_REPLY = "Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.";

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
  await configureEndpoint(page);
});

test("the agent writes a report with bash; it is still there after a reload", async ({ page }) => {
  await send(
    page,
    callTool("bash", {
      command: "echo '# Quarterly report' > /mnt/user-data/outputs/report.md && wc -c /mnt/user-data/outputs/report.md",
    }),
  );
  await expect(assistantMessages(page).last()).toContainText("The tool returned: 19 /mnt/user-data/outputs/report.md");
  await runEnded(page);
  await page.reload();
  await openTerminal(page);
  await runInTerminal(page, "cat /mnt/user-data/outputs/report.md");
  await expect(rowsReading(page, "# Quarterly report")).toHaveCount(1);
  await send(page, callTool("bash", { command: "cat /mnt/user-data/outputs/report.md" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: # Quarterly report");
});

test("present_files puts the report in Artifacts, and Download saves it", async ({ page }) => {
  await send(page, callTool("bash", { command: "echo '# Findings' > /mnt/user-data/outputs/report.md" }));
  await runEnded(page);
  await send(page, 'call tool present_files {"filepaths":["/mnt/user-data/outputs/report.md"]}');
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  await expect(artifacts).toContainText("report.md");
  const saving = page.waitForEvent("download");
  await artifacts.getByRole("button", { name: "Download report.md" }).click();
  const saved = await saving;
  expect(saved.suggestedFilename()).toBe("report.md");
  const stream = await saved.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString("utf8")).toBe("# Findings\n");
  await runEnded(page);
  await page.reload();
  await expect(page.getByRole("region", { name: "Artifacts" })).toContainText("report.md");
});

test("`while true; do :; done` is stopped with a message that says so, and the thread stays usable", async ({
  page,
}) => {
  await send(page, callTool("bash", { command: "while true; do :; done" }));
  await expect(assistantMessages(page).last()).toContainText("Command stopped: it exceeded the sandbox", {
    timeout: 30_000,
  });
  await runEnded(page);
  await send(page, "hello");
  await expect(assistantMessages(page).last()).toHaveText(HELLO_REPLY);
});

test("Stop during a bash call ends the run, and the next message is a valid request", async ({ page }) => {
  await send(page, callTool("bash", { command: "sleep 60" }));
  // The step shows while the command runs.
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).getByText("Ran sleep 60")).toBeVisible();
  // Saved, the call is the tools' to run: Stop comes while the command runs.
  await toolCallSaved(page, "sleep 60");
  await page.getByRole("button", { name: "Stop" }).click();
  await runEnded(page);
  await send(page, callTool("bash", { command: "echo still working" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: still working");
});

test("paths outside the sandbox and writes under /mnt/skills are refused clearly", async ({ page }) => {
  await send(page, callTool("read_file", { path: "/mnt/user-data/../../x" }));
  await expect(assistantMessages(page).last()).toContainText(
    'The tool returned: Error: Refused path "/mnt/user-data/../../x": "." and ".." are not allowed',
  );
  await runEnded(page);
  await send(page, callTool("write_file", { path: "/mnt/skills/evil/SKILL.md", content: "x" }));
  await expect(assistantMessages(page).last()).toContainText(
    "The tool returned: Error: Refused to write /mnt/skills/evil/SKILL.md: /mnt/skills is read-only",
  );
});

test("a call that ends first shows done while the other call of its step still runs", async ({ page }) => {
  await send(
    page,
    callTools([
      ["bash", { command: "echo first" }],
      ["bash", { command: "sleep 6; echo second" }],
    ]),
  );
  const steps = conversation(page).getByRole("list", { name: "Tool calls" }).getByRole("listitem");
  const first = steps.filter({ hasText: "Ran echo first" });
  const second = steps.filter({ hasText: "Ran sleep 6; echo second" });
  await expect(first.getByRole("img", { name: "Done" })).toBeVisible({ timeout: 20_000 });
  await expect(second.getByRole("img", { name: "Running" })).toBeVisible();
  await first.getByText("Ran echo first").click();
  await expect(first).toContainText("first");
  await expect(second.getByRole("img", { name: "Done" })).toBeVisible({ timeout: 20_000 });
  await runEnded(page);
});

test.describe("python3", () => {
  // Pyodide starts cold in each new page: a few seconds, but over 40 s on a busy 2-core CI machine. One at a time,
  // so the two cold starts do not compete with each other.
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  test("computes a figure from a CSV the agent wrote to the workspace", async ({ page }) => {
    await send(
      page,
      callTools([
        ["write_file", { path: "/mnt/user-data/workspace/sales.csv", content: "month,amount\njan,10\nfeb,32\n" }],
        [
          "bash",
          {
            command:
              "python3 -c \"import csv; t=sum(int(r['amount']) for r in csv.DictReader(open('sales.csv'))); open('/mnt/user-data/outputs/total.txt','w').write(str(t)); print('total', t)\"",
          },
        ],
      ]),
    );
    await expect(assistantMessages(page).last()).toContainText("The tool returned: total 42", { timeout: 90_000 });
    await runEnded(page);
    await send(page, callTool("read_file", { path: "/mnt/user-data/outputs/total.txt" }));
    await expect(assistantMessages(page).last()).toContainText("The tool returned: 42");
  });

  test("a Python infinite loop is stopped by Stop, and python works again after", async ({ page }) => {
    await send(page, callTool("bash", { command: "python3 -c 'while True: pass'" }));
    // The step shows while the command runs.
    await expect(
      conversation(page)
        .getByRole("list", { name: "Tool calls" })
        .getByText(/^Ran python3 -c 'while True/),
    ).toBeVisible();
    await toolCallSaved(page, "while True: pass");
    await page.getByRole("button", { name: "Stop" }).click();
    await runEnded(page);
    await send(page, callTool("bash", { command: "python3 -c 'print(6*7)'" }));
    await expect(assistantMessages(page).last()).toContainText("The tool returned: 42", { timeout: 90_000 });
  });
});

test("Settings → Sandbox: WebContainer that cannot start falls back to the browser sandbox, visibly", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The page is cross-origin isolated (COOP/COEP), so WebContainer may be chosen; with no way to reach
  // stackblitz.com it cannot boot, and after 30 s the app says so and keeps working.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await send(page, "hello");
  await runEnded(page);
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("tab", { name: "Sandbox" }).click();
  const choices = dialog.getByRole("radiogroup", { name: "Sandbox" });
  await expect(choices.getByRole("radio", { name: /^Browser/ })).toBeChecked();
  await choices.getByRole("radio", { name: /^WebContainer/ }).check();
  await expect(dialog.getByText("Starting WebContainer…")).toBeVisible();
  await expect(dialog.getByRole("alert")).toContainText("WebContainer could not start", { timeout: 45_000 });
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "threads use the browser sandbox" })).toBeVisible();

  await openTerminal(page);
  await expect(page.getByRole("note").filter({ hasText: "WebContainer could not start" })).toBeVisible();
  await runInTerminal(page, "echo from the fallback");
  await expect(rowsReading(page, "from the fallback")).toHaveCount(1);
});
