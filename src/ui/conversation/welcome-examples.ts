// The welcome screen's examples as data (welcome.tsx shows them): also read at build time by the prerendered first
// screen (scripts/vite-plugin-first-screen.ts), so this file imports types only.
import type { AgentMode } from "../../protocol/index.ts";
import type { FirstScreenTextKey } from "../i18n/index.ts";

/** One example on the welcome screen. */
export interface WelcomeExample {
  title: FirstScreenTextKey;
  prompt: FirstScreenTextKey;
  hint?: FirstScreenTextKey;
  /** The Mode the example needs (subagents need Ultra). */
  mode?: AgentMode;
  /** A 24×24 line drawing (an emoji would need an emoji font, which not every system has). */
  icon: string;
}

/** The welcome screen's examples, in order. */
export const WELCOME_EXAMPLES: readonly WelcomeExample[] = [
  // A line chart.
  { title: "welcome.report", prompt: "welcome.reportPrompt", icon: "M4 4v16h16M7 15l4-5 3 3 5-6" },
  // A table.
  {
    title: "welcome.csv",
    prompt: "welcome.csvPrompt",
    hint: "welcome.csvHint",
    icon: "M4 5h16v14H4zM4 10h16M4 15h16M10 5v14",
  },
  // A browser window.
  { title: "welcome.page", prompt: "welcome.pagePrompt", icon: "M3 5h18v14H3zM3 9h18M6 7h.01M9 7h.01" },
  // Three nodes from one: subagents.
  {
    title: "welcome.research",
    prompt: "welcome.researchPrompt",
    hint: "welcome.researchHint",
    mode: "ultra",
    icon: "M10 3h4v4h-4zM12 7v4M6 11h12M6 11v4M12 11v4M18 11v4M4 15h4v4H4zM10 15h4v4h-4zM16 15h4v4h-4z",
  },
];
