// What each tool step shows: an assistant message's tool calls, paired with their results, turned into steps a
// reader understands at a glance: a command and its output, a file written with its content, search results as
// links, a fetched page, an edit as the text replaced. Pure, so that the rules are tested without a DOM.
import { contentText, type ToolWireMessage, type WireMessage, type WireToolCall } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import { imageHits, type ImageHit } from "./image-search-step.ts";

/**
 * `running`: the live run is on it; `pending`: its result is still to come (a replay shows it a step later);
 * `failed`: it ended in an error, or without a result (the run was stopped).
 */
export type StepStatus = "running" | "pending" | "done" | "failed";

export interface SearchLink {
  title: string;
  url: string;
  snippet: string;
}

/** The body of a step, by what the tool did. */
export type StepBody =
  | { kind: "command"; command: string; output: string | undefined }
  | { kind: "file"; path: string; content: string; append: boolean }
  | { kind: "edit"; path: string; before: string; after: string; output: string | undefined }
  | { kind: "links"; links: SearchLink[]; output: string | undefined }
  | { kind: "images"; images: ImageHit[]; output: string | undefined }
  | { kind: "page"; url: string; output: string | undefined }
  | { kind: "files"; paths: string[] }
  | { kind: "output"; args: string | undefined; output: string | undefined };

export interface ToolStep {
  id: string;
  tool: string;
  /** One line: what the step did, e.g. "Ran ls -la" or "Wrote /mnt/user-data/outputs/report.md". */
  title: string;
  /** Why the agent took the step, in its own words (the sandbox tools' `description` argument). */
  note: string | undefined;
  status: StepStatus;
  body: StepBody;
}

const NOTHING_AWAITED: ReadonlySet<string> = new Set();

/** Tool results by the id of the call they answer. */
export type ToolResults = ReadonlyMap<string, ToolWireMessage>;

export function toolResultsOf(messages: readonly WireMessage[]): Map<string, ToolWireMessage> {
  const results = new Map<string, ToolWireMessage>();
  for (const message of messages) if (message.type === "tool") results.set(message.tool_call_id, message);
  return results;
}

