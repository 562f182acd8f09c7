// Skills as the user meets them: shipped skills in Settings → Skills, installing an archive, refusing bad ones, and
// the skills in the agent's prompt and sandbox.
import { expect, test, type Locator } from "@playwright/test";
import { strToU8, zipSync, type Zippable } from "fflate";
import {
  assistantMessages,
  callTool,
  closeSettings,
  configureEndpoint,
  mockRequests,
  openSettings,
  send,
  systemPromptFor,
} from "./fixtures.ts";

const TEA_SKILL = [
  "---",
  "name: tea-brewing",
  "description: Brew a good cup of tea. Use when the user asks how to make tea.",
  "---",
  "",
  "# Tea brewing",
  "",
  "Boil water, steep for three minutes.",
].join("\n");

function archive(files: Zippable): Buffer {
  return Buffer.from(zipSync(files));
}

async function install(dialog: Locator, name: string, bytes: Buffer): Promise<void> {
  await dialog.getByLabel("Skill archive").setInputFiles({ name, mimeType: "application/zip", buffer: bytes });
}

test("an installed skill archive is listed in Settings, in the next prompt, and readable in the sandbox", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Skills");
  // Fawn's own skills are there from the start.
  await expect(dialog.getByRole("checkbox", { name: "Enable data-analysis" })).toBeChecked();
  await install(dialog, "tea-brewing.skill", archive({ "tea-brewing": { "SKILL.md": strToU8(TEA_SKILL) } }));
  await expect(dialog.getByRole("status")).toContainText("Installed tea-brewing.");
  await expect(dialog.getByRole("checkbox", { name: "Enable tea-brewing" })).toBeChecked();
  await closeSettings(page);

  await send(page, "hello skills");
  await expect(assistantMessages(page).last()).toHaveText(
    "Hello! I am Fawn's mock model. Ask me anything — I will answer from a script.",
  );
  const prompt = await systemPromptFor(page, "hello skills");
  expect(prompt).toContain("tea-brewing");
  expect(prompt).toContain("/mnt/skills/custom/tea-brewing/SKILL.md");
  expect(prompt).toContain("/mnt/skills/public/data-analysis/SKILL.md");

  await send(page, callTool("read_file", { path: "/mnt/skills/custom/tea-brewing/SKILL.md" }));
  await expect(assistantMessages(page).last()).toContainText("name: tea-brewing");
});

test("archives with ../ paths, an oversized file or broken frontmatter are refused and nothing is installed", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Skills");
  const alert = dialog.getByRole("alert");

  await install(dialog, "escape.skill", archive({ "SKILL.md": strToU8(TEA_SKILL), "../evil.txt": strToU8("pwned") }));
  await expect(alert).toContainText("unsafe path");

  await install(
    dialog,
    "huge.skill",
    archive({ "SKILL.md": strToU8(TEA_SKILL), "data.bin": new Uint8Array(11 * 1024 * 1024) }),
  );
  await expect(alert).toContainText("too large");

  await install(
    dialog,
    "broken.zip",
    archive({ "SKILL.md": strToU8("---\nname: Tea_Brewing\ndescription: bad name\n---\nbody") }),
  );
  await expect(alert).toContainText("hyphen-case");

  await expect(dialog.getByRole("checkbox", { name: "Enable tea-brewing" })).toHaveCount(0);
  await closeSettings(page);
  await page.reload();
  const again = await openSettings(page, "Skills");
  await expect(again.getByRole("heading", { name: "Installed skills" })).toBeVisible();
  await expect(again.getByRole("checkbox", { name: /^Enable (tea-brewing|Tea_Brewing)$/ })).toHaveCount(0);
});

test("a disabled skill leaves the prompt's available skills, and /skill-name loads a skill for one message", async ({
  page,
}) => {
  await page.goto("/");
  await configureEndpoint(page);
  const dialog = await openSettings(page, "Skills");
  await dialog.getByRole("checkbox", { name: "Enable slide-deck" }).uncheck();
  await expect(dialog.getByRole("checkbox", { name: "Enable slide-deck" })).not.toBeChecked();
  await closeSettings(page);

  await send(page, "/web-page a page that says hi");
  await expect(assistantMessages(page).last()).toHaveText("You said: /web-page a page that says hi");
  const requests = await mockRequests(page);
  const request = requests.findLast((messages) => messages.some((m) => m.text.includes("a page that says hi")));
  const text = (request ?? []).map((message) => message.text).join("\n");
  expect(text).toContain("name: web-page");
  const prompt = await systemPromptFor(page, "a page that says hi");
  const available = prompt.slice(prompt.indexOf("<available_skills>"), prompt.indexOf("</available_skills>"));
  expect(available).not.toContain("slide-deck");
  expect(available).toContain("web-page");
});

test("a .skill the agent packaged with skill-creator installs from the Artifacts panel", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await configureEndpoint(page);
  await send(
    page,
    callTool("write_file", {
      path: "/mnt/user-data/workspace/haiku-writer/SKILL.md",
      content:
        "---\nname: haiku-writer\ndescription: Use when the user wants a haiku.\n---\n\n# Haiku\n\nFive, seven, five.\n",
    }),
  );
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  await send(
    page,
    callTool("bash", {
      command:
        "python3 /mnt/skills/public/skill-creator/scripts/package_skill.py /mnt/user-data/workspace/haiku-writer",
    }),
  );
  await expect(assistantMessages(page).last()).toContainText("haiku-writer.skill", { timeout: 60_000 });
  await send(page, callTool("present_files", { filepaths: ["/mnt/user-data/outputs/haiku-writer.skill"] }));
  const artifacts = page.getByRole("region", { name: "Artifacts" });
  await artifacts.getByRole("button", { name: "Install skill haiku-writer.skill" }).click();
  await expect(artifacts.getByRole("status")).toContainText("Installed haiku-writer.");

  const dialog = await openSettings(page, "Skills");
  await expect(dialog.getByRole("checkbox", { name: "Enable haiku-writer" })).toBeChecked();
});
