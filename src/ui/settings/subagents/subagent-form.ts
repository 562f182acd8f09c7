// Settings → Subagents as a form of text fields, and back to settings: tools lists and optional numbers read here.
import type { CustomSubagentType, SubagentSettings } from "../../../protocol/index.ts";
// Its texts: Settings' English, which the first screen's dictionary does not hold (i18n/en.ts).
import "../../i18n/en-settings.ts";
import { t } from "../../i18n/index.ts";

/** One of the user's subagent types as typed. `key` identifies the row for its labels; it is never saved. */
export interface SubagentTypeForm {
  key: string;
  name: string;
  description: string;
  instructions: string;
  /** Comma-separated; empty for all the tools a subagent may have. */
  tools: string;
  /** Empty for the worker's default. */
  maxTurns: string;
  /** Empty for the time limit of all subagents. */
  timeoutSeconds: string;
}

/** The tab's fields, all text, so a half-typed number is never rewritten under the cursor. */
export interface SubagentForm {
  timeoutSeconds: string;
  maxConcurrent: string;
  maxPerRun: string;
  types: SubagentTypeForm[];
}

let nextKey = 0;

/** A fresh row key, unique on this page. */
export function newSubagentTypeKey(): string {
  nextKey += 1;
  return `subagent-type-${nextKey}`;
}

/** An empty subagent type to fill in. */
export function blankSubagentType(): SubagentTypeForm {
  return {
    key: newSubagentTypeKey(),
    name: "",
    description: "",
    instructions: "",
    tools: "",
    maxTurns: "",
    timeoutSeconds: "",
  };
}

/** A tools field as names: split at commas, trimmed, blanks and repeats dropped; undefined (all tools) when empty. */
export function parseToolList(text: string): string[] | undefined {
  const names = [...new Set(text.split(",").map((name) => name.trim()))].filter(Boolean);
  return names.length > 0 ? names : undefined;
}

/** Tool names as the tools field shows them. */
export function formatToolList(tools: readonly string[] | undefined): string {
  return tools?.join(", ") ?? "";
}

export function toSubagentForm(settings: SubagentSettings): SubagentForm {
  return {
    timeoutSeconds: String(settings.timeoutSeconds),
    maxConcurrent: String(settings.maxConcurrent),
    maxPerRun: String(settings.maxPerRun),
    types: settings.custom.map((type) => ({
      key: newSubagentTypeKey(),
      name: type.name,
      description: type.description,
      instructions: type.instructions,
      tools: formatToolList(type.tools),
      maxTurns: type.maxTurns === undefined ? "" : String(type.maxTurns),
      timeoutSeconds: type.timeoutSeconds === undefined ? "" : String(type.timeoutSeconds),
    })),
  };
}

/** A whole number as typed, or undefined for anything else. */
function wholeNumber(text: string): number | undefined {
  const value = Number(text);
  return text.trim() !== "" && Number.isInteger(value) ? value : undefined;
}

/**
 * The form as settings, or the first field that is not a whole number, named for the user. Names, ranges and
 * repeats are the worker's to check: it refuses the whole save with a readable message.
 */
export function fromSubagentForm(form: SubagentForm): { settings: SubagentSettings } | { error: string } {
  const timeoutSeconds = wholeNumber(form.timeoutSeconds);
  if (timeoutSeconds === undefined) return { error: "Subagent time limit must be a whole number of seconds." };
  const maxConcurrent = wholeNumber(form.maxConcurrent);
  if (maxConcurrent === undefined) return { error: "Subagents per response must be a whole number." };
  const maxPerRun = wholeNumber(form.maxPerRun);
  if (maxPerRun === undefined) return { error: "Subagents per run must be a whole number." };
  const custom: CustomSubagentType[] = [];
  for (const type of form.types) {
    const name = type.name.trim();
    const called = name || "a new subagent type";
    const maxTurns = wholeNumber(type.maxTurns);
    if (type.maxTurns.trim() !== "" && maxTurns === undefined) {
      return { error: `Max turns of ${called} must be a whole number, or empty.` };
    }
    const typeTimeout = wholeNumber(type.timeoutSeconds);
    if (type.timeoutSeconds.trim() !== "" && typeTimeout === undefined) {
      return { error: `The time limit of ${called} must be a whole number of seconds, or empty.` };
    }
    const tools = parseToolList(type.tools);
    custom.push({
      name,
      description: type.description.trim(),
      instructions: type.instructions.trim(),
      ...(tools && { tools }),
      ...(maxTurns !== undefined && { maxTurns }),
      ...(typeTimeout !== undefined && { timeoutSeconds: typeTimeout }),
    });
  }
  return { settings: { timeoutSeconds, maxConcurrent, maxPerRun, custom } };
}

