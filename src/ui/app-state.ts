// The UI's state: threads, the open thread, the live run, settings; all data comes from the Gateway.
import { batch, createMemo, createSignal } from "solid-js";
import type {
  AgentMode,
  ApprovalDecision,
  HumanWireMessage,
  RunRequest,
  ModelEntry,
  ModelEndpoint,
  ModelSettings,
  RunEvent,
  ThreadDetail,
  ThreadEntry,
  ThreadExportFormat,
  ThreadReplay,
  ThreadSummary,
  UploadedFileRef,
} from "../protocol/index.ts";
import {
  AGENT_MODES,
  contentText,
  CHANGES_CHANNEL,
  defaultMode,
  isChangeNotice,
  modelChoiceFor,
  modelChoices,
  type ModelChoice,
  PROTOCOL_VERSION,
  type ChangeNotice,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { errorMessage, streamRun, type GatewayClient } from "./gateway-client.ts";
import { notifyRunFinished } from "./shared/notifications.ts";
import { download } from "./shared/download.ts";
import { createUpdatePacer } from "./shared/update-pacer.ts";
import { applyRunEvents, startRunView, type RunView } from "./conversation/run-view.ts";
import { createWebContainerStarter } from "./webcontainer-starter.ts";
import { createComposerExtras } from "./composer/composer-extras.ts";
import { isSharedHash } from "./threads/shared-thread-sources.ts";
import { createSharedThreadOffer } from "./threads/shared-thread-offer.ts";
import { t } from "./i18n/index.ts";
import { GATEWAY_READY_MARK } from "./shared/perf-marks.ts";
import { noticeOf, noticeShown, type Notice, type NoticeOptions } from "./shared/notice.ts";
import { MODELS_HINT_KEY } from "../shared/first-screen.ts";

const MODE_KEY = "fawn.mode";
const MODEL_KEY = "fawn.model";

function stored(key: string): string | undefined {
  try {
    return localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function store(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private windows may refuse storage; the choice then lasts for this page.
  }
}

function forget(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // See store().
  }
}

function threadIdFromHash(): string | undefined {
  const match = /^#\/t\/([\w-]+)$/.exec(location.hash);
  return match?.[1];
}

/** Replay speeds, as multiples of the normal pace (a step every 1.2 s, replay-controls.tsx). */
export const REPLAY_SPEEDS = [0.5, 1, 2, 4] as const;

/** A thread being played back: its saved steps and where the playback is. */
export interface ReplayView {
  threadId: string;
  steps: ThreadReplay["steps"];
  /** Each message as an entry, made once, so a step shows the same elements as the step before. */
  entries: ReadonlyMap<string, ThreadEntry>;
  /** The step shown, from 0. */
  step: number;
  playing: boolean;
  speed: (typeof REPLAY_SPEEDS)[number];
}

/** The model and endpoint a message asks for (none: the default model). */
function runModel(choice: ModelChoice | undefined): { model?: string; endpoint?: string } {
  if (!choice) return {};
  return { model: choice.entry.id, endpoint: choice.endpoint };
}

export function createAppState(client: GatewayClient) {
  const [threads, setThreads] = createSignal<ThreadSummary[]>([]);
  const [thread, setThread] = createSignal<ThreadDetail | undefined>();
  /** A message to show in the thread being opened: the first one holding the query's words (see openThread). */
  const [findRequest, setFindRequest] = createSignal<{ threadId: string; query: string } | undefined>();
  /** Live runs by thread id: threads run side by side, one run per thread. */
  const [runs, setRuns] = createSignal<Readonly<Record<string, RunView>>>({});
  /** A shared thread being read before it is imported: it shows in place of the open thread, which stays open. */
  const shared = createSharedThreadOffer(client);
  const run = () => (shared.reading() ? undefined : runs()[thread()?.thread_id ?? ""]);
  const isRunning = (threadId: string) => threadId in runs();
  const setRun = (threadId: string, update: (view: RunView | undefined) => RunView | undefined) =>
    setRuns((all) => {
      const next = { ...all };
      const view = update(all[threadId]);
      if (view) next[threadId] = view;
      else delete next[threadId];
      return next;
    });
  const [settings, setSettingsSignal] = createSignal<ModelSettings | undefined>();
  /** Also keeps, for index.html's first script, whether a model is set up: its prerendered welcome is for those without. */
  const setSettings = (next: ModelSettings) => {
    setSettingsSignal(next);
    if (modelChoices(next).length > 0) store(MODELS_HINT_KEY, "1");
    else forget(MODELS_HINT_KEY);
  };
  const [anyNotice, setAnyNotice] = createSignal<Notice | undefined>();
  /** Says `text` in the notice line: an error unless `kind` says otherwise; with `threadId`, only in that thread. */
  const setNotice = (text: string | undefined, options?: NoticeOptions) => setAnyNotice(noticeOf(text, options));
  /** The notice for the open thread: one of another thread stays with that thread. */
  const notice = () => noticeShown(anyNotice(), thread()?.thread_id);
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  /** The file in the preview dialog, with the thread it belongs to. */
  const [preview, setPreview] = createSignal<{ threadId: string; path: string } | undefined>();
  const webContainer = createWebContainerStarter(client, setNotice);
  const savedMode = stored(MODE_KEY);
  const [chosenMode, setChosenMode] = createSignal<AgentMode | undefined>(
    AGENT_MODES.includes(savedMode as AgentMode) ? (savedMode as AgentMode) : undefined,
  );
  const [chosenModel, setChosenModel] = createSignal<string | undefined>(stored(MODEL_KEY));
  /** The model the next message goes to: the user's choice when the endpoint still has it, else the default. */
  const modelChoice = (): ModelChoice | undefined => modelChoiceFor(settings(), chosenModel());
  const model = (): ModelEntry | undefined => modelChoice()?.entry;
  /** The mode of the next message: the user's last choice, else DeerFlow's default for the model. */
  const mode = (): AgentMode => chosenMode() ?? defaultMode(model());
  const setMode = (next: AgentMode) => {
    setChosenMode(next);
    store(MODE_KEY, next);
  };
  const setModel = (id: string) => {
    setChosenModel(id);
    store(MODEL_KEY, id);
  };
  /** Follow-up suggestions, the context gauge, slash commands' work, and filling the composer. */
  const composerExtras = createComposerExtras({
    client,
    threadId: () => thread()?.thread_id,
    model: () => runModel(modelChoice()),
    setNotice,
  });

  // The list is read once per change: the worker announces every change it makes (this tab's own included), and a
  // change announced while a read is under way gets one more read after it, however many came meanwhile.
  let reading: Promise<void> | undefined;
  let readAgain: Promise<void> | undefined;
  function refreshThreads(): Promise<void> {
    if (!reading) {
      const read = client.listThreads().then((list) => void setThreads(list));
      reading = read.finally(() => (reading = undefined));
      return reading;
    }
    const after = reading;
    readAgain ??= after
      .catch(() => undefined)
      .then(() => {
        readAgain = undefined;
        return refreshThreads();
      });
    return readAgain;
  }

  const [replay, setReplay] = createSignal<ReplayView | undefined>();
  /** The open thread as the page shows it: during a replay, as it was at the replayed step. */
  const shownThread = createMemo((): ThreadDetail | undefined => {
    const reading = shared.reading();
    if (reading) return reading;
    const detail = thread();
    const view = replay();
    const step = view?.steps[view.step];
    if (!detail || !view || !step || view.threadId !== detail.thread_id) return detail;
    return {
      ...detail,
      entries: step.message_ids.flatMap((id) => view.entries.get(id) ?? []),
      todos: step.todos,
      artifacts: step.artifacts,
    };
  });
  /** The replay of the open thread, if one is under way. */
  const openReplay = () => {
    if (shared.reading()) return undefined;
    const view = replay();
    return view && view.threadId === thread()?.thread_id ? view : undefined;
  };

  /** Plays the open thread back from its first saved step. */
  async function startReplay(): Promise<void> {
    const detail = thread();
    if (!detail || run()) return;
    try {
      const saved = await client.threadReplay(detail.thread_id);
      if (saved.steps.length === 0 || thread()?.thread_id !== detail.thread_id) return;
      const entries = new Map(
        saved.messages.map((message): [string, ThreadEntry] => [message.id, { kind: "message", message }]),
      );
      setReplay({ threadId: detail.thread_id, steps: saved.steps, entries, step: 0, playing: true, speed: 1 });
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  /** Moves the replay: to a step (kept within the steps; the last one pauses it), playing or not, at a speed. */
  function controlReplay(change: Partial<Pick<ReplayView, "step" | "playing" | "speed">>): void {
    setReplay((view) => {
      if (!view) return view;
      const next = { ...view, ...change };
      next.step = Math.max(0, Math.min(next.step, view.steps.length - 1));
      // Play at the end starts over.
      if (change.playing && change.step === undefined && view.step === view.steps.length - 1) next.step = 0;
      else if (next.step === view.steps.length - 1) next.playing = false;
      return next;
    });
  }

  /** "Continue this thread": a copy of the open (imported) thread of the user's own opens, ready for a message. */
  async function continueThread(threadId: string): Promise<boolean> {
    try {
      const copy = await client.continueThread(threadId);
      setReplay(undefined);
      await openThread(copy.thread_id);
      return true;
    } catch (error) {
      setNotice(errorMessage(error));
      return false;
    }
  }

  /**
   * Opens the thread (none: the welcome page). With `find` (a thread search's query), the conversation scrolls to the
   * first message holding its words instead of to the last reply.
   */
  async function openThread(threadId: string | undefined, options: { find?: string } = {}): Promise<void> {
    shared.dismiss();
    if (openReplay()?.threadId !== threadId) setReplay(undefined);
    setFindRequest(threadId && options.find?.trim() ? { threadId, query: options.find } : undefined);
    if (!threadId) {
      setThread(undefined);
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      return;
    }
    const detail = await client.getThread(threadId);
    setThread(detail);
    if (!detail) setNotice(t("notice.threadGone"));
    else void composerExtras.refreshUsage(detail.thread_id);
    const hash = detail ? `#/t/${detail.thread_id}` : "";
    if (location.hash !== hash) history.pushState(null, "", hash || location.pathname + location.search);
  }

  async function init(): Promise<void> {
    // Listen before the first load: a change made while storage opens (a thread imported right away) must still
    // refresh the list, which the first load may have read before it.
    const changes = new BroadcastChannel(CHANGES_CHANNEL);
    changes.onmessage = (event: MessageEvent<unknown>) => {
      if (isChangeNotice(event.data)) void applyChange(event.data);
    };
    const version = await client.protocolVersion();
    // The agent worker has answered its first call (bench/app-load.ts reads this mark).
    performance.mark(GATEWAY_READY_MARK);
    if (version !== PROTOCOL_VERSION) setNotice(t("notice.updated"));
    const [, loaded] = await Promise.all([refreshThreads(), client.getModelSettings()]);
    setSettings(loaded);
    // The user may have started a thread while storage was opening: keep it rather than the address's.
    const fromHash = threadIdFromHash();
    if (fromHash && !thread()) await openThread(fromHash);
    // A shared thread's fragment (a share link) is the Shared thread dialog's, not a thread to open.
    window.addEventListener("popstate", () => {
      if (!isSharedHash(location.hash)) void openThread(threadIdFromHash());
    });
    // Memory updates wait a while after a run; a tab being hidden (or closed) may not come back, so apply them now.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") void client.flushMemory().catch(() => undefined);
    });
    void webContainer.startIfChosen().catch(() => undefined);
  }

  /** Another tab (or this tab's worker) changed data: refresh what is shown, unless a run here is writing it. */
  async function applyChange(notice: ChangeNotice): Promise<void> {
    // Settings → Memory listens for its own notices.
    if (notice.type === "memory-changed") return;
    if (notice.type === "settings-changed") {
      setSettings(await client.getModelSettings());
      return;
    }
    await refreshThreads();
    const open = thread();
    if (notice.type === "threads-replaced") {
      if (!open) return;
      // The open thread may be gone (all data deleted) or unchanged (a backup adds threads, never replaces one).
      if (threads().some((summary) => summary.thread_id === open.thread_id)) await reloadIfOpen(open.thread_id);
      else await openThread(undefined);
      return;
    }
    if (!open || open.thread_id !== notice.thread_id) return;
    if (notice.type === "thread-deleted") {
      await openThread(undefined);
      setNotice(t("notice.deletedElsewhere"));
    } else {
      await reloadIfOpen(open.thread_id);
    }
  }

  /** Sends `text` to the open thread (creating one when none is open) and streams the reply. */
  /** The open thread, or a new one when none is open. */
  async function ensureThread(): Promise<ThreadDetail> {
    const current = thread();
    if (current) return current;
    const created = await client.createThread();
    const detail: ThreadDetail = { ...created, entries: [] };
    setThread(detail);
    history.pushState(null, "", `#/t/${created.thread_id}`);
    return detail;
  }

  /**
   * Uploads `files` to the open thread (creating one when none is open), then sends `text` with them. False when
   * the upload was refused: the notice says why, and the composer keeps the text and the files.
   */
  async function sendWithFiles(text: string, files: readonly File[]): Promise<boolean> {
    if (text.trim().length === 0 || run()) return false;
    if (files.length === 0) {
      await sendStarted(text);
      return true;
    }
    try {
      const current = await ensureThread();
      const payload = await Promise.all(
        files.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
      );
      const result = await client.uploadFiles(current.thread_id, payload);
      const warnings = result.files.flatMap((file) => (file.warning ? [file.warning] : []));
      if (result.files.length < payload.length) warnings.unshift(result.message);
      if (warnings.length > 0) setNotice(warnings.join(" "));
      await sendStarted(
        text,
        result.files.map(({ filename, size, virtual_path, markdown_virtual_path }) => ({
          filename,
          size,
          virtual_path,
          ...(markdown_virtual_path && { markdown_virtual_path }),
        })),
      );
      return true;
    } catch (error) {
      setNotice(t("notice.notUploaded", { error: errorMessage(error) }));
      return false;
    }
  }

  /**
   * Sends, resolving once the run has begun (or was refused): until then the composer keeps Send disabled, so a
   * second message cannot slip in while the thread is still being created and start a thread of its own.
   */
  function sendStarted(text: string, files: UploadedFileRef[] = []): Promise<void> {
    return new Promise<void>((started) => void send(text, files, started).finally(started));
  }

  async function send(
    text: string,
    files: UploadedFileRef[] = [],
    onStarted?: () => void,
    branch?: RunRequest["branch"],
  ): Promise<void> {
    const resume = branch?.kind === "resume";
    if ((!resume && text.trim().length === 0) || run()) return;
    const current = await ensureThread();
    const threadId = current.thread_id;
    // An edit or a regeneration replaces its user message and everything after it: they leave the screen at once.
    const forkAt =
      branch && branch.kind !== "resume"
        ? current.entries.findIndex((entry) => entry.kind === "message" && entry.message.id === branch.message_id)
        : -1;
    const kept = forkAt >= 0 ? current.entries.slice(0, forkAt) : current.entries;
    if (forkAt >= 0) setThread({ ...current, entries: kept, versions: {} });
    const historyLength = kept.filter((entry) => entry.kind === "message").length;
    const runId = newId();
    setRun(threadId, () => ({
      ...startRunView(runId, threadId, text, historyLength),
      ...(files.length > 0 && { files }),
      ...(resume && { resumed: true }),
    }));
    onStarted?.();
    composerExtras.messageSent();
    let endStatus: string | undefined;
    // Events come through their own message port, so the call can return before the last events arrive:
    // the run is over for the UI when `end` has been applied.
    let endApplied!: () => void;
    const ended = new Promise<void>((resolve) => (endApplied = resolve));
    // Tokens arrive by the hundred per second: the view takes them a batch at a time, in order, and asks for the
    // next batch once it has drawn this one and paused in proportion to what it cost (update-pacer.ts).
    const onEvents = createUpdatePacer<RunEvent>((batched) => {
      const end = batched.find((event) => event.event === "end");
      if (end) endStatus = end.data.status;
      setRun(threadId, (view) => (view && view.runId === runId ? applyRunEvents(view, batched) : view));
      if (end) endApplied();
    });
    try {
      await streamRun(
        client,
        {
          run_id: runId,
          thread_id: threadId,
          input: {
            messages: resume ? [] : [{ type: "human", content: text, ...(files.length > 0 && { files }) }],
          },
          context: { mode: mode(), ...runModel(modelChoice()) },
          ...(branch && { branch }),
        },
        onEvents,
      );
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5000))]);
    } catch (error) {
      setNotice(t("notice.runNotStarted", { error: errorMessage(error) }), { threadId });
    }
    const last = runs()[threadId];
    // A refused run (busy in another tab) saved nothing: keep its reason on screen.
    if (last?.runId === runId && last.error?.error === "busy") setNotice(last.error.message, { threadId });
    const detail = await client.getThread(threadId);
    batch(() => {
      if (thread()?.thread_id === threadId) setThread(detail);
      setRun(threadId, () => undefined);
    });
    composerExtras.runEnded(threadId, endStatus === "success");
    // The tab may be hidden: a notification says the reply is ready (when the user allowed them).
    if (detail) notifyRunFinished({ threadId, title: detail.title }, () => void openThread(threadId));
  }

  /** The user message `messageId` as shown, for an edit or a regeneration of it. */
  function shownUserMessage(messageId: string): HumanWireMessage | undefined {
    const entry = thread()?.entries.find((item) => item.kind === "message" && item.message.id === messageId);
    return entry?.kind === "message" && entry.message.type === "human" ? entry.message : undefined;
  }

  /** Runs `text` in place of the user message `messageId`: the thread forks before it, keeping its files. */
  async function editMessage(messageId: string, text: string): Promise<void> {
    const message = shownUserMessage(messageId);
    if (!message || text.trim().length === 0) return;
    await send(text, message.files ?? [], undefined, { kind: "edit", message_id: messageId });
  }

  /** Runs the user message `messageId` again for another version of its reply. */
  async function regenerate(messageId: string): Promise<void> {
    const message = shownUserMessage(messageId);
    if (!message) return;
    await send(contentText(message.content), message.files ?? [], undefined, {
      kind: "regenerate",
      message_id: messageId,
    });
  }

  /** "Continue": the cut-off run goes on from its last saved step. */
  async function resume(): Promise<void> {
    await send("", [], undefined, { kind: "resume" });
  }

  /** Shows the version run `runId` made (Previous version / Next version). */
  async function showVersion(runId: string): Promise<void> {
    const threadId = thread()?.thread_id;
    if (!threadId || run()) return;
    try {
      await client.showVersion(threadId, runId);
      const detail = await client.getThread(threadId);
      if (thread()?.thread_id === threadId) setThread(detail);
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  async function stop(): Promise<void> {
    const view = run();
    if (view) await client.cancelRun(view.runId);
  }

  async function newThread(): Promise<void> {
    await openThread(undefined);
  }

  /** Applies a change to a thread (its notice refreshes the list and the open thread); a refusal becomes a notice. */
  async function changeThread(change: () => Promise<unknown>): Promise<void> {
    try {
      await change();
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  const renameThread = (threadId: string, title: string) => changeThread(() => client.renameThread(threadId, title));
  const pinThread = (threadId: string, pinned: boolean) => changeThread(() => client.pinThread(threadId, pinned));
  /** Thread actions → "Use memory in this thread", for a thread holding another person's messages. */
  const setThreadMemory = (threadId: string, enabled: boolean) =>
    changeThread(() => client.setThreadMemory(threadId, enabled));

  async function deleteThread(threadId: string): Promise<void> {
    try {
      await client.deleteThread(threadId);
      // The notice that follows refreshes the list; the thread closes here, so it does not read as deleted elsewhere.
      if (thread()?.thread_id === threadId) await openThread(undefined);
    } catch (error) {
      setNotice(errorMessage(error));
    }
  }

  /** Thread actions → Export: the file downloads; a refusal becomes a notice. */
  async function exportThread(threadId: string, format: ThreadExportFormat): Promise<void> {
    try {
      const exported = await client.exportThread(threadId, format);
      download(exported.blob, exported.file_name);
    } catch (error) {
      setNotice(t("header.exportFailed", { error: errorMessage(error) }));
    }
  }

  async function reloadIfOpen(threadId: string): Promise<void> {
    if (thread()?.thread_id !== threadId || isRunning(threadId)) return;
    const detail = await client.getThread(threadId);
    if (thread()?.thread_id === threadId && !isRunning(threadId)) setThread(detail);
  }

  async function saveSettings(next: ModelSettings): Promise<ModelSettings> {
    const saved = await client.saveModelSettings(next);
    setSettings(saved);
    return saved;
  }

  return {
    client,
    webContainer,
    composerExtras,
    threads,
    thread: shownThread,
    run,
    /** Whether the open thread takes a message: not an imported one, nor one being replayed. */
    canReply: () => !shared.reading() && !thread()?.read_only && !openReplay(),
    replay: openReplay,
    /** A shared thread arriving: read first (it is `thread` meanwhile), then imported or let go. */
    shared,
    startReplay,
    controlReplay,
    stopReplay: () => setReplay(undefined),
    continueThread,
    isRunning,
    settings,
    mode,
    setMode,
    model,
    setModel,
    modelChoices: () => modelChoices(settings()),
    modelChoice,
    notice,
    setNotice,
    settingsOpen,
    setSettingsOpen,
    /** The file being previewed, while its thread is the one open. */
    previewing: () => {
      const open = preview();
      return open && open.threadId === shownThread()?.thread_id ? open : undefined;
    },
    /** Previews one of the open thread's files. */
    openPreview: (path: string) => {
      const threadId = shownThread()?.thread_id;
      if (threadId) setPreview({ threadId, path });
    },
    /**
     * Closes the preview `which` (a dialog's `close` event comes a task after it closes, when another preview may
     * already be open: that one stays).
     */
    closePreview: (which: { threadId: string; path: string }) =>
      setPreview((current) => (current === which ? undefined : current)),
    init,
    send,
    editMessage,
    regenerate,
    resume,
    showVersion,
    sendWithFiles,
    stop,
    newThread,
    openThread,
    findRequest,
    /** The conversation showed (or gave up on) the message findRequest asked for. */
    findDone: () => setFindRequest(undefined),
    renameThread,
    pinThread,
    setThreadMemory,
    /** Answers a tool call waiting in group "Approval"; rejects with the worker's sentence (the card shows it). */
    answerApproval: (approvalId: string, decision: ApprovalDecision) => client.answerApproval(approvalId, decision),
    deleteThread,
    exportThread,
    saveSettings,
    listModels: (endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">) =>
      client.listModels(endpoint),
    describeModels: (endpoint: Pick<ModelEndpoint, "baseUrl" | "apiKey" | "useProxy" | "provider">) =>
      client.describeModels(endpoint),
  };
}

export type AppState = ReturnType<typeof createAppState>;
