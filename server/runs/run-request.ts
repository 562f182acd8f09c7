// A LangGraph run body (kwargs) as Fawn's RunRequest: the human messages it sends (LangGraph's serialized messages,
// as `client.runs.stream` and DeerFlow's page send them), or a resumption when the input is null (or a
// `command.resume`); the model from `context.model_name`; the mode from `context.mode` or DeerFlow's flags.
import type { AgentMode, ContentPart, MessageContent, RunRequest, UploadedFileRef } from "../../src/protocol/index.ts";
import { RunInputError, type RunKwargs } from "./run-types.ts";

const MODES: readonly AgentMode[] = ["flash", "thinking", "pro", "ultra"];

type HumanInput = RunRequest["input"]["messages"][number];

/** The request Fawn's Gateway runs for run `runId` on `threadId`; throws RunInputError for what Fawn cannot run. */
export function runRequestOf(runId: string, threadId: string, kwargs: RunKwargs): RunRequest {
  const context = runContextOf(kwargs);
  const command = kwargs.command;
  if (command && Object.keys(command).some((key) => key !== "resume")) {
    throw new RunInputError(
      "Fawn runs take input messages or resume a cut-off reply; other commands are not supported.",
    );
  }
  const resume = kwargs.input === undefined || kwargs.input === null || (command !== undefined && "resume" in command);
  if (resume) {
    return { run_id: runId, thread_id: threadId, input: { messages: [] }, context, branch: { kind: "resume" } };
  }
  const messages = (kwargs.input?.messages ?? []).map(humanInput).filter((input) => input !== undefined);
  if (messages.length === 0) throw new RunInputError("The run's input has no human message to send.");
  return { run_id: runId, thread_id: threadId, input: { messages }, context };
}

/** The model and mode a run asks for (`context`, or `config.configurable` as older clients send them). */
function runContextOf(kwargs: RunKwargs): NonNullable<RunRequest["context"]> {
  const values = { ...kwargs.config?.configurable, ...kwargs.context };
  const model = [values.model_name, values.model].find((value) => typeof value === "string" && value !== "");
  const mode = modeOf(values);
  return { ...(typeof model === "string" && { model }), ...(mode && { mode }) };
}

/** `mode` itself, else DeerFlow's flags: subagents → ultra, plan mode → pro, thinking → thinking, none → flash. */
function modeOf(values: Record<string, unknown>): AgentMode | undefined {
  if (MODES.includes(values.mode as AgentMode)) return values.mode as AgentMode;
  if (values.subagent_enabled === true) return "ultra";
  if (values.is_plan_mode === true) return "pro";
  if (values.thinking_enabled === true) return "thinking";
  if (values.thinking_enabled === false) return "flash";
  return undefined;
}

/** A human message (`type: "human"` or `role: "user"`), its text and images, and the uploads it names. */
function humanInput(message: unknown): HumanInput | undefined {
  if (typeof message === "string") return message.trim() === "" ? undefined : { type: "human", content: message };
  if (!isRecord(message)) return undefined;
  const kind = message.type ?? message.role;
  if (kind !== "human" && kind !== "user") return undefined;
  const content = contentOf(message.content);
  if (content === undefined) return undefined;
  const extra = isRecord(message.additional_kwargs) ? message.additional_kwargs : {};
  const files = Array.isArray(extra.files) ? extra.files.map(fileOf).filter((file) => file !== undefined) : [];
  return { type: "human", content, ...(files.length > 0 && { files }) };
}

function contentOf(content: unknown): MessageContent | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts: ContentPart[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push({ type: "text", text: part });
    else if (isRecord(part) && part.type === "text" && typeof part.text === "string") {
      parts.push({ type: "text", text: part.text });
    } else if (isRecord(part) && part.type === "image_url") {
      const url = isRecord(part.image_url) ? part.image_url.url : part.image_url;
      if (typeof url === "string") parts.push({ type: "image_url", image_url: { url } });
    }
  }
  return parts.length > 0 ? parts : undefined;
}

/** An upload a message names (DeerFlow's `additional_kwargs.files`): only files in the thread's uploads folder. */
function fileOf(file: unknown): UploadedFileRef | undefined {
  if (!isRecord(file) || typeof file.filename !== "string") return undefined;
  const path = typeof file.virtual_path === "string" ? file.virtual_path : file.path;
  const virtualPath = typeof path === "string" ? path : `/mnt/user-data/uploads/${file.filename}`;
  if (!virtualPath.startsWith("/mnt/user-data/uploads/") || virtualPath.includes("..")) return undefined;
  const markdown = file.markdown_virtual_path;
  return {
    filename: file.filename,
    size: typeof file.size === "number" ? file.size : 0,
    virtual_path: virtualPath,
    ...(typeof markdown === "string" && markdown.startsWith("/mnt/user-data/uploads/") && !markdown.includes("..")
      ? { markdown_virtual_path: markdown }
      : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
