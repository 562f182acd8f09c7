// The composer's extras store: follow-up suggestions after a reply, the thread's context use, what fills the
// composer from elsewhere (a welcome example), and the slash commands' work (/compact, /clear-memory).
import { createSignal } from "solid-js";
import type { ThreadContextUsage, ThreadModelChoice } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { suggestionsEnabled } from "./suggestions-setting.ts";
import type { NoticeOptions } from "../shared/notice.ts";

export interface ComposerExtrasDeps {
  client: GatewayClient;
  /** The open thread's id, if any. */
  threadId: () => string | undefined;
  /** The model the next message goes to. */
  model: () => ThreadModelChoice;
  setNotice: (text: string | undefined, options?: NoticeOptions) => void;
}

/** Text to put in the composer; a new object each time, so the same text can be asked for twice. */
export interface ComposerFill {
  text: string;
}

export function createComposerExtras(deps: ComposerExtrasDeps) {
  const [suggestions, setSuggestions] = createSignal<{ threadId: string; questions: string[] } | undefined>();
  const [usage, setUsage] = createSignal<{ threadId: string; usage: ThreadContextUsage } | undefined>();
  const [fill, setFill] = createSignal<ComposerFill | undefined>();
  const [compacting, setCompacting] = createSignal(false);
  /** Bumped by every send: suggestions asked before it are stale when they arrive. */
  let generation = 0;

  /** Reads the thread's context use again (after a run, a /compact, opening it); failures leave the gauge as it was. */
  async function refreshUsage(threadId = deps.threadId()): Promise<void> {
    if (!threadId) return;
    try {
      const next = await deps.client.context.usage(threadId, deps.model());
      setUsage({ threadId, usage: next });
    } catch {
      // The gauge is a hint: an error here is not worth a notice.
    }
  }

  /** A run on `threadId` ended: its context use is read again and, after a success, suggestions are asked for. */
  function runEnded(threadId: string, success: boolean): void {
    void refreshUsage(threadId);
    if (!success || !suggestionsEnabled()) return;
    const asked = ++generation;
    void deps.client.suggestions
      .suggest(threadId, deps.model())
      .then((questions) => {
        if (asked === generation && questions.length > 0) setSuggestions({ threadId, questions });
      })
      .catch(() => undefined);
  }

  /** A message is being sent: the suggestions of the previous reply go, and late ones are dropped. */
  function messageSent(): void {
    generation++;
    setSuggestions(undefined);
  }

  /** `/compact`: folds the open thread's older messages into its summary; the notice says what happened. */
  async function compact(): Promise<void> {
    const threadId = deps.threadId();
    if (!threadId) {
      deps.setNotice(t("slash.compactNothing"), { kind: "info" });
      return;
    }
    setCompacting(true);
    try {
      const result = await deps.client.context.compact(threadId, deps.model());
      setUsage({ threadId, usage: result.usage });
      // News about this thread: it stays with it.
      deps.setNotice(
        result.compacted ? t("slash.compacted", { count: String(result.folded) }) : t("slash.compactNothing"),
        { kind: result.compacted ? "success" : "info", threadId },
      );
    } catch (error) {
      deps.setNotice(errorMessage(error), { threadId });
    } finally {
      setCompacting(false);
    }
  }

  /** `/clear-memory`, once confirmed: forgets every summary and fact, as Settings → Memory's Clear does. */
  async function clearMemory(): Promise<void> {
    try {
      await deps.client.memory.clear();
      deps.setNotice(t("slash.memoryCleared"), { kind: "success" });
    } catch (error) {
      deps.setNotice(errorMessage(error));
    }
  }

  return {
    /** The follow-up questions for the open thread's last reply (none while a message is on its way). */
    suggestions: () => {
      const shown = suggestions();
      return shown && shown.threadId === deps.threadId() && suggestionsEnabled() ? shown.questions : [];
    },
    /** The open thread's context use, once read. */
    usage: () => {
      const shown = usage();
      return shown && shown.threadId === deps.threadId() ? shown.usage : undefined;
    },
    refreshUsage,
    runEnded,
    messageSent,
    /** What the composer should hold next (the welcome screen's examples set it). */
    fill,
    fillComposer: (text: string) => setFill({ text }),
    compacting,
    compact,
    clearMemory,
  };
}

export type ComposerExtras = ReturnType<typeof createComposerExtras>;
