// The composer on a phone (390×844, touch), in a narrow window (600 px) and on a desktop (1440×900): the message box
// keeps its width once a reply's follow-up suggestions show (they sit above it), typed text runs along the line
// rather than one letter per line, and nothing of the composer spills past the screen or is smaller than a finger's
// 24×24 px target. After a file is attached, Enter sends; a phone's first screen starts at the top and its
// placeholder does not speak of keys it has not got; the "works offline" toast stays off the composer; each mode says
// what it does where a finger can read it, and a mode that reasons says so when the model does not.
import { expect, test, type Page } from "@playwright/test";
import {
  assistantMessages,
  configureEndpoint,
  conversation,
  editSettings,
  expectNoA11yViolations,
  send,
} from "./fixtures.ts";
import { layoutProblems } from "./layout-checks.ts";

const SIZES = [
  { name: "a phone (390×844, touch)", viewport: { width: 390, height: 844 }, touch: true },
  { name: "a 600 px window", viewport: { width: 600, height: 900 }, touch: false },
] as const;

function box(page: Page) {
  return page.getByRole("textbox", { name: "Message" });
}

/** Sets up the mock model and sends `text`; returns once the reply and its follow-up suggestions show. */
async function replyWithSuggestions(page: Page, text: string): Promise<void> {
  await page.goto("/");
  await configureEndpoint(page);
  await send(page, text);
  await expect(assistantMessages(page).last()).toHaveText(`You said: ${text}`);
  await expect(page.getByRole("group", { name: "Suggested follow-ups" }).getByRole("button")).toHaveCount(3);
}

for (const size of SIZES) {
  test.describe(`on ${size.name}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test("the message box keeps its width once follow-up suggestions show, with the suggestions above it", async ({
      page,
    }) => {
      await replyWithSuggestions(page, "tide pools");
      const width = size.viewport.width;
      const message = (await box(page).boundingBox())!;
      expect(message.width, "the message box's width").toBeGreaterThanOrEqual(width * 0.6);

      // The suggestions are a row of their own above the message box, inside the screen.
      const suggestions = (await page.getByRole("group", { name: "Suggested follow-ups" }).boundingBox())!;
      expect(suggestions.y + suggestions.height).toBeLessThanOrEqual(message.y + 1);
      expect(suggestions.x + suggestions.width).toBeLessThanOrEqual(width + 0.5);

      // Typed words run along the line: one line of text keeps the box one row high.
      const before = message.height;
      await box(page).click();
      await page.keyboard.type("How deep are they");
      await expect(box(page)).toHaveValue("How deep are they");
      expect((await box(page).boundingBox())!.height).toBeLessThanOrEqual(before + 1);

      // The paperclip and Send still share the message box's row, and can be hit.
      const middle = message.y + message.height / 2;
      for (const name of ["Attach files", "Send"]) {
        const control = (await page.getByRole("button", { name, exact: true }).boundingBox())!;
        expect(Math.abs(control.y + control.height / 2 - middle), `${name} on the message box's row`).toBeLessThan(4);
        expect(control.width, `${name}'s width`).toBeGreaterThanOrEqual(24);
        expect(control.height, `${name}'s height`).toBeGreaterThanOrEqual(24);
      }
      // Nothing overflows the screen sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // Enter sends what was typed, and the next reply's suggestions leave the box as wide.
      await page.keyboard.press("Enter");
      await expect(assistantMessages(page).last()).toHaveText("You said: How deep are they");
      await expect(page.getByRole("group", { name: "Suggested follow-ups" }).getByRole("button")).toHaveCount(3);
      expect((await box(page).boundingBox())!.width).toBeGreaterThanOrEqual(width * 0.6);
    });
  });
}

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const ALL_SIZES = [
  { name: "a phone (390×844, touch)", use: PHONE },
  { name: "a 600 px window", use: { viewport: { width: 600, height: 900 } } },
  { name: "a desktop (1440×900)", use: { viewport: { width: 1440, height: 900 } } },
] as const;

