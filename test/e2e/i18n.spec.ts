// English and Simplified Chinese: the language chosen in Settings → Appearance (or the browser's, with "System")
// translates the UI, sets <html lang>, and stays after a reload.
import { expect, test, type Locator, type Page } from "@playwright/test";

// Settings' own button, dialog and tabs are named in whichever language the UI speaks.
const SETTINGS = /^(Settings|设置)$/;
const APPEARANCE = /^(Appearance|外观)$/;
const CLOSE_SETTINGS = /^(Close settings|关闭设置)$/;

async function openAppearance(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: SETTINGS }).click();
  const dialog = page.getByRole("dialog", { name: SETTINGS });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("tab", { name: APPEARANCE }).click();
  return dialog;
}

async function closeSettings(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: SETTINGS });
  await dialog.getByRole("button", { name: CLOSE_SETTINGS }).click();
  await expect(dialog).toBeHidden();
}

async function expectChinese(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("textbox", { name: "消息", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "发送", exact: true })).toBeVisible();
  const modes = page.getByRole("radiogroup", { name: "模式" });
  await expect(modes.getByRole("radio")).toHaveCount(4);
  for (const mode of ["闪速", "思考", "Pro", "Ultra"])
    await expect(modes.getByRole("radio", { name: mode })).toBeVisible();
  await expect(page.getByRole("button", { name: "添加附件", exact: true })).toBeVisible();
  // In the sidebar.
  await expect(page.getByRole("button", { name: "导入对话", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "键盘快捷键", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "有什么可以帮你？" })).toBeVisible();
  await expect(page.getByRole("button", { name: "新建对话", exact: true })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "搜索对话" })).toBeVisible();
  // Settings' tabs, the Models tab and the Data tab.
  await page.getByRole("button", { name: SETTINGS }).click();
  const dialog = page.getByRole("dialog", { name: SETTINGS });
  await dialog.getByRole("tab", { name: "模型" }).click();
  await expect(dialog.getByRole("button", { name: "添加端点" })).toBeVisible();
  await dialog.getByRole("tab", { name: "数据" }).click();
  await expect(dialog.getByRole("button", { name: "导出全部数据" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "删除全部数据" })).toBeVisible();
  await closeSettings(page);
}

async function expectEnglish(page: Page): Promise<void> {
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("textbox", { name: "Message", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: "Mode" }).getByRole("radio", { name: "Flash" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import thread", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What can I do for you?" })).toBeVisible();
}

test("choosing 简体中文 translates the UI and stays after a reload; choosing English restores it", async ({ page }) => {
  await page.goto("/");
  await expectEnglish(page);

  let dialog = await openAppearance(page);
  const language = dialog.getByRole("combobox", { name: "Language" });
  await expect(language).toHaveValue("system");
  await language.selectOption({ label: "简体中文" });
  // The tab itself follows at once.
  await expect(dialog.getByRole("combobox", { name: "语言" })).toHaveValue("zh-CN");
  await expect(dialog.getByRole("radiogroup", { name: "主题" }).getByRole("radio", { name: "深色" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "允许通知" })).toBeVisible();
  await closeSettings(page);
  await expectChinese(page);

  await page.reload();
  await expectChinese(page);
  // The command palette lists its commands in Chinese too.
  await page.keyboard.press("ControlOrMeta+k");
  const palette = page.getByRole("dialog", { name: "命令面板" });
  await expect(palette.getByRole("option", { name: /新建对话/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();

  dialog = await openAppearance(page);
  // Each language is listed by its own name, so an English reader finds "English" in a Chinese UI.
  await dialog.getByRole("combobox", { name: "语言" }).selectOption({ label: "English" });
  await expect(dialog.getByRole("combobox", { name: "Language" })).toHaveValue("en");
  await closeSettings(page);
  await expectEnglish(page);
  await page.reload();
  await expectEnglish(page);
});

test.describe("with a Chinese browser", () => {
  test.use({ locale: "zh-CN" });

  test("Language on System starts in Simplified Chinese", async ({ page }) => {
    await page.goto("/");
    await expectChinese(page);
    const dialog = await openAppearance(page);
    await expect(dialog.getByRole("combobox", { name: "语言" })).toHaveValue("system");
    await expect(dialog.getByRole("option", { name: "跟随系统" })).toBeAttached();
  });

  test("an explicit English wins over the browser's language", async ({ page }) => {
    await page.goto("/");
    await expectChinese(page);
    const dialog = await openAppearance(page);
    await dialog.getByRole("combobox", { name: "语言" }).selectOption("en");
    await closeSettings(page);
    await expectEnglish(page);
    await page.reload();
    await expectEnglish(page);
  });
});

test.describe("with a Traditional Chinese browser", () => {
  test.use({ locale: "zh-TW" });

  test("System shows English, since Fawn ships no Traditional Chinese yet", async ({ page }) => {
    await page.goto("/");
    await expectEnglish(page);
  });
});
