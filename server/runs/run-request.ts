// A LangGraph run body (kwargs) as Fawn's RunRequest: the human messages it sends (LangGraph's serialized messages,
// as `client.runs.stream` and DeerFlow's page send them, with the client's ids and the `additional_kwargs` Fawn
// keeps), or a resumption when the input is null (or a `command.resume`); from a `checkpoint`, an edit (with input)
// or a regeneration (without) on Fawn's branches; the model from `context.model_name`; the mode from `context.mode`
// or DeerFlow's flags.
import type {
  AgentMode,
  ContentPart,
  HumanMessageExtras,
  MessageContent,
  RunInputMessage,
  RunRequest,
  UploadedFileRef,
} from "../../src/protocol/index.ts";
import { RunInputError, type RunKwargs } from "./run-types.ts";

const MODES: readonly AgentMode[] = ["flash", "thinking", "pro", "ultra"];

/** A client's message id: LangChain's (UUIDs, `run-…`, `lc_…`) fit; anything else is refused. */
const MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** LangGraph's checkpoint ids are UUIDs (v6); Fawn's checkpointer keeps them as given. */
const CHECKPOINT_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** The most uploads one message names. */
const MAX_FILES = 100;

/** The largest `human_input_response` kept, as JSON. */
const MAX_INPUT_RESPONSE = 16 * 1024;

/** The request Fawn's Gateway runs for run `runId` on `threadId`; throws RunInputError for what Fawn cannot run. */
export function runRequestOf(runId: string, threadId: string, kwargs: RunKwargs): RunRequest {
  const context = runContextOf(kwargs);
  const command = kwargs.command;
  if (command && Object.keys(command).some((key) => key !== "resume")) {
    throw new RunInputError(
      "Fawn runs take input messages or resume a cut-off reply; other commands are not supported.",
    );
  }
  const checkpoint = checkpointOf(kwargs);
  const resume = kwargs.input === undefined || kwargs.input === null || (command !== undefined && "resume" in command);
  if (resume) {
    const branch =
      checkpoint === undefined || command?.resume !== undefined
        ? ({ kind: "resume" } as const)
        : ({ kind: "regenerate", checkpoint } as const);
    return { run_id: runId, thread_id: threadId, input: { messages: [] }, context, branch };
  }
  const given: unknown = kwargs.input?.messages ?? [];
  if (!Array.isArray(given)) throw new RunInputError("The run's input.messages must be a list of messages.");
  const messages = given.map(humanInput).filter((input) => input !== undefined);
  if (messages.length === 0) throw new RunInputError("The run's input has no human message to send.");
  return {
    run_id: runId,
    thread_id: threadId,
    input: { messages },
    context,
    ...(checkpoint !== undefined && { branch: { kind: "edit", checkpoint } }),
  };
}

/**
 * The checkpoint a run starts from: LangGraph's `checkpoint.checkpoint_id`, the top-level `checkpoint_id`, or
 * `config.configurable.checkpoint_id` (undefined: the thread's current one). Only the root namespace is Fawn's.
 */
export function checkpointOf(kwargs: RunKwargs): string | undefined {
  const configurable = kwargs.config?.configurable ?? {};
  const id = kwargs.checkpoint?.checkpoint_id ?? kwargs.checkpoint_id ?? configurable.checkpoint_id;
  if (id === undefined || id === null || id === "") return undefined;
  if (typeof id !== "string" || !CHECKPOINT_ID.test(id))
    throw new RunInputError("The run's checkpoint_id is not valid.");
  const namespace = kwargs.checkpoint?.checkpoint_ns ?? configurable.checkpoint_ns;
  if (namespace !== undefined && namespace !== null && namespace !== "") {
    throw new RunInputError('Fawn runs start from a checkpoint of the thread\'s root graph (checkpoint_ns "").');
  }
  return id;
}

/** The model and mode a run asks for (`context`, or `config.configurable` as older clients send them). */
function runContextOf(kwargs: RunKwargs): NonNullable<RunRequest["context"]> {
  const values = { ...kwargs.config?.configurable, ...kwargs.context };
  const model = [values.model_name, values.model].find((value) => typeof value === "string" && value !== "");
  const mode = modeOf(values);
  // DeerFlow's `agent_name` (or Fawn's `agent`): the custom agent; null goes back to the lead agent.
  const agent = [values.agent_name, values.agent].find((value) => value === null || typeof value === "string");
  return {
    ...(typeof model === "string" && { model }),
    ...(mode && { mode }),
    ...(agent !== undefined && { agent: agent === "" ? null : (agent as string | null) }),
  };
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
function humanInput(message: unknown): RunInputMessage | undefined {
  if (typeof message === "string") return message.trim() === "" ? undefined : { type: "human", content: message };
  if (!isRecord(message)) return undefined;
  const kind = message.type ?? message.role;
  if (kind !== "human" && kind !== "user") return undefined;
  const content = contentOf(message.content);
  if (content === undefined) return undefined;
  const extra = isRecord(message.additional_kwargs) ? message.additional_kwargs : {};
  const files = Array.isArray(extra.files) ? extra.files.map(fileOf).filter((file) => file !== undefined) : [];
  if (files.length > MAX_FILES) throw new RunInputError(`A message names at most ${MAX_FILES} uploaded files.`);
  const id = messageIdOf(message.id);
  const kept = extrasOf(extra);
  return {
    type: "human",
    content,
    ...(files.length > 0 && { files }),
    ...(id !== undefined && { id }),
    ...(kept && { additional_kwargs: kept }),
  };
}

/** The client's message id (absent or null: Fawn gives one); one that is not a plain id is refused. */
function messageIdOf(id: unknown): string | undefined {
  if (id === undefined || id === null || id === "") return undefined;
  if (typeof id !== "string" || !MESSAGE_ID.test(id)) {
    throw new RunInputError("A message id must be 1 to 128 letters, digits, '_', '-', '.' or ':'.");
  }
  return id;
}

/** The `additional_kwargs` Fawn keeps on a user message: `hide_from_ui` (a boolean) and `human_input_response`. */
function extrasOf(extra: Record<string, unknown>): HumanMessageExtras | undefined {
  const kept: HumanMessageExtras = {};
  if (typeof extra.hide_from_ui === "boolean") kept.hide_from_ui = extra.hide_from_ui;
  const response = extra.human_input_response;
  if (response !== undefined && response !== null) {
    if (JSON.stringify(response).length > MAX_INPUT_RESPONSE) {
      throw new RunInputError("A message's human_input_response is over 16 KB.");
    }
    kept.human_input_response = response;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
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
  if (!isRecord(file) || typeof file.filename !== "string" || !/^[^/\\]{1,255}$/.test(file.filename)) return undefined;
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
