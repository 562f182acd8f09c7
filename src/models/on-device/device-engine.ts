// The model of "On this device": a GGUF file from the browser's storage, run by llama.cpp compiled to WebAssembly
// (wllama) in a worker of its own, which wllama starts. One model is loaded at a time; requests take turns. wllama and
// its 10 MB of WebAssembly are fetched the first time a device model answers (their chunk is a lazy group, cached by
// the service worker on first use), so nothing of them costs a user who never picks this provider.
import type { Wllama } from "@wllama/wllama";
import type { ModelProgressEvent } from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";
import { DEVICE_PROMPT_STEP, deviceThreads } from "./device-threads.ts";

/** Where the engine reads a model file by its id (the browser's storage; a test's bytes). */
export type DeviceModelSource = (id: string) => Promise<Blob>;

/**
 * What the engine needs of its host: the model files, and the address of llama.cpp's WebAssembly (the agent worker
 * asks Vite for it, so that nothing under src/ names a build tool's `?url` import).
 */
export interface DeviceRuntime {
  source: DeviceModelSource;
  wasmUrl: () => Promise<string>;
}

/** What a loaded model needs to be loaded again: its file and its context window. */
interface Loaded {
  id: string;
  contextWindow: number;
  wllama: Wllama;
}

/** wllama's chat completion request (OpenAI's, with llama.cpp's extras). */
export type DeviceChatRequest = Record<string, unknown> & { messages: unknown[] };

/** Told what the engine does before a reply's first word: waits its turn, loads the model, reads the prompt. */
export type DeviceProgress = (progress: Omit<ModelProgressEvent, "type">) => void;

export class DeviceEngine {
  private loaded: Promise<Loaded> | undefined;
  private loadedKey: string | undefined;
  /** Requests one after another: llama.cpp here serves one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Requests started and not yet ended (a new one waits its turn when there is one). */
  private busy = 0;

  constructor(private readonly runtime: () => DeviceRuntime | undefined) {}

  /** Loads `id` with `contextWindow` unless it is loaded already; another model is unloaded first. */
  private load(id: string, contextWindow: number, onProgress?: DeviceProgress): Promise<Loaded> {
    const key = `${id}\n${contextWindow}`;
    if (this.loaded && this.loadedKey === key) return this.loaded;
    onProgress?.({ stage: "loading" });
    const previous = this.loaded;
    this.loadedKey = key;
    this.loaded = (async () => {
      await previous?.then((old) => old.wllama.exit()).catch(() => {});
      const runtime = this.runtime();
      if (!runtime) throw new UserError("On-device models are not available in this workspace.");
      const [file, { Wllama }, wasmUrl] = await Promise.all([
        runtime.source(id),
        import("@wllama/wllama"),
        runtime.wasmUrl(),
      ]);
      const wllama = new Wllama(
        { default: new URL(wasmUrl, globalThis.location?.href ?? "http://localhost/").href },
        { suppressNativeLog: true, logger: QUIET },
      );
      try {
        await wllama.loadModel([file], {
          n_ctx: contextWindow,
          n_batch: DEVICE_PROMPT_STEP,
          n_ubatch: DEVICE_PROMPT_STEP,
          n_threads: deviceThreads(globalThis.navigator?.hardwareConcurrency || 1),
        });
      } catch (error) {
        await wllama.exit().catch(() => {});
        throw new UserError(`The model file ${id} could not be loaded: ${messageOf(error)}`);
      }
      return { id, contextWindow, wllama };
    })();
    this.loaded.catch(() => {
      if (this.loadedKey === key) {
        this.loaded = undefined;
        this.loadedKey = undefined;
      }
    });
    return this.loaded;
  }

