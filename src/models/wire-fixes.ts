// Where a provider's stream says more than its LangChain SDK reads, the chat models Fawn builds read it too: the
// reasoning OpenAI-compatible servers send as `reasoning` (Ollama, vLLM, OpenRouter) next to DeepSeek's
// `reasoning_content`, OpenAI's `refusal` text, and Anthropic's output tokens, which message_delta reports as a running
// total; and they send back what a provider needs again: DeepSeek's reasoning of a turn that called tools. Each was
// found by replaying the providers' own recorded streams (test/integration/provider-wire-formats.test.ts).
import type { BaseMessage, BaseMessageChunk } from "@langchain/core/messages";
import type { ChatGenerationChunk } from "@langchain/core/outputs";
import type { ChatAnthropic } from "@langchain/anthropic";
import type { ChatOpenAICompletions } from "@langchain/openai";

type Delta = Record<string, unknown>;

/** The reasoning a delta or message carries under a name LangChain does not read, when it lacks `reasoning_content`. */
function extraReasoning(part: Delta): string | undefined {
  if (typeof part.reasoning_content === "string") return undefined;
  return typeof part.reasoning === "string" && part.reasoning.length > 0 ? part.reasoning : undefined;
}

/** The refusal text OpenAI sends instead of content; the user reads it as the reply. */
function refusalOf(part: Delta): string | undefined {
  return typeof part.refusal === "string" && part.refusal.length > 0 ? part.refusal : undefined;
}

function amend<T extends BaseMessageChunk | { content: unknown; additional_kwargs: Record<string, unknown> }>(
  message: T,
  part: Delta,
): T {
  const reasoning = extraReasoning(part);
  if (reasoning !== undefined) message.additional_kwargs.reasoning_content = reasoning;
  const refusal = refusalOf(part);
  if (refusal !== undefined && typeof message.content === "string") message.content += refusal;
  return message;
}

/** The reasoning of each earlier reply that called tools, by the id of its first call. */
function toolTurnReasoning(messages: BaseMessage[]): Map<string, string> {
  const byCall = new Map<string, string>();
  for (const message of messages) {
    const reasoning = message.additional_kwargs?.reasoning_content;
    const firstCall = (message as { tool_calls?: { id?: string }[] }).tool_calls?.[0]?.id;
    if (typeof reasoning === "string" && reasoning.length > 0 && firstCall) byCall.set(firstCall, reasoning);
  }
  return byCall;
}

/**
 * The request with each assistant message that called tools carrying its reasoning as `reasoning_content`: DeepSeek's
 * thinking mode refuses a request without it ("The reasoning_content in the thinking mode must be passed back to the
 * API", https://api-docs.deepseek.com/guides/thinking_mode); servers that do not know the field ignore it.
 */
function withToolTurnReasoning<T>(request: T, byCall: Map<string, string>): T {
  const messages = (request as { messages?: unknown }).messages;
  if (byCall.size === 0 || !Array.isArray(messages)) return request;
  return {
    ...request,
    messages: messages.map((message: Record<string, unknown>) => {
      const calls = message.tool_calls as { id?: string }[] | undefined;
      const reasoning = message.role === "assistant" && calls?.[0]?.id ? byCall.get(calls[0].id) : undefined;
      return reasoning === undefined || message.reasoning_content !== undefined
        ? message
        : { ...message, reasoning_content: reasoning };
    }),
  };
}

/**
 * ChatOpenAICompletions that also reads `delta.reasoning` as the reasoning and `delta.refusal` as reply text, and sends
 * the reasoning of turns that called tools back (ChatOpenAI takes it as its `completions`).
 */
export function completionsReadingEveryField(Base: typeof ChatOpenAICompletions): typeof ChatOpenAICompletions {
  return class extends Base {
    override async *_streamResponseChunks(
      ...args: Parameters<ChatOpenAICompletions["_streamResponseChunks"]>
    ): AsyncGenerator<ChatGenerationChunk> {
      // The base method sends its request through this.completionWithRetry in the same synchronous step, before any
      // other call can set it again.
      const byCall = toolTurnReasoning(args[0]);
      const send = Base.prototype.completionWithRetry as (request: unknown, options?: unknown) => unknown;
      this.completionWithRetry = ((request: unknown, options?: unknown) =>
        send.call(this, withToolTurnReasoning(request, byCall), options)) as typeof this.completionWithRetry;
      yield* super._streamResponseChunks(...args);
    }

    override _convertCompletionsDeltaToBaseMessageChunk(
      delta: Delta,
      rawResponse: Parameters<ChatOpenAICompletions["_convertCompletionsDeltaToBaseMessageChunk"]>[1],
      defaultRole?: Parameters<ChatOpenAICompletions["_convertCompletionsDeltaToBaseMessageChunk"]>[2],
    ): BaseMessageChunk {
      return amend(super._convertCompletionsDeltaToBaseMessageChunk(delta, rawResponse, defaultRole), delta);
    }

    override _convertCompletionsMessageToBaseMessage(
      message: Parameters<ChatOpenAICompletions["_convertCompletionsMessageToBaseMessage"]>[0],
      rawResponse: Parameters<ChatOpenAICompletions["_convertCompletionsMessageToBaseMessage"]>[1],
    ): ReturnType<ChatOpenAICompletions["_convertCompletionsMessageToBaseMessage"]> {
      const converted = super._convertCompletionsMessageToBaseMessage(message, rawResponse);
      return amend(converted, message as unknown as Delta);
    }
  };
}

/**
 * ChatAnthropic whose streamed usage counts output tokens once: message_start reports the first one or two, and
 * message_delta's `output_tokens` is the total so far, those included (Anthropic's SDK replaces the count with it), so
 * summing the two, as LangChain's chunks do, counts the first ones twice. The first usage (message_start's) keeps its
 * input tokens and drops its output tokens.
 */
export function anthropicCountingOutputOnce(Base: typeof ChatAnthropic): typeof ChatAnthropic {
  return class extends Base {
    override async *_streamResponseChunks(
      ...args: Parameters<ChatAnthropic["_streamResponseChunks"]>
    ): AsyncGenerator<ChatGenerationChunk> {
      let first = true;
      for await (const chunk of super._streamResponseChunks(...args)) {
        const usage = (chunk.message as { usage_metadata?: { input_tokens: number; output_tokens: number } })
          .usage_metadata;
        if (first && usage) {
          first = false;
          (chunk.message as { usage_metadata?: unknown }).usage_metadata = {
            ...usage,
            output_tokens: 0,
            total_tokens: usage.input_tokens,
          };
        }
        yield chunk;
      }
    }
  };
}
