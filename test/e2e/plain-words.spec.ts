// Issue 28, item 12: Settings speaks to someone who has never opened a terminal. No tab mentions the README, a
// command shows only where it is labelled for developers, and the mock model's preset sits under "For developers".
import { expect, test } from "@playwright/test";
import { clickSettings } from "./fixtures.ts";

test("every Settings tab speaks without developer words; the mock preset is under For developers", async ({ page }) => {
  await page.goto("/");
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const developers = dialog.getByRole("group", { name: "For developers" });
  await expect(developers.getByRole("button", { name: "Mock model" })).toBeVisible();
  await expect(dialog.getByRole("group", { name: "Endpoint presets" }).getByRole("button")).not.toHaveCount(0);
  await expect(
    dialog.getByRole("group", { name: "Endpoint presets" }).getByRole("button", { name: /mock/i }),
  ).toHaveCount(0);
  const tabs = await dialog.getByRole("tab").allInnerTexts();
  expect(tabs.length).toBeGreaterThan(5);
  for (const name of tabs) {
    await dialog.getByRole("tab", { name, exact: true }).click();
    await expect(dialog.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
    const text = await dialog.innerText();
    expect(text, `Settings → ${name}`).not.toMatch(/\bREADME\b|mock-llm/);
    // A command is shown only to developers, who are told so.
    for (const match of text.matchAll(/npm run \S+/g)) {
      expect(text.slice(Math.max(0, match.index - 20), match.index), `Settings → ${name}`).toMatch(
        /for developers: $/i,
      );
    }
  }
});
