// The suggestions domain's contract (`gateway.suggestions`): the composer's follow-up questions.
import type { ThreadModelChoice } from "./context-api.ts";

export interface SuggestionsApi {
  /**
   * Up to three short questions the user might ask next, from one small model call over the thread's latest visible
   * messages (the model of `model`, as a run would pick it). Never a run, never saved; [] on any failure.
   */
  suggest(threadId: string, model?: ThreadModelChoice): Promise<string[]>;
}
