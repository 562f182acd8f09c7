// Settings' forms as a user meets them: every tab fits a phone and a narrow window (nothing past the screen's edge,
// Save and Close on screen, every control at least 24×24 px), a refused Save keeps the edits and closing still asks,
// each error sits at its field, and the models "List models" finds can be added with a click.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { clickSettings, closeSettings, configureEndpoint, expectNoA11yViolations, openSettings } from "./fixtures.ts";

const TABS = ["Models", "Web", "Tools", "Skills", "Memory", "Agents", "Subagents", "Sandbox", "Appearance", "Data"];

/**
 * What in the open Settings dialog breaks a small screen: a visible element reaching past the viewport's left or
 * right edge, a dialog that scrolls sideways, a checkbox stretched across its row (its box centred, its words pushed
 * right), or a control smaller than 24×24 px (a checkbox or radio button counts with the label that wraps it, which
 * takes its clicks too).
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const dialog = document.querySelector("dialog.settings")!;
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const describe = (element: Element) => {
      const labels =
        element instanceof HTMLInputElement || element instanceof HTMLSelectElement ? element.labels : null;
      const name =
        element.getAttribute("aria-label") ??
        labels?.[0]?.textContent ??
        element.getAttribute("id") ??
        element.textContent ??
        "";
      return `<${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/ /g, ".")}` : ""}> "${name.trim().slice(0, 40)}"`;
    };
    if (dialog.scrollWidth > dialog.clientWidth + 1) {
      problems.push(`the dialog scrolls sideways (${dialog.scrollWidth} > ${dialog.clientWidth})`);
    }
    for (const element of dialog.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || element.closest("[hidden], dialog:not([open])")) continue;
      // What a sideways-scrolling box (a wide table) holds is reached by scrolling that box, which must fit itself.
      const scroller = element.parentElement?.closest(".memory-facts-scroll");
      if (!scroller && (box.right > width + 0.5 || box.left < -0.5)) {
        problems.push(`${describe(element)} spans ${Math.round(box.left)}–${Math.round(box.right)} of ${width} px`);
      }
      const control = element.matches("button, select, input:not([type=hidden]), textarea");
      if (!control) continue;
      // A checkbox or radio button begins its row, at its own size, with its words after it.
      // (Appearance's theme choices are a row of words, each over an unseen radio button as large as it.)
      const overlay = getComputedStyle(element).opacity === "0";
      if (element.matches("input[type=checkbox], input[type=radio]") && !overlay && box.width > 32) {
        problems.push(`${describe(element)} is stretched to ${Math.round(box.width)} px`);
      }
      const target =
        element.matches("input[type=checkbox], input[type=radio]") && element.closest("label")
          ? element.closest("label")!.getBoundingClientRect()
          : box;
      if (target.width < 24 - 0.01 || target.height < 24 - 0.01) {
        problems.push(`${describe(element)} is ${Math.round(target.width)}×${Math.round(target.height)} px`);
      }
    }
    return problems;
  });
}

/** Whether `locator`, scrolled to, lies wholly inside the viewport. */
async function onScreen(page: Page, locator: Locator): Promise<string | undefined> {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  const viewport = page.viewportSize()!;
  const inside =
    box.x >= -0.5 &&
    box.y >= -0.5 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y + box.height <= viewport.height + 0.5;
  return inside ? undefined : `${JSON.stringify(box)} in ${viewport.width}×${viewport.height}`;
}

