// The memory update queue: conversations wait a debounce after a run, then one model call each updates the memory.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { emptyMemoryDocument, type MemoryDocument, type MemorySettings } from "../../protocol/index.ts";
import { internalCall } from "../internal-call.ts";
import { MemoryError } from "./memory-document.ts";
import { conversationForMemory, memorySignals, type MemorySignals } from "./memory-messages.ts";
import { memoryUpdateMessages } from "./memory-prompt.ts";
import { applyMemoryUpdate, parseMemoryUpdateResponse } from "./memory-update.ts";

/** Where the memory document lives (storage's MemoryRepository, or an in-memory twin in tests). */
export interface MemoryStore {
  read(): Promise<MemoryDocument>;
  /** Applies `change` to the stored document as it is now, atomically, and returns the result. */
  update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument>;
}

/** A MemoryStore held in memory: for tests, and wherever nothing needs to last. */
export class InMemoryMemoryStore implements MemoryStore {
  constructor(private doc: MemoryDocument = emptyMemoryDocument()) {}

  async read(): Promise<MemoryDocument> {
    return structuredClone(this.doc);
  }

  async update(change: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument> {
    this.doc = structuredClone(change(structuredClone(this.doc)));
    return structuredClone(this.doc);
  }
}

export interface MemoryUpdateQueueDeps {
  /** The current Settings → Memory, read at each enqueue and again before each update. */
  settings: () => Promise<MemorySettings>;
  store: MemoryStore;
  /** The model that writes the update; undefined when none is configured (the update is then skipped). */
  createModel: () => Promise<BaseChatModel | undefined>;
  now?: () => Date;
  /** Called after each update that was saved. */
  onChange?: () => void;
  /** Called with each failure (a model error, an answer without JSON, a storage error); nothing is thrown. */
  onError?: (error: unknown) => void;
  /** How long one model call may take; 120 s by default. */
  timeoutMs?: number;
}

/** Conversations kept waiting at most; beyond it the oldest waiting thread is dropped (DeerFlow's depth). */
export const MEMORY_QUEUE_MAX_DEPTH = 1000;

interface QueuedConversation {
  threadId: string;
  conversation: string;
  signals: MemorySignals;
}

/**
 * DeerFlow's debounced memory updater. `enqueue` after each run; once no run has been queued for
 * `debounceSeconds`, each waiting thread's conversation is sent to the model in turn, and its answer applied to
 * the freshest stored document. One conversation per thread waits (the latest); updates never run in parallel.
 */
export class MemoryUpdateQueue {
  private readonly queue = new Map<string, QueuedConversation>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The batches being processed, in order: each waits for the one before. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly deps: MemoryUpdateQueueDeps) {}

  /**
   * Queues `messages` of `threadId` for a memory update and (re)starts the debounce. Does nothing when memory is
   * off or the messages hold nothing to learn from. Resolves once queued; never rejects.
   */
  async enqueue(threadId: string, messages: readonly BaseMessage[]): Promise<void> {
    try {
      const settings = await this.deps.settings();
      if (!settings.enabled) return;
      const conversation = conversationForMemory(messages);
      if (!conversation) return;
      this.queue.delete(threadId);
      if (this.queue.size >= MEMORY_QUEUE_MAX_DEPTH) {
        const oldest = this.queue.keys().next();
        if (!oldest.done) this.queue.delete(oldest.value);
      }
      this.queue.set(threadId, { threadId, conversation, signals: memorySignals(messages) });
      this.restartTimer(settings.debounceSeconds);
    } catch (error) {
      this.report(error);
    }
  }

  /** Processes everything queued now, without waiting for the debounce; resolves when done. Never rejects. */
  flush(): Promise<void> {
    this.stopTimer();
    const batch = [...this.queue.values()];
    this.queue.clear();
    const run = this.tail.then(() => this.processBatch(batch));
    this.tail = run;
    return run;
  }

  /** Drops the queued conversations (an update already running finishes). */
  clear(): void {
    this.stopTimer();
    this.queue.clear();
  }

  /** Threads waiting for an update. */
  pending(): number {
    return this.queue.size;
  }

  private restartTimer(debounceSeconds: number): void {
    this.stopTimer();
    const timer = setTimeout(() => void this.flush(), Math.max(0, debounceSeconds) * 1000);
    // In Node (tests, tools), a waiting update must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.timer = timer;
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async processBatch(batch: readonly QueuedConversation[]): Promise<void> {
    for (const item of batch) {
      try {
        if (await this.process(item)) this.deps.onChange?.();
      } catch (error) {
        this.report(error);
      }
    }
  }

  /** One model call and one stored change; false when skipped (memory turned off, or no model). */
  private async process(item: QueuedConversation): Promise<boolean> {
    const settings = await this.deps.settings();
    if (!settings.enabled) return false;
    const model = await this.deps.createModel();
    if (!model) return false;
    const now = this.deps.now ?? (() => new Date());
    const current = await this.deps.store.read();
    const prompt = memoryUpdateMessages(current, item.conversation, now(), item.signals);
    const answer = await internalCall(model, [new SystemMessage(prompt.system), new HumanMessage(prompt.user)], {
      timeoutMs: this.deps.timeoutMs ?? 120_000,
    });
    if (!answer) throw new MemoryError("The memory model gave no answer.");
    const update = parseMemoryUpdateResponse(answer.text);
    await this.deps.store.update((doc) =>
      applyMemoryUpdate(doc, update, {
        threadId: item.threadId,
        now: now(),
        threshold: settings.factConfidenceThreshold,
        maxFacts: settings.maxFacts,
      }),
    );
    return true;
  }

  private report(error: unknown): void {
    try {
      if (this.deps.onError) this.deps.onError(error);
      else console.warn("Memory update failed:", error);
    } catch {
      // A failing error handler must not break the queue.
    }
  }
}