  /**
   * Streams a chat completion of `id` as OpenAI's chunks. `signal` stops it (llama.cpp stops at its next token). A
   * request waits for the one before to finish. `onProgress` hears of the wait, the load and the prompt's reading.
   */
  async *chat(
    id: string,
    contextWindow: number,
    request: DeviceChatRequest,
    signal?: AbortSignal,
    onProgress?: DeviceProgress,
  ): AsyncGenerator<Record<string, unknown>> {
    let release!: () => void;
    const turn = this.queue.then(() => undefined);
    this.queue = turn.then(() => new Promise<void>((resolve) => (release = resolve)));
    if (this.busy > 0) onProgress?.({ stage: "waiting" });
    this.busy += 1;
    await turn;
    try {
      signal?.throwIfAborted();
      const { wllama } = await this.load(id, contextWindow, onProgress);
      signal?.throwIfAborted();
      // Chunks arrive through onData and wait here for the reader. wllama's own iterator is not used: once its reader
      // stops, it leaves a rejection nobody handles. `stop` ends llama.cpp's generation (wllama cancels the request);
      // it follows `signal` and the reader leaving early, and the request is over before the next one starts.
      const stop = new AbortController();
      const follow = () => stop.abort();
      signal?.addEventListener("abort", follow, { once: true });
      const chunks: Record<string, unknown>[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let failure: unknown;
      const generation = wllama
        .createChatCompletion({
          ...(request as object),
          stream: true,
          return_progress: true,
          abortSignal: stop.signal,
          onData: (chunk: unknown) => {
            // llama.cpp's word of the prompt's reading comes as chunks of its own, which are not the reply's.
            const progress = promptProgress(chunk);
            if (progress) return onProgress?.(progress);
            chunks.push(chunk as Record<string, unknown>);
            wake?.();
          },
        } as Parameters<Wllama["createChatCompletion"]>[0] & { stream: true; onData: (chunk: unknown) => void })
        .then(
          () => undefined,
          (error: unknown) => {
            failure = error;
          },
        )
        .finally(() => {
          ended = true;
          wake?.();
        });
      try {
        for (;;) {
          while (chunks.length > 0) yield chunks.shift()!;
          if (ended) break;
          await new Promise<void>((resolve) => {
            wake = resolve;
            if (chunks.length > 0 || ended) resolve();
          });
          wake = undefined;
        }
      } finally {
        signal?.removeEventListener("abort", follow);
        if (!ended) stop.abort();
        await generation;
      }
      // Stop: wllama cancels its request and says so; the reply simply ends here.
      if (failure !== undefined && !stop.signal.aborted) throw readable(failure, contextWindow);
    } finally {
      this.busy -= 1;
      release();
    }
  }

  /** Unloads the model `id` (or any) and frees its memory. */
  async unload(id?: string): Promise<void> {
    const loaded = this.loaded;
    if (!loaded) return;
    const current = await loaded.catch(() => undefined);
    if (id !== undefined && current?.id !== id) return;
    this.loaded = undefined;
    this.loadedKey = undefined;
    await current?.wllama.exit().catch(() => {});
  }
}

/**
 * How far llama.cpp has read the prompt, when `chunk` says only that: its `prompt_progress`, with choices whose
 * deltas are empty (llama.cpp sends `{role: "assistant", content: null}`).
 */
function promptProgress(chunk: unknown): Omit<ModelProgressEvent, "type"> | undefined {
  const { prompt_progress: progress, choices } = chunk as { prompt_progress?: unknown; choices?: unknown[] };
  if (typeof progress !== "object" || progress === null) return undefined;
  const saysMore = (choices ?? []).some((choice) => {
    const { delta, finish_reason } = (choice ?? {}) as { delta?: Record<string, unknown>; finish_reason?: unknown };
    return (
      finish_reason != null ||
      Object.entries(delta ?? {}).some(([key, value]) => key !== "role" && value != null && value !== "")
    );
  });
  if (saysMore) return undefined;
  const { processed, total } = progress as { processed?: unknown; total?: unknown };
  if (typeof processed !== "number" || typeof total !== "number") return undefined;
  return { stage: "reading", processed, total };
}

const QUIET = { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} };

/** llama.cpp's refusal of a prompt longer than the context, as a sentence saying what to change (not retried). */
function readable(error: unknown, contextWindow: number): unknown {
  const tokens = /request \((\d+) tokens\) exceeds the available context size/.exec(messageOf(error))?.[1];
  if (tokens === undefined) return error;
  return new UserError(
    `The conversation is ${Number(tokens).toLocaleString("en")} tokens and the model's context window is ` +
      `${contextWindow.toLocaleString("en")}: raise its Context window in Settings → Models (if the model allows ` +
      "it and there is memory to spare), or start a new thread.",
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
