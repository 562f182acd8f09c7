// The slash menu's model, as pure functions: when the composer's text opens it, which commands and skills match what
// was typed, and what a key does in it (ArrowUp/Down move, Enter/Tab choose, Escape closes).

/** The composer's own commands, in the order the menu lists them. */
export const SLASH_COMMANDS = ["new", "compact", "clear-memory", "help"] as const;
export type SlashCommand = (typeof SLASH_COMMANDS)[number];

/** One entry of the menu: a command the composer runs, or a skill `/name …` activates in the next run. */
export type SlashItem =
  { kind: "command"; name: SlashCommand; description: string } | { kind: "skill"; name: string; description: string };

/**
 * What was typed after the slash while the menu is open: the whole text is `/` and a name being typed (no space yet).
 * Undefined otherwise: the menu is for the start of a message, and a space ends the name.
 */
export function slashQuery(text: string): string | undefined {
  const match = /^\/(\S*)$/.exec(text);
  return match ? match[1] : undefined;
}

/**
 * The items whose name matches `query` (case-insensitive): names that start with it first, then names that contain
 * it, then those whose description does; commands before skills within each, each group in its given order.
 */
export function filterSlashItems(items: readonly SlashItem[], query: string): SlashItem[] {
  const wanted = query.toLowerCase();
  const rank = (item: SlashItem): number => {
    const name = item.name.toLowerCase();
    if (name.startsWith(wanted)) return 0;
    if (name.includes(wanted)) return 1;
    if (wanted.length > 1 && item.description.toLowerCase().includes(wanted)) return 2;
    return -1;
  };
  return items
    .map((item, index) => ({ item, index, rank: rank(item), kind: item.kind === "command" ? 0 : 1 }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.kind - b.kind || a.index - b.index)
    .map((entry) => entry.item);
}

/** What a key pressed in the composer does while the menu shows `count` items with `active` highlighted. */
export type SlashKeyAction =
  | { kind: "move"; active: number }
  | { kind: "choose"; index: number }
  | { kind: "close" }
  /** Not the menu's key: the text box handles it as usual. */
  | { kind: "none" };

/**
 * The menu's keyboard model: ArrowDown/ArrowUp move through the items (wrapping), Home/End go to the first and last,
 * Enter and Tab choose the highlighted item, Escape closes the menu. With no item, only Escape is the menu's.
 */
export function slashMenuKey(key: string, active: number, count: number): SlashKeyAction {
  if (key === "Escape") return { kind: "close" };
  if (count === 0) return { kind: "none" };
  switch (key) {
    case "ArrowDown":
      return { kind: "move", active: (active + 1) % count };
    case "ArrowUp":
      return { kind: "move", active: (active - 1 + count) % count };
    case "Home":
      return { kind: "move", active: 0 };
    case "End":
      return { kind: "move", active: count - 1 };
    case "Enter":
    case "Tab":
      return { kind: "choose", index: Math.min(Math.max(active, 0), count - 1) };
    default:
      return { kind: "none" };
  }
}

/** The composer's text once a skill is chosen: its slash name and a space, ready for the request. */
export function completeSkill(name: string): string {
  return `/${name} `;
}

/** The command the whole text names (`/compact`, with spaces around allowed), if it is one of the composer's. */
export function commandOf(text: string): SlashCommand | undefined {
  const name = /^\/(\S+)$/.exec(text.trim())?.[1];
  return SLASH_COMMANDS.find((command) => command === name);
}
