// Thread actions → "Sandbox log": the commands the agent ran in the thread's sandbox, with their exit codes and the
// files they changed (DeerFlow's SandboxAuditMiddleware); the user's own Terminal commands are not in it.
import { expect, test } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, send } from "./fixtures.ts";

test("lists each command the agent ran, its exit code and the files it changed", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await send(
    page,
    callTool("bash", { description: "write", command: "echo '# Notes' > /mnt/user-data/outputs/notes.md" }),
  );
  await expect(assistantMessages(page).last()).toContainText("The tool returned");
  await send(page, callTool("bash", { description: "fail", command: "ls /mnt/user-data/workspace/missing" }));
  await expect(assistantMessages(page).last()).toContainText("exit code");

  await page.getByRole("button", { name: "Thread actions" }).click();
  await page.getByRole("menuitem", { name: "Sandbox log" }).click();
  const table = page.getByRole("dialog", { name: "Sandbox log" }).getByRole("table", { name: "Sandbox log" });
  const rows = table.getByRole("rowgroup").last().getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByRole("cell").nth(1)).toHaveText("echo '# Notes' > /mnt/user-data/outputs/notes.md");
  await expect(rows.first().getByRole("cell").nth(2)).toHaveText("0");
  await expect(rows.first().getByRole("cell").nth(3)).toHaveText("added outputs/notes.md");
  await expect(rows.last().getByRole("cell").nth(2)).not.toHaveText("0");
  await expect(rows.last().getByRole("cell").nth(3)).toHaveText("None");
});
