// DeerFlow's memory routes as a service: the document and its facts, the settings, and the debounced updates that
// learn from finished runs (agent/memory does the work; this wires it to storage and the run's model).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import {
  addFact,
  deleteFact,
  formatMemoryForInjection,
  MemoryUpdateQueue,
  parseMemoryDocument,
  updateFact,
} from "../agent/index.ts";
import {
  DEFAULT_MEMORY_SETTINGS,
  emptyMemoryDocument,
  type MemoryDocument,
  type MemoryFactInput,
  type MemorySettings,
  type MemoryApi,
} from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { FawnStorage, MemoryStorage, SettingsStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

const MEMORY_SETTINGS_KEY = "memory.settings";

/** The numeric settings: their range, whether whole, and the sentence when a value is out of it. */
const RANGES: readonly [
  key: "debounceSeconds" | "maxFacts" | "factConfidenceThreshold" | "maxInjectionTokens",
  min: number,
  max: number,
  integer: boolean,
  sentence: string,
][] = [
  ["debounceSeconds", 0, 3600, true, "The update delay is 0 to 3600 seconds."],
  ["maxFacts", 1, 1000, true, "The number of facts kept is 1 to 1000."],
  ["factConfidenceThreshold", 0, 1, false, "The confidence threshold is 0 to 1."],
  ["maxInjectionTokens", 100, 20_000, true, "The memory budget is 100 to 20000 tokens."],
];
const SWITCHES = ["enabled", "injectionEnabled"] as const;

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Stored memory settings, each value kept in its range; missing or malformed ones take the defaults. */
export function readMemorySettings(value: unknown): MemorySettings {
  const stored = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const settings: MemorySettings = { ...DEFAULT_MEMORY_SETTINGS };
  for (const key of SWITCHES) if (typeof stored[key] === "boolean") settings[key] = stored[key];
  for (const [key, min, max, integer] of RANGES) {
    const number = stored[key];
    if (!isNumber(number)) continue;
    const clamped = Math.min(max, Math.max(min, number));
    settings[key] = integer ? Math.round(clamped) : clamped;
  }
  return settings;
}

/** Checks submitted settings: one sentence per problem; nothing is clamped silently. */
export function memorySettingsProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "Memory settings are an object.";
  const settings = value as Record<string, unknown>;
  const problems = [
    ...SWITCHES.filter((key) => typeof settings[key] !== "boolean").map((key) => `${key} must be true or false.`),
    ...RANGES.filter(([key, min, max]) => {
      const number = settings[key];
      return !isNumber(number) || number < min || number > max;
    }).map(([, , , , sentence]) => sentence),
  ];
  return problems.length > 0 ? problems.join(" ") : undefined;
}

export interface MemoryServiceOptions {
  /** The model memory updates are asked of (the user's default model), or undefined when none is set up. */
  createModel: () => Promise<BaseChatModel | undefined>;
  /** Told after the memory changed (other tabs refresh). */
  onChange?: () => void;
  /** Applies the other memories' waiting updates too (custom agents' own), when the page is hidden or closed. */
  flushOthers?: () => Promise<void>;
}

export class MemoryService implements MemoryApi {
  private readonly repository: MemoryStorage;
  private readonly settingsStore: SettingsStorage;
  private readonly queue: MemoryUpdateQueue;

  constructor(
    storage: Pick<FawnStorage, "memory" | "settings">,
    private readonly options: MemoryServiceOptions,
  ) {
    this.repository = storage.memory;
    this.settingsStore = storage.settings;
    this.queue = new MemoryUpdateQueue({
      settings: () => this.getSettings(),
      store: this.repository,
      createModel: options.createModel,
      ...(options.onChange && { onChange: options.onChange }),
      // A failed update loses only what that run would have taught; the next run tries again.
      onError: (error) => console.warn("Fawn memory update failed:", error instanceof Error ? error.message : error),
    });
  }

  get(): Promise<MemoryDocument> {
    return this.repository.read();
  }

  async getSettings(): Promise<MemorySettings> {
    return readMemorySettings(await this.settingsStore.get(MEMORY_SETTINGS_KEY));
  }

  saveSettings(settings: MemorySettings): Promise<MemorySettings> {
    return this.changed(async () => {
      const problem = memorySettingsProblem(settings);
      if (problem) throw new UserError(problem);
      const saved = readMemorySettings(settings);
      await this.settingsStore.put(MEMORY_SETTINGS_KEY, saved);
      if (!saved.enabled) this.queue.clear();
      return saved;
    });
  }

  /** A change written (a full storage refused readably), then announced to every tab. */
  private async changed<T>(change: () => Promise<T>): Promise<T> {
    const result = await writing(change);
    this.options.onChange?.();
    return result;
  }

  /** The memory as the next run's prompt carries it: "" when memory or its injection is off, or it is empty. */
  async promptSection(): Promise<string> {
    const settings = await this.getSettings();
    if (!settings.enabled || !settings.injectionEnabled) return "";
    return formatMemoryForInjection(await this.repository.read(), settings.maxInjectionTokens);
  }

  /**
   * Queues a finished run's conversation for the debounced update (nothing when memory is off). Messages whose ids
   * are in `foreign` (another person's, imported) are left out: memory never learns from them.
   */
  learnFrom(threadId: string, messages: BaseMessage[], foreign?: ReadonlySet<string>): void {
    const own = foreign ? messages.filter((message) => message.id === undefined || !foreign.has(message.id)) : messages;
    void this.queue.enqueue(threadId, own);
  }

  /** Applies queued updates now. */
  async flush(): Promise<void> {
    await Promise.all([this.queue.flush(), this.options.flushOthers?.()]);
  }

  addFact(input: MemoryFactInput & { content: string }): Promise<MemoryDocument> {
    return this.changed(async () => {
      const { maxFacts } = await this.getSettings();
      return this.update((doc) => addFact(doc, input, { now: new Date(), maxFacts, source: "manual" }));
    });
  }

  updateFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument> {
    return this.changed(() => this.update((doc) => updateFact(doc, id, patch, new Date())));
  }

  deleteFact(id: string): Promise<MemoryDocument> {
    return this.changed(() => this.update((doc) => deleteFact(doc, id, new Date())));
  }

  clear(): Promise<MemoryDocument> {
    return this.changed(async () => {
      this.queue.clear();
      const empty = emptyMemoryDocument();
      await this.repository.replace(empty);
      return empty;
    });
  }

  /** Drops the updates not yet applied (everything is about to be deleted). */
  dropPendingUpdates(): void {
    this.queue.clear();
  }

  import(value: unknown): Promise<MemoryDocument> {
    return this.changed(async () => {
      const parsed = parseMemoryDocument(value);
      if (!parsed.ok) throw new UserError(`That is not a Fawn or DeerFlow memory file: ${parsed.message}`);
      await this.repository.replace(parsed.value);
      return parsed.value;
    });
  }

  /** One read-change-write in one transaction; a bad fact is refused with a MemoryError (user-facing). */
  private async update(apply: (doc: MemoryDocument) => MemoryDocument): Promise<MemoryDocument> {
    return await this.repository.update(apply);
  }
}
