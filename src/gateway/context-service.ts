// The thread's context window as a Gateway service: how much of it the next request would use, and `/compact`, which
// folds older messages into the summary now (under the thread's run lock, so no run writes it meanwhile).
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { compactThread } from "../agent/index.ts";
import type { ChatModelFactory } from "../models/index.ts";
import type {
  ContextApi,
  ModelTarget,
  ThreadCompaction,
  ThreadContextUsage,
  ThreadModelChoice,
} from "../protocol/index.ts";
import { describeModelError } from "../models/index.ts";
import { redactSecrets } from "../shared/redact.ts";
import { UserError } from "../shared/user-error.ts";
import type { CheckpointReads } from "./checkpoint-view-cache.ts";
import type { SettingsService } from "./settings-service.ts";
import { tryLockThread } from "./thread-locks.ts";

/** The window assumed for a model whose size is not known: today's common size. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** The model's context window: what its target says, else DEFAULT_CONTEXT_WINDOW. */
export function contextWindowOf(target: Pick<ModelTarget, "contextWindow"> | undefined): number {
  return target?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

export interface ContextServiceOptions {
  checkpointer: BaseCheckpointSaver;
  /** The thread's decoded checkpoints, shared with the conversation's read (one decode per checkpoint). */
  views: CheckpointReads;
  settings: Pick<SettingsService, "forRun">;
  createModel: ChatModelFactory;
  /** Whether this worker runs a reply on the thread. */
  isRunning: (threadId: string) => boolean;
  /** The checkpoint the thread shows: the version the user moved to, else the latest. */
  shownVersion: (threadId: string) => Promise<string | undefined>;
  /** Told after `/compact` saved its summary as a child of `from`, the version it compacted. */
  onCompacted: (threadId: string, from: string | undefined) => Promise<void>;
  threadExists: (threadId: string) => Promise<boolean>;
  /** The ids of the thread's messages from another person's thread (none: it holds none). */
  foreignOf?: (threadId: string) => Promise<ReadonlySet<string> | undefined>;
}

export class ContextService implements ContextApi {
  constructor(private readonly options: ContextServiceOptions) {}

  /** The tokens of the thread's next request (agent/compaction.ts `contextTokens`) over the window `choice` picks. */
  async usage(threadId: string, choice: ThreadModelChoice = {}): Promise<ThreadContextUsage> {
    const [{ target }, decoded] = await Promise.all([
      this.options.settings.forRun({ ...choice }),
      this.options.shownVersion(threadId).then((head) => this.options.views.read(threadId, head)),
    ]);
    return { tokens: decoded?.tokens() ?? 0, window: contextWindowOf(target) };
  }

  /** `/compact`: folds all but the latest messages into the summary with the model `choice` picks. */
  async compact(threadId: string, choice: ThreadModelChoice = {}): Promise<ThreadCompaction> {
    if (!(await this.options.threadExists(threadId))) throw new UserError(`There is no thread with id ${threadId}.`);
    if (this.options.isRunning(threadId)) throw new UserError(BUSY);
    const release = await tryLockThread(threadId);
    if (!release) throw new UserError(BUSY);
    try {
      const { target, secrets } = await this.options.settings.forRun({ ...choice });
      if (!target) throw new UserError("No model is set up yet: open Settings → Models to summarize with one.");
      const head = await this.options.shownVersion(threadId);
      const foreign = await this.options.foreignOf?.(threadId);
      const result = await compactThread({
        model: await this.options.createModel(target, { model: target.model }),
        checkpointer: this.options.checkpointer,
        threadId,
        ...(head && { checkpointId: head }),
        // The summary keeps another person's turns apart from the user's.
        ...(foreign && { foreign }),
      }).catch((error: unknown) => {
        const described = describeModelError(error, target.baseUrl, {
          proxied: target.useProxy === true,
          endpoint: target.name,
        });
        throw new UserError(
          redactSecrets(`The thread was not compacted: ${described.message}`, [...secrets, target.apiKey]),
        );
      });
      if (result.folded > 0) await this.options.onCompacted(threadId, head);
      return {
        compacted: result.folded > 0,
        folded: result.folded,
        usage: { tokens: result.tokens, window: contextWindowOf(target) },
      };
    } finally {
      release();
    }
  }
}

const BUSY = "This thread is running a reply: compact it once the reply has finished.";
