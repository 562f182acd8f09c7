// The context domain's contract (`gateway.context`): how much of its model's context window a thread uses, and
// `/compact`.

/** The model a composer call is about (as in a run's context); none: the default model. */
export interface ThreadModelChoice {
  model?: string;
  endpoint?: string;
}

/** A thread's use of its model's context window. */
export interface ThreadContextUsage {
  /** Tokens of the thread's next request, as the last model call counted them (see `ContextApi.usage`). */
  tokens: number;
  /** The model's context window in tokens. */
  window: number;
}

/** What `/compact` did. */
export interface ThreadCompaction {
  /** False when there was too little to fold (the latest messages always stay as they are). */
  compacted: boolean;
  /** Messages now sent as the summary instead (0 when nothing was folded). */
  folded: number;
  /** The thread's context use afterwards. */
  usage: ThreadContextUsage;
}

export interface ContextApi {
  /**
   * How much of the model's context window the thread uses: its last model call's reported tokens (the input and the
   * answer, which the next request carries), less what a `/compact` took off since; estimated from the messages when
   * the provider reports no usage.
   */
  usage(threadId: string, model?: ThreadModelChoice): Promise<ThreadContextUsage>;
  /**
   * `/compact`: folds the thread's older messages into its summary now, as summarization does past its trigger, so
   * the next request sends less; the conversation still shows every message. Refused while the thread runs.
   */
  compact(threadId: string, model?: ThreadModelChoice): Promise<ThreadCompaction>;
}