/** A tool's text marks a failure when the tool said so or its text starts with "Error:" (the sandbox tools' way). */
function failed(result: ToolWireMessage, output: string): boolean {
  return result.status === "error" || /^Error:/.test(output.trimStart()) || /\[exit code [1-9]\d*\]\s*$/.test(output);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The first line of a command, cut to a readable length, for the step's title. */
function oneLine(value: string, max = 80): string {
  const first = value.trim().split("\n")[0] ?? "";
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return value.trim().includes("\n") && cut === first ? `${cut} …` : cut;
}

/** web_search's JSON (`{ results: [{ title, url, content }] }`) as links; none when the text is not that JSON. */
export function searchLinks(output: string): SearchLink[] {
  try {
    const parsed: unknown = JSON.parse(output);
    const results = (parsed as { results?: unknown }).results;
    if (!Array.isArray(results)) return [];
    return results.flatMap((result: unknown) => {
      const { title, url, content } = (result ?? {}) as Record<string, unknown>;
      const href = text(url);
      // Only web links become anchors: a javascript: or data: URL from a search result is never clickable.
      if (!/^https?:\/\//i.test(href)) return [];
      return [{ title: text(title) || href, url: href, snippet: text(content) }];
    });
  } catch {
    return [];
  }
}

/** The MCP server and its own name for the tool, when the result says (the MCP layer puts them in its artifact). */
function mcpOrigin(result: ToolWireMessage | undefined): { server: string; tool: string } | undefined {
  const artifact = result?.artifact as { mcp_server?: unknown; mcp_tool?: unknown } | undefined;
  return typeof artifact?.mcp_server === "string" && typeof artifact.mcp_tool === "string"
    ? { server: artifact.mcp_server, tool: artifact.mcp_tool }
    : undefined;
}

/** A tool's arguments as the step's details show them; none when it has none. */
function argsText(args: Record<string, unknown>): string | undefined {
  return Object.keys(args).length > 0 ? JSON.stringify(args, null, 2) : undefined;
}

/** A tool name as words: `create_issue` reads "create issue" (the raw name stays in the step's details). */
export function friendlyToolName(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words || name;
}

function describe(
  call: WireToolCall,
  output: string | undefined,
  result?: ToolWireMessage,
): Pick<ToolStep, "title" | "body"> {
  const args = call.args;
  switch (call.name) {
    case "bash": {
      const command = text(args.command);
      const title = command.trim() ? t("steps.ran", { command: oneLine(command) }) : t("steps.ranCommand");
      return { title, body: { kind: "command", command, output } };
    }
    case "write_file": {
      const path = text(args.path);
      const append = args.append === true;
      return {
        title: path ? t(append ? "steps.appended" : "steps.wrote", { path }) : t("steps.wroteFile"),
        body: { kind: "file", path, content: text(args.content), append },
      };
    }
    case "str_replace": {
      const path = text(args.path);
      return {
        title: path ? t("steps.edited", { path }) : t("steps.editedFile"),
        body: { kind: "edit", path, before: text(args.old_str), after: text(args.new_str), output },
      };
    }
    case "read_file": {
      const path = text(args.path);
      const start = typeof args.start_line === "number" ? args.start_line : undefined;
      const end = typeof args.end_line === "number" ? args.end_line : undefined;
      const title =
        start !== undefined || end !== undefined
          ? t("steps.readLines", {
              path,
              start: String(start ?? 1),
              end: end === undefined ? t("steps.lineEnd") : String(end),
            })
          : path
            ? t("steps.read", { path })
            : t("steps.readFile");
      return { title, body: { kind: "output", args: undefined, output } };
    }
    case "ls": {
      const path = text(args.path);
      return {
        title: path ? t("steps.listed", { path }) : t("steps.listedFiles"),
        body: { kind: "output", args: undefined, output },
      };
    }
    case "glob":
      return {
        title: t("steps.globbed", { pattern: text(args.pattern), path: text(args.path) }),
        body: { kind: "output", args: undefined, output },
      };
    case "grep":
      return {
        title: t("steps.grepped", { pattern: text(args.pattern), path: text(args.path) }),
        body: { kind: "output", args: undefined, output },
      };
    case "web_search":
      return {
        title: text(args.query) ? t("steps.searchedWeb", { query: text(args.query) }) : t("steps.searchedTheWeb"),
        body: { kind: "links", links: output === undefined ? [] : searchLinks(output), output },
      };
    case "image_search":
      return {
        title: text(args.query) ? t("steps.searchedImages", { query: text(args.query) }) : t("steps.searchedTheImages"),
        body: { kind: "images", images: output === undefined ? [] : imageHits(output), output },
      };
    case "web_fetch": {
      const url = text(args.url);
      return { title: url ? t("steps.read", { path: url }) : t("steps.readPage"), body: { kind: "page", url, output } };
    }
    case "present_files": {
      const paths = Array.isArray(args.filepaths) ? args.filepaths.filter((path) => typeof path === "string") : [];
      const names = paths.map((path) => path.split("/").pop() ?? path);
      return {
        title: names.length > 0 ? t("steps.presented", { names: names.join(", ") }) : t("steps.presentedFiles"),
        body: { kind: "files", paths },
      };
    }
    case "view_image":
      return {
        title: text(args.image_path) ? t("steps.lookedAt", { path: text(args.image_path) }) : t("steps.lookedAtImage"),
        body: { kind: "output", args: undefined, output },
      };
    case "write_todos":
      return { title: t("steps.updatedPlan"), body: { kind: "output", args: argsText(args), output } };
    case "ask_clarification":
      return { title: t("steps.askedYou"), body: { kind: "output", args: argsText(args), output } };
    case "task":
      // Its description is the step's note.
      return { title: t("steps.gaveSubtask"), body: { kind: "output", args: argsText(args), output } };
    case "tool_search":
      return { title: t("steps.lookedForTools"), body: { kind: "output", args: argsText(args), output } };
    default: {
      const { description: _description, ...rest } = args;
      const mcp = mcpOrigin(result);
      const title = mcp
        ? t("steps.usedMcp", { tool: friendlyToolName(mcp.tool), server: mcp.server })
        : t("steps.used", { tool: friendlyToolName(call.name) });
      return { title, body: { kind: "output", args: argsText(rest), output } };
    }
  }
}

/**
 * The steps of a message's tool calls. A call with no result yet is running while the reply streams, and pending
 * when its result is known to come later (`awaited`: a replay shows it a step later); otherwise, after the run, it
 * has none (it was stopped), which shows as failed rather than running forever.
 */
export function toolSteps(
  calls: readonly WireToolCall[],
  results: ToolResults,
  streaming: boolean,
  awaited: ReadonlySet<string> = NOTHING_AWAITED,
): ToolStep[] {
  return calls.map((call) => {
    const result = results.get(call.id);
    const output = result ? contentText(result.content) : undefined;
    const status: StepStatus =
      result === undefined
        ? streaming
          ? "running"
          : awaited.has(call.id)
            ? "pending"
            : "failed"
        : failed(result, output ?? "")
          ? "failed"
          : "done";
    const note = text(call.args.description).trim() || undefined;
    return { id: call.id, tool: call.name, note, status, ...describe(call, output, result) };
  });
}