async function everyTabFits(page: Page): Promise<void> {
  await page.goto("/");
  await configureEndpoint(page);
  await clickSettings(page);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  const viewport = page.viewportSize()!;
  const frame = (await dialog.boundingBox())!;
  expect(frame.x + frame.width, "the dialog fits the screen's width").toBeLessThanOrEqual(viewport.width);
  expect(frame.y + frame.height, "the dialog fits the screen's height").toBeLessThanOrEqual(viewport.height);
  for (const name of TABS) {
    await dialog.getByRole("tab", { name, exact: true }).click();
    const panel = dialog.getByRole("tabpanel", { name, exact: true });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole("status").filter({ hasText: "Loading" })).toHaveCount(0);
    if (name === "Models") {
      // The model row the saved settings hold, and what "List models" finds.
      await panel.getByRole("button", { name: "List models" }).click();
      await expect(panel.getByText("The endpoint offers 3 models.")).toBeVisible();
      const row = panel.getByRole("group", { name: "mock-model" });
      const label = (await row.getByText("mock-model", { exact: true }).boundingBox())!;
      expect.soft(label.height, "the model's name reads on one line").toBeLessThan(30);
    }
    // A server's fields and switches, as "Add server" shows them.
    if (name === "Tools") await panel.getByRole("button", { name: "Add server" }).click();
    // The agent editor's fields, as "New agent" shows them.
    if (name === "Agents") await panel.getByRole("button", { name: "New agent" }).click();
    expect.soft(await layoutProblems(page), `Settings → ${name} at ${viewport.width} px`).toEqual([]);
    for (const button of [
      dialog.getByRole("button", { name: "Close settings" }),
      ...(await panel.getByRole("button", { name: "Save", exact: true }).all()),
    ]) {
      expect
        .soft(await onScreen(page, button), `Settings → ${name}: ${await button.innerText()} on screen`)
        .toBeUndefined();
    }
  }
}

test.describe("on a phone (390×844, touch)", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("every Settings tab fits the screen, with its buttons on it and every control 24×24 px or more", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await everyTabFits(page);
  });
});

test.describe("on a small phone (360×740, touch)", () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test("every Settings tab fits the screen too", async ({ page }) => {
    test.setTimeout(120_000);
    await everyTabFits(page);
  });
});

test.describe("in a 600 px window", () => {
  test.use({ viewport: { width: 600, height: 800 } });

  test("every Settings tab fits the window, with its buttons on it and every control 24×24 px or more", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await everyTabFits(page);
  });
});

test("a refused Save keeps the edits: closing after it asks, and the edits are still there for a user who stays", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Models");
  const baseUrl = dialog.getByRole("textbox", { name: "Base URL", exact: true });
  const model = dialog.getByRole("combobox", { name: "Model", exact: true });
  const changed = baseUrl.inputValue().then((url) => url.replace("/v1", "/changed/v1"));
  await baseUrl.fill(await changed);
  await model.fill("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText(/A model name is required/)).toBeVisible();

  await dialog.getByRole("button", { name: "Close settings" }).click();
  const unsaved = page.getByRole("dialog", { name: "Unsaved changes" });
  await expect(unsaved).toContainText("Changes in Models are not saved yet.");
  await unsaved.getByRole("button", { name: "Keep editing" }).click();
  await expect(unsaved).toBeHidden();
  await expect(baseUrl).toHaveValue(await changed);
  await expect(dialog.getByRole("group", { name: "mock-model" })).toBeVisible();

  // Escape after a refused Save asks too.
  await page.keyboard.press("Escape");
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Keep editing" }).click();

  // Save, then × at once: the close waits for the Save, and asks when it is refused.
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.getByRole("button", { name: "Close settings" }).click();
  await expect(unsaved).toBeVisible();
  await unsaved.getByRole("button", { name: "Keep editing" }).click();

  // Once a Save is taken, closing does not ask, and the change is what Settings opens with next.
  await model.fill("mock-model");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await closeSettings(page);
  await openSettings(page, "Models");
  await expect(baseUrl).toHaveValue(await changed);
});

