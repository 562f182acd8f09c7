// python3 starts from a snapshot of a fresh interpreter (src/sandbox/python/page/python-frame-host.ts): the first
// python3 of a page keeps one (inflated) in Fawn's Cache Storage, and the next page's interpreters start from it (its
// spare is prestarted when the thread's sandbox opens). A program run before must leave nothing in them, and python3
// must work as usual. Built app in Chromium; no timings asserted.
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, send } from "./fixtures.ts";

/** The first thread's program: traces in its interpreter and its /tmp, after the snapshot was taken. */
const LEAVE_TRACES = `
import builtins, sys, types
builtins.fawn_leak = "from the first page"
sys.modules["fawn_leak_module"] = types.ModuleType("fawn_leak_module")
open("/tmp/fawn-leak.txt", "w").write("from the first page")
print("traces left")
`;

/** The next page's program: says which traces it finds, and computes something. */
const CHECK = `
import builtins, os, sys
found = [name for name, there in [
    ("globals", hasattr(builtins, "fawn_leak")),
    ("modules", "fawn_leak_module" in sys.modules),
    ("tmp", os.path.exists("/tmp/fawn-leak.txt")),
] if there]
print("traces:", found or "none", "answer:", 6 * 7)
`;

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 90_000 });
}

/** How many interpreter snapshots Fawn's origin keeps. */
function keptSnapshots(page: Page): Promise<number> {
  return page.evaluate(async () => (await (await caches.open("fawn-python-snapshot")).keys()).length);
}

/** Whether the kept snapshot is inflated (the build ships it gzipped; the page keeps it inflated). */
function keptSnapshotInflated(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const cache = await caches.open("fawn-python-snapshot");
    const [request] = await cache.keys();
    const bytes = new Uint8Array(await (await cache.match(request!))!.arrayBuffer());
    return bytes.length > 0 && !(bytes[0] === 0x1f && bytes[1] === 0x8b);
  });
}

test("the next page's python3 starts from the kept snapshot, with nothing of an earlier program in it", async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto("/");
  await configureEndpoint(page);

  await send(page, callTool("write_file", { path: "/mnt/user-data/workspace/traces.py", content: LEAVE_TRACES }));
  await runEnded(page);
  await send(page, callTool("bash", { command: "python3 /mnt/user-data/workspace/traces.py" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: traces left", { timeout: 120_000 });
  await runEnded(page);
  await expect.poll(() => keptSnapshots(page), { timeout: 30_000 }).toBe(1);
  // Kept inflated, so the next page's workers do not inflate it again.
  expect(await keptSnapshotInflated(page)).toBe(true);

  await page.reload();
  await page.getByRole("button", { name: "New thread" }).click();
  await send(page, callTool("write_file", { path: "/mnt/user-data/workspace/check.py", content: CHECK }));
  await runEnded(page);
  await send(page, callTool("bash", { command: "python3 /mnt/user-data/workspace/check.py" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: traces: none answer: 42", {
    timeout: 120_000,
  });
  await runEnded(page);
  // Still the one snapshot: an interpreter that started from it does not offer another.
  expect(await keptSnapshots(page)).toBe(1);
});