/** Whether two boxes share any area. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const size of ALL_SIZES) {
  test.describe(`on ${size.name}`, () => {
    test.use(size.use);

    test("after a file is attached the message box has the focus, so typing and Enter send it", async ({ page }) => {
      await page.goto("/");
      await configureEndpoint(page);
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Attach files" }).click();
      await (await chooser).setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("tide tables") });
      await expect(page.getByRole("list", { name: "Attached files" })).toContainText("notes.txt");
      await expect(box(page)).toBeFocused();
      await page.keyboard.type("What is in the file");
      await page.keyboard.press("Enter");
      await expect(conversation(page).getByRole("article", { name: "User message" })).toContainText(
        "What is in the file",
      );
      await expect(page.getByRole("list", { name: "Attached files" })).toHaveCount(0);
    });

    test.describe("with the service worker", () => {
      test.use({ serviceWorkers: "allow" });

      test("the toast saying Fawn works offline covers neither the message box nor Send", async ({ page }) => {
        // The service worker precaches the whole app (Python included) before it says so: slow on a loaded machine.
        test.setTimeout(120_000);
        await page.goto("/");
        const toast = page.getByRole("status").filter({ hasText: "works offline" });
        await expect(toast).toBeVisible({ timeout: 90_000 });
        const shown = (await toast.boundingBox())!;
        for (const [what, control] of [
          ["the message box", box(page)],
          ["Send", page.getByRole("button", { name: "Send" })],
          ["Attach files", page.getByRole("button", { name: "Attach files" })],
          ["Mode", page.getByRole("radiogroup", { name: "Mode" })],
        ] as const) {
          expect(overlap(shown, (await control.boundingBox())!), `the toast over ${what}`).toBe(false);
        }
        expect(shown.x).toBeGreaterThanOrEqual(0);
        expect(shown.x + shown.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      });
    });
  });
}

test.describe("on a phone (390×844, touch)", () => {
  test.use(PHONE);

  test("the first screen starts at the top, and the placeholder speaks of no keys", async ({ page }) => {
    await page.goto("/");
    const heading = page.getByRole("heading", { name: "What can I do for you?" });
    await expect(heading).toBeVisible();
    const log = (await conversation(page).boundingBox())!;
    const top = (await heading.boundingBox())!;
    expect(top.y - log.y, "the space above the welcome").toBeLessThanOrEqual(48);
    await expect(box(page)).toHaveAttribute("placeholder", "Ask anything…");
    expect(await layoutProblems(page)).toEqual([]);
  });

  test("each mode says what it does when tapped; a reasoning mode says when the model does not reason", async ({
    page,
  }) => {
    await page.goto("/");
    await configureEndpoint(page);
    const modes = page.getByRole("radiogroup", { name: "Mode" });
    const about = page.locator("#mode-about");
    await expect(modes.getByRole("radio", { name: "Flash" })).toBeChecked();
    await expect(about).toBeVisible();
    await expect(about).toHaveText("Flash — Fast answers, no reasoning or plan");
    await expect(modes).toHaveAccessibleDescription("Flash — Fast answers, no reasoning or plan");

    const expected = {
      Thinking: "Reasons before answering",
      Pro: "Reasons and keeps a plan of the steps",
      Ultra: "Reasons, plans, and may split work among subagents",
    };
    for (const [mode, text] of Object.entries(expected)) {
      await modes.getByRole("radio", { name: mode }).tap();
      await expect(modes.getByRole("radio", { name: mode })).toBeChecked();
      await expect(about).toContainText(`${mode} — ${text}`);
      // mock-model is not marked Thinking: the mode says it will not reason.
      await expect(about).toContainText(
        "mock-model is not marked as a reasoning model, so this mode answers without reasoning.",
      );
    }
    const target = (await modes.getByRole("radio", { name: "Pro" }).locator("..").boundingBox())!;
    expect(target.height).toBeGreaterThanOrEqual(24);
    expect(target.width).toBeGreaterThanOrEqual(24);
    await expectNoA11yViolations(page, "phone: a reasoning mode with a model that does not reason");
    expect(await layoutProblems(page)).toEqual([]);

    // The hint's link opens Settings on Models, where the model is marked.
    await about.getByRole("button", { name: "Settings → Models" }).tap();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await expect(dialog.getByRole("tab", { name: "Models" })).toHaveAttribute("aria-selected", "true");
    await dialog.getByRole("button", { name: "Close settings" }).click();

    await modes.getByRole("radio", { name: "Flash" }).tap();
    await expect(about).toHaveText("Flash — Fast answers, no reasoning or plan");

    // In a conversation the line gives its room to the messages until a mode is tapped again; the Mode group keeps
    // its description for a screen reader.
    await send(page, "rock pools");
    await expect(assistantMessages(page).last()).toHaveText("You said: rock pools");
    await expect(about).toBeHidden();
    await expect(modes).toHaveAccessibleDescription("Flash — Fast answers, no reasoning or plan");
    await modes.getByRole("radio", { name: "Pro" }).tap();
    await expect(about).toBeVisible();
    await expect(about).toContainText("Pro — Reasons and keeps a plan of the steps");
    await expect(about).toContainText("mock-model is not marked as a reasoning model");
  });

  test("a model marked Thinking reasons in Thinking mode: no hint then", async ({ page }) => {
    await page.goto("/");
    await configureEndpoint(page);
    await editSettings(page, "Models", async (dialog) => {
      await dialog.getByRole("combobox", { name: "Add a model" }).fill("mock-thinking");
      await dialog.getByRole("button", { name: "Add model" }).click();
      await dialog
        .getByRole("group", { name: "mock-thinking" })
        .getByRole("checkbox", { name: "Thinking", exact: true })
        .check();
    });
    const about = page.locator("#mode-about");
    await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Thinking" }).tap();
    await expect(about).toContainText("mock-model is not marked as a reasoning model");
    await page.getByRole("combobox", { name: "Model for this message" }).selectOption("mock-thinking");
    await expect(about).toHaveText("Thinking — Reasons before answering (models marked Thinking)");
    // The modes and the model choice share the row under the message box, inside the screen.
    expect(await layoutProblems(page)).toEqual([]);
  });
});

test.describe("on a desktop (1440×900)", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the placeholder says how Enter and Shift+Enter work; the chosen mode is explained under the bar", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(box(page)).toHaveAttribute("placeholder", /Enter to send, Shift\+Enter for a new line/);
    const about = page.locator("#mode-about");
    await expect(about).toHaveText("Flash — Fast answers, no reasoning or plan");
    const bar = (await page.getByRole("radiogroup", { name: "Mode" }).boundingBox())!;
    expect((await about.boundingBox())!.y).toBeGreaterThanOrEqual(bar.y + bar.height);

    // A reasoning mode with a model that does not reason says so when chosen; once a message has gone with it, the
    // line keeps to what the mode does.
    await configureEndpoint(page);
    await page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Thinking" }).check();
    await expect(about).toContainText("mock-model is not marked as a reasoning model");
    await expectNoA11yViolations(page, "desktop: a reasoning mode with a model that does not reason");
    await send(page, "sea glass");
    await expect(assistantMessages(page).last()).toHaveText("You said: sea glass");
    await expect(about).toBeVisible();
    await expect(about.getByText("is not marked as a reasoning model")).toBeHidden();
  });
});