/** A problem with one field, named by its element's id: `subagent-timeout` and the like, or `<type key>-<field>`. */
export interface SubagentFormProblem {
  id: string;
  message: string;
}

/** The names of the built-in subagents, and the longest name, description and instructions (as the worker checks). */
const BUILT_IN_NAMES = ["general-purpose", "bash"];
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
const INSTRUCTIONS_MAX = 20_000;
const HYPHEN_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * What a Save would be refused for, field by field in the order the tab shows them: a limit that is not a whole
 * number; a type's name that is empty, too long, not hyphen-case, a built-in subagent's or another type's; an empty
 * or too long description or instructions; a type's max turns or time limit that is neither empty nor whole. (Numbers
 * out of range are not problems: the worker brings them into range.)
 */
export function subagentFormProblems(form: SubagentForm): SubagentFormProblem[] {
  const problems: SubagentFormProblem[] = [];
  const at = (id: string, message: string) => problems.push({ id, message });
  if (wholeNumber(form.timeoutSeconds) === undefined) at("subagent-timeout", t("subagents.error.seconds"));
  if (wholeNumber(form.maxConcurrent) === undefined) at("subagent-max-concurrent", t("subagents.error.whole"));
  if (wholeNumber(form.maxPerRun) === undefined) at("subagent-max-per-run", t("subagents.error.whole"));
  form.types.forEach((type, index) => {
    const field = (name: keyof SubagentTypeForm) => `${type.key}-${name}`;
    const name = type.name.trim();
    if (!name) at(field("name"), t("subagents.error.name"));
    else if (name.length > NAME_MAX) at(field("name"), t("subagents.error.nameLong", { count: String(NAME_MAX) }));
    else if (!HYPHEN_CASE.test(name)) at(field("name"), t("subagents.error.nameForm"));
    else if (BUILT_IN_NAMES.includes(name)) at(field("name"), t("subagents.error.nameBuiltIn", { name }));
    else if (form.types.slice(0, index).some((other) => other.name.trim() === name)) {
      at(field("name"), t("subagents.error.nameTwice", { name }));
    }
    const description = type.description.trim();
    if (!description) at(field("description"), t("subagents.error.description"));
    else if (description.length > DESCRIPTION_MAX) {
      at(field("description"), t("subagents.error.tooLong", { count: DESCRIPTION_MAX.toLocaleString("en") }));
    }
    const instructions = type.instructions.trim();
    if (!instructions) at(field("instructions"), t("subagents.error.instructions"));
    else if (instructions.length > INSTRUCTIONS_MAX) {
      at(field("instructions"), t("subagents.error.tooLong", { count: INSTRUCTIONS_MAX.toLocaleString("en") }));
    }
    if (type.maxTurns.trim() !== "" && wholeNumber(type.maxTurns) === undefined) {
      at(field("maxTurns"), t("subagents.error.wholeOrEmpty"));
    }
    if (type.timeoutSeconds.trim() !== "" && wholeNumber(type.timeoutSeconds) === undefined) {
      at(field("timeoutSeconds"), t("subagents.error.secondsOrEmpty"));
    }
  });
  return problems;
}
