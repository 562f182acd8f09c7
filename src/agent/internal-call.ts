// A model call the agent makes for itself (a title, a summary): never streamed to the user, and made with
// `stream`, because ChatOpenAI's `invoke` in streaming mode estimates tokens with tiktoken, which downloads its
// encoding from the network and hangs offline.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";

export const INTERNAL_CALL_TAGS = ["fawn:internal", "nostream"];

export interface InternalCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The model's whole answer to `messages`, as one message (its text in `content`). */
export async function internalCall(
  model: BaseChatModel,
  messages: BaseMessage[],
  options: InternalCallOptions = {},
): Promise<AIMessageChunk | undefined> {
  const signals = [options.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  const stream = await model.stream(messages, {
    // An empty list, not undefined: undefined would inherit the run's callbacks (and its `messages` stream)
    // wherever AsyncLocalStorage carries the parent config, as it does in Node.
    callbacks: [],
    tags: INTERNAL_CALL_TAGS,
    ...(signals.length > 0 && { signal: AbortSignal.any(signals) }),
  });
  let whole: AIMessageChunk | undefined;
  for await (const chunk of stream) whole = whole ? whole.concat(chunk) : chunk;
  return whole;
}
