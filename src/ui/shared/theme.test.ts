import { describe, expect, it } from "vitest";
import { applyTheme, loadTheme, parseTheme, setTheme, theme, THEME_KEY } from "./theme.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe("theme choice", () => {
  it("defaults to system for nothing stored or anything unknown", () => {
    expect(parseTheme(null)).toBe("system");
    expect(parseTheme("purple")).toBe("system");
    expect(parseTheme("dark")).toBe("dark");
    expect(loadTheme(memoryStorage())).toBe("system");
    expect(loadTheme(undefined)).toBe("system");
  });

  it("reads the stored choice, and survives a storage that throws", () => {
    expect(loadTheme(memoryStorage({ [THEME_KEY]: "light" }))).toBe("light");
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(loadTheme(refusing)).toBe("system");
  });

  it("applies the choice as data-theme", () => {
    const root = { dataset: {} as DOMStringMap };
    applyTheme("dark", root);
    expect(root.dataset.theme).toBe("dark");
  });

  it("setTheme stores the choice and updates the signal", () => {
    const storage = memoryStorage();
    setTheme("dark", storage);
    expect(theme()).toBe("dark");
    expect(storage.values.get(THEME_KEY)).toBe("dark");
    setTheme("system", {
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    });
    expect(theme()).toBe("system");
  });
});
