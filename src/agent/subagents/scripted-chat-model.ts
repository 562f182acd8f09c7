// A chat model for tests that answers from a script, can take its time, and honours the abort signal of its call.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One answer: a message, an error to throw, or a function of the messages the model was sent. */
export type ScriptedReply =
  AIMessage | Error | ((messages: BaseMessage[], callIndex: number) => AIMessage | Error | Promise<AIMessage | Error>);

export interface ScriptedChatModelOptions {
  /** Answers in call order; when they run out, `fallback` answers. */
  replies?: ScriptedReply[];
  /** Without it, a call past the script throws. */
  fallback?: ScriptedReply;
  /** How long each call takes (aborting the call's signal ends the wait with an AbortError). */
  delayMs?: number;
  /** Reported as the model's name (`model`, like ChatOpenAI's). */
  model?: string;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("The call was aborted.", "AbortError");
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Records every call in `calls` and answers it from the script. `bindTools` returns the model itself: the script,
 * not the bound tools, decides which tool calls it makes.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly model: string;
  readonly calls: BaseMessage[][] = [];
  /** Calls whose answer has been given (or thrown). */
  finished = 0;
  private readonly options: ScriptedChatModelOptions;

  constructor(options: ScriptedChatModelOptions = {}) {
    super({});
    this.options = options;
    this.model = options.model ?? "scripted-model";
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const callIndex = this.calls.length;
    this.calls.push(messages);
    try {
      if (this.options.delayMs !== undefined) await wait(this.options.delayMs, options.signal);
      options.signal?.throwIfAborted();
      const reply = this.options.replies?.[callIndex] ?? this.options.fallback;
      if (reply === undefined) throw new Error(`ScriptedChatModel: no reply for call ${callIndex}.`);
      const answer = typeof reply === "function" ? await reply(messages, callIndex) : reply;
      if (answer instanceof Error) throw answer;
      return { generations: [{ text: answer.text, message: answer }] };
    } finally {
      this.finished++;
    }
  }
}

/** An AI message that calls `name` with `args` (the call's id is `id`, or made from the name). */
export function callTool(name: string, args: Record<string, unknown>, id = `call-${name}`, content = ""): AIMessage {
  return new AIMessage({ content, tool_calls: [{ id, name, args, type: "tool_call" }] });
}