test("a refused Save marks each wrong field with its own error, once, and puts the cursor in the first", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Models");
  const baseUrl = dialog.getByRole("textbox", { name: "Base URL", exact: true });
  const model = dialog.getByRole("combobox", { name: "Model", exact: true });
  // Clearing the Model field leaves the model listed under its name.
  await model.fill("");
  await expect(dialog.getByRole("group", { name: "mock-model" })).toBeVisible();
  await expect(dialog.locator(".model-row .model-id")).toHaveText(["mock-model"]);
  await baseUrl.fill("ftp://example.com/v1");
  await dialog.getByRole("button", { name: "Save" }).click();

  const urlError = "Base URL must be an http:// or https:// address, for example https://api.openai.com/v1";
  await expect(baseUrl).toHaveAttribute("aria-invalid", "true");
  await expect(baseUrl).toHaveAccessibleDescription(urlError);
  await expect(model).toHaveAttribute("aria-invalid", "true");
  await expect(model).toHaveAccessibleDescription("A model name is required, for example gpt-4o-mini");
  await expect(baseUrl).toBeFocused();
  await expectNoA11yViolations(page, "Settings → Models after a refused Save");
  await expect(dialog.getByText(urlError)).toHaveCount(1);
  await expect(dialog.getByText(/A model name is required/)).toHaveCount(1);
  await expect(dialog.getByRole("alert").filter({ hasText: /required|must be/ })).toHaveCount(0);
  // Each error sits at its field: just under it, before the next field.
  const urlBox = (await baseUrl.boundingBox())!;
  const errorBox = (await dialog.getByText(urlError).boundingBox())!;
  const keyBox = (await dialog.getByRole("textbox", { name: "API key", exact: true }).boundingBox())!;
  expect(errorBox.y).toBeGreaterThanOrEqual(urlBox.y + urlBox.height - 1);
  expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(keyBox.y);

  // A field put right loses its mark at once; the other keeps its own.
  await baseUrl.fill("https://example.com/v1");
  await expect(baseUrl).not.toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByText(urlError)).toHaveCount(0);
  await expect(model).toHaveAttribute("aria-invalid", "true");
  await model.fill("mock-model");
  await expect(model).not.toHaveAttribute("aria-invalid", "true");

  // A context window out of range is marked on its model's row.
  const context = dialog.getByRole("group", { name: "mock-model" }).getByRole("textbox", { name: "Context window" });
  await context.fill("12");
  await context.blur();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(context).toHaveAttribute("aria-invalid", "true");
  await expect(context).toHaveAccessibleDescription(/from 1,000 to 100,000,000 tokens/);
  await expect(context).toBeFocused();
  await context.fill("");
  await context.blur();

  // A problem on another endpoint opens that endpoint at the field.
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const endpoints = dialog.getByRole("combobox", { name: "Endpoint" });
  await endpoints.selectOption({ index: 0 });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(endpoints.locator("option:checked")).toHaveText("Endpoint 2");
  await expect(baseUrl).toBeFocused();
  await expect(baseUrl).toHaveAccessibleDescription(/Base URL is required/);
  await expect(model).toHaveAccessibleDescription("List at least one model for Endpoint 2.");
});

test("the models List models finds are shown, and each can be added with a click, or all at once", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Models");
  await dialog.getByRole("button", { name: "List models" }).click();
  await expect(dialog.getByText("The endpoint offers 3 models.")).toBeVisible();
  const offered = dialog.getByRole("list", { name: "Models the endpoint offers" });
  await expect(offered.getByRole("listitem")).toHaveCount(3);
  await expectNoA11yViolations(page, "Settings → Models with the models List models found");
  await expect(offered.getByRole("listitem").filter({ hasText: "mock-model" })).toContainText("Added");
  await expect(offered.getByRole("button", { name: "Add mock-model" })).toHaveCount(0);

  await dialog.getByRole("button", { name: "Add all" }).click();
  await expect(dialog.locator(".model-row .model-id")).toHaveText(["mock-model", "mock-thinking", "mock-vision"]);
  await expect(offered.getByRole("listitem").filter({ hasText: "mock-vision" })).toContainText("Added");
  await expect(dialog.getByRole("button", { name: "Add all" })).toHaveCount(0);

  // A model removed from the choices can be added back with its own button.
  await dialog.getByRole("button", { name: "Remove mock-thinking" }).click();
  await expect(dialog.getByRole("group", { name: "mock-thinking" })).toHaveCount(0);
  await offered.getByRole("button", { name: "Add mock-thinking" }).click();
  await expect(dialog.getByRole("group", { name: "mock-thinking" })).toBeVisible();
  await expect(offered.getByRole("listitem").filter({ hasText: "mock-thinking" })).toContainText("Added");

  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Saved.")).toBeVisible();
  await closeSettings(page);
  await expect(page.getByRole("combobox", { name: "Model for this message" }).locator("option")).toHaveText([
    "mock-model",
    "mock-vision",
    "mock-thinking",
  ]);
});
