// The README's claim for models marked Vision: an image the user attached reaches the model. The model calls
// view_image on the upload, and its next request carries the image itself (a data: URL of the file's bytes).
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  configureEndpoint,
  conversation,
  editSettings,
  fromUser,
  mockLog,
  send,
} from "./fixtures.ts";

/** A 2×2 PNG (red, green, blue, white). */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DAAMJg4j8AHfED/fXpZYoAAAAASUVORK5CYII=";

interface ContentPart {
  type?: string;
  image_url?: { url?: string };
}

test("an image attached for a model marked Vision reaches the model as the image itself", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page, { model: "mock-vision" });
  await editSettings(page, "Models", async (dialog) => {
    await dialog.getByRole("group", { name: "mock-vision" }).getByRole("checkbox", { name: "Vision" }).check();
  });
  const key = crypto.randomUUID().slice(0, 8);
  const name = `dot-${key}.png`;
  await page
    .getByLabel("Attach files")
    .setInputFiles({ name, mimeType: "image/png", buffer: Buffer.from(PNG_BASE64, "base64") });
  const text = `call tool view_image {"image_path":"/mnt/user-data/uploads/${name}"}`;
  await send(page, text);
  await expect(conversation(page).getByRole("list", { name: "Tool calls" }).last()).toContainText("view_image");
  await expect(assistantMessages(page).last()).toHaveAttribute("aria-busy", "false");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  // The request after view_image holds the image's bytes as an image part.
  const answered = (await mockLog(page)).filter((entry) => fromUser(entry, text));
  const images = answered.flatMap((entry) =>
    (entry.body.messages ?? []).flatMap((message) =>
      Array.isArray(message.content)
        ? (message.content as ContentPart[]).filter((part) => part.type === "image_url")
        : [],
    ),
  );
  expect(images.map((part) => part.image_url?.url)).toContain(`data:image/png;base64,${PNG_BASE64}`);
});
