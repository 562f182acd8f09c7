// The composer: files come by drag-and-drop and by paste as well as by the button, an attachment can be taken back,
// and Enter while an input method is composing (Chinese, Japanese…) confirms the composition instead of sending.
import { expect, test, type Page } from "@playwright/test";
import { callTool, configureEndpoint, conversation } from "./fixtures.ts";

/** Drops files on the composer the way the browser does when they are dragged from the desktop. */
async function dropFiles(page: Page, files: { name: string; text: string; type: string }[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([file.text], file.name, { type: file.type }));
    return data;
  }, files);
  const form = page.locator("form.composer");
  await form.dispatchEvent("dragenter", { dataTransfer: transfer });
  await form.dispatchEvent("dragover", { dataTransfer: transfer });
  await form.dispatchEvent("drop", { dataTransfer: transfer });
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
});

test("files dropped on the composer and pasted into it are attached, shown with sizes, and sent", async ({ page }) => {
  await dropFiles(page, [{ name: "notes.txt", text: "dropped notes", type: "text/plain" }]);
  const attached = page.getByRole("list", { name: "Attached files" });
  await expect(attached.getByRole("listitem")).toHaveCount(1);
  await expect(attached).toContainText("notes.txt");
  await expect(attached).toContainText("13 B");

  // A screenshot pasted from the clipboard.
  await page.getByRole("textbox", { name: "Message" }).evaluate((box) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array([137, 80, 78, 71])], "pasted.png", { type: "image/png" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(attached.getByRole("listitem")).toHaveCount(2);
  await expect(attached).toContainText("pasted.png");

  // Taken back before sending.
  await page.getByRole("button", { name: "Remove pasted.png" }).click();
  await expect(attached.getByRole("listitem")).toHaveCount(1);

  await page
    .getByRole("textbox", { name: "Message" })
    .fill(callTool("bash", { command: "cat /mnt/user-data/uploads/notes.txt" }));
  await page.getByRole("button", { name: "Send" }).click();
  const sent = conversation(page).getByRole("article", { name: "User message" }).first();
  await expect(sent.getByRole("list", { name: "Files" })).toContainText("notes.txt");
  await expect(sent.getByRole("list", { name: "Files" })).not.toContainText("pasted.png");
  await expect(conversation(page).getByRole("article", { name: "Assistant message" }).last()).toContainText(
    "dropped notes",
  );
  await expect(page.getByRole("list", { name: "Attached files" })).toHaveCount(0);
});

test("Enter during an IME composition does not send; Enter afterwards does, Shift+Enter adds a line", async ({
  page,
}) => {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("你好");
  // What the browser sends when Enter confirms a composition.
  await box.evaluate((element) => {
    element.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", isComposing: true, keyCode: 229, bubbles: true, cancelable: true }),
    );
  });
  await expect(box).toHaveValue("你好");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toHaveCount(0);

  await box.press("Shift+Enter");
  await box.pressSequentially("hello");
  await expect(box).toHaveValue("你好\nhello");
  await box.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "User message" })).toContainText("hello");
  await expect(box).toHaveValue("");
});
