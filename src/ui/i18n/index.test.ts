import { afterEach, describe, expect, it } from "vitest";
import { formatBytes, formatNumber, locale, rich, setLanguage, t, tn } from "./index.ts";

const memory = () => {
  const stored = new Map<string, string>();
  return { stored, setItem: (key: string, value: string) => void stored.set(key, value) };
};

afterEach(async () => {
  await setLanguage("en", memory());
});

describe("translation", () => {
  it("speaks English by default, filling templates", () => {
    expect(locale()).toBe("en");
    expect(t("composer.send")).toBe("Send");
    expect(t("composer.remove", { name: "a.txt" })).toBe("Remove a.txt");
  });

  it("keeps what it fills in as it is, even text that looks like a replacement pattern", () => {
    expect(t("header.deleteConfirm", { title: "Save $& and $1 {{ title }}" })).toBe(
      'Delete "Save $& and $1 {{ title }}" and everything in it? This cannot be undone.',
    );
  });

  it("switches to Simplified Chinese once its dictionary has loaded, and stores the choice", async () => {
    const storage = memory();
    await setLanguage("zh-CN", storage);
    expect(storage.stored.get("fawn.language")).toBe("zh-CN");
    expect(locale()).toBe("zh-CN");
    expect(t("composer.send")).toBe("发送");
    expect(t("header.deleteConfirm", { title: "旅行" })).toBe("删除“旅行”及其全部内容？此操作无法撤销。");
    await setLanguage("en", storage);
    expect(t("composer.send")).toBe("Send");
  });

  it("picks the plural form for the count, written in the locale", async () => {
    expect(tn("tokens.count", 1)).toBe("1 token");
    expect(tn("tokens.count", 12345)).toBe("12,345 tokens");
    await setLanguage("zh-CN", memory());
    expect(tn("tokens.count", 1)).toBe("1 Token");
    expect(tn("subtasks.steps", 3)).toBe("3 个步骤");
  });

  it("puts elements where each language's placeholders are", async () => {
    expect(rich("conversation.using", { model: "M" })).toEqual(["Using ", "M", ". Your threads stay in this browser."]);
    await setLanguage("zh-CN", memory());
    expect(rich("conversation.using", { model: "M" })).toEqual(["正在使用 ", "M", "。你的对话只保存在此浏览器中。"]);
  });
});

describe("formatting", () => {
  it("writes numbers and sizes as before in English", () => {
    expect(formatNumber(12345)).toBe("12,345");
    expect(formatBytes(1000)).toBe("1000 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50.0 MB");
  });
});
