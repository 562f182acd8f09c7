import { describe, expect, it } from "vitest";
import {
  commandOf,
  completeSkill,
  filterSlashItems,
  slashMenuKey,
  slashQuery,
  type SlashItem,
} from "./slash-commands.ts";

const ITEMS: SlashItem[] = [
  { kind: "command", name: "new", description: "Start a new thread" },
  { kind: "command", name: "compact", description: "Summarize the thread now" },
  { kind: "command", name: "clear-memory", description: "Forget what memory holds" },
  { kind: "command", name: "help", description: "List the commands" },
  { kind: "skill", name: "chart-visualization", description: "Charts from data" },
  { kind: "skill", name: "web-page", description: "Build a web page" },
  { kind: "skill", name: "deep-research", description: "Research a topic in depth" },
];

const names = (items: SlashItem[]) => items.map((item) => item.name);

describe("slashQuery", () => {
  it("opens the menu on a slash at the start, until a space ends the name", () => {
    expect(slashQuery("/")).toBe("");
    expect(slashQuery("/web")).toBe("web");
    expect(slashQuery("/web-page make one")).toBeUndefined();
    expect(slashQuery("say /web")).toBeUndefined();
    expect(slashQuery("")).toBeUndefined();
  });
});

describe("filterSlashItems", () => {
  it("lists everything for a bare slash, commands first", () => {
    expect(names(filterSlashItems(ITEMS, ""))).toEqual(names(ITEMS));
  });

  it("puts names that start with the query before names that contain it, then description matches", () => {
    expect(names(filterSlashItems(ITEMS, "c"))).toEqual([
      "compact",
      "clear-memory",
      "chart-visualization",
      "deep-research",
    ]);
    expect(names(filterSlashItems(ITEMS, "page"))).toEqual(["web-page"]);
    expect(names(filterSlashItems(ITEMS, "research"))).toEqual(["deep-research"]);
    expect(names(filterSlashItems(ITEMS, "thread"))).toEqual(["new", "compact"]);
  });

  it("ignores case and finds nothing for an unknown name", () => {
    expect(names(filterSlashItems(ITEMS, "WEB"))).toEqual(["web-page"]);
    expect(filterSlashItems(ITEMS, "zzz")).toEqual([]);
  });
});

describe("slashMenuKey", () => {
  it("moves with the arrows, wrapping at both ends, and jumps with Home and End", () => {
    expect(slashMenuKey("ArrowDown", 0, 3)).toEqual({ kind: "move", active: 1 });
    expect(slashMenuKey("ArrowDown", 2, 3)).toEqual({ kind: "move", active: 0 });
    expect(slashMenuKey("ArrowUp", 0, 3)).toEqual({ kind: "move", active: 2 });
    expect(slashMenuKey("Home", 2, 3)).toEqual({ kind: "move", active: 0 });
    expect(slashMenuKey("End", 0, 3)).toEqual({ kind: "move", active: 2 });
  });

  it("chooses the highlighted item with Enter or Tab, and closes with Escape", () => {
    expect(slashMenuKey("Enter", 1, 3)).toEqual({ kind: "choose", index: 1 });
    expect(slashMenuKey("Tab", 2, 3)).toEqual({ kind: "choose", index: 2 });
    expect(slashMenuKey("Escape", 1, 3)).toEqual({ kind: "close" });
  });

  it("leaves other keys, and every key but Escape when nothing matches, to the text box", () => {
    expect(slashMenuKey("a", 0, 3)).toEqual({ kind: "none" });
    expect(slashMenuKey("Enter", 0, 0)).toEqual({ kind: "none" });
    expect(slashMenuKey("Escape", 0, 0)).toEqual({ kind: "close" });
  });
});

describe("completion and commands", () => {
  it("completes a skill as its slash name and a space", () => {
    expect(completeSkill("web-page")).toBe("/web-page ");
  });

  it("recognises a command typed whole, not a skill or a command with text after it", () => {
    expect(commandOf("/compact")).toBe("compact");
    expect(commandOf(" /new ")).toBe("new");
    expect(commandOf("/web-page")).toBeUndefined();
    expect(commandOf("/new thread please")).toBeUndefined();
  });
});
