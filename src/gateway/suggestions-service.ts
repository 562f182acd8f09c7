// Follow-up suggestions as a Gateway service: one small call of the thread's model after a reply, over the thread's
// saved messages. Not a run: nothing is streamed, saved or locked, and any failure is an empty list.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { generateSuggestions } from "../agent/index.ts";
import type { ChatModelFactory } from "../models/index.ts";
import { servesBackgroundWork, type SuggestionsApi, type ThreadModelChoice } from "../protocol/index.ts";
import type { CheckpointReads } from "./checkpoint-view-cache.ts";
import type { SettingsService } from "./settings-service.ts";

/** Enough for three short questions; a model that writes more is cut off rather than billed for it. */
export const SUGGESTIONS_MAX_TOKENS = 512;

export interface SuggestionsServiceOptions {
  /** The thread's decoded checkpoints, shared with the conversation's read (one decode per checkpoint). */
  views: CheckpointReads;
  settings: Pick<SettingsService, "forRun">;
  createModel: ChatModelFactory;
  /** The checkpoint the thread shows: the version the user moved to, else the latest. */
  shownVersion: (threadId: string) => Promise<string | undefined>;
}

/**
 * Caps a freshly made model's answer length: `maxTokens` is the field OpenAI's and Anthropic's chat models send,
 * `maxOutputTokens` Gemini's. ChatOpenAI hands its calls to inner clients (`completions`, `responses`) that read
 * their own copy, so those get it too. The model is made for this one call, so nothing else sees the cap.
 */
export function limitOutput(model: BaseChatModel, tokens: number): BaseChatModel {
  const cap = { maxTokens: tokens, maxOutputTokens: tokens };
  for (const inner of ["completions", "responses"]) {
    const client = (model as unknown as Record<string, unknown>)[inner];
    if (typeof client === "object" && client !== null) Object.assign(client, cap);
  }
  return Object.assign(model, cap);
}

export class SuggestionsService implements SuggestionsApi {
  constructor(private readonly options: SuggestionsServiceOptions) {}

  /** Up to three follow-up questions for the thread; [] when there is no model, no reply yet, or anything fails. */
  async suggest(threadId: string, choice: ThreadModelChoice = {}): Promise<string[]> {
    try {
      const [{ target }, decoded] = await Promise.all([
        this.options.settings.forRun({ ...choice }),
        this.options.shownVersion(threadId).then((head) => this.options.views.read(threadId, head)),
      ]);
      const messages = decoded?.context.messages ?? [];
      if (!servesBackgroundWork(target) || messages.length === 0) return [];
      const model = limitOutput(
        await this.options.createModel(target, { model: target.model }),
        SUGGESTIONS_MAX_TOKENS,
      );
      return await generateSuggestions(model, messages);
    } catch {
      return [];
    }
  }
}
