// The open thread store: the thread on screen, its address (`#/t/<id>`, back and forward), a replay of its saved
// steps, a shared thread being read in its place, and a search's request to show one message. Components take it with
// useOpenThread() (stores.tsx).
import { createMemo, createSignal } from "solid-js";
import type { ThreadDetail, ThreadEntry, ThreadReplay } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import type { NoticesStore } from "./notices.ts";
import { createSharedThreadOffer } from "./shared-thread-offer.ts";
import { isSharedHash } from "./shared-thread-sources.ts";

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

/** The thread the address names (`#/t/<id>`). */
export function threadIdFromHash(): string | undefined {
  const match = /^#\/t\/([\w-]+)$/.exec(location.hash);
  return match?.[1];
}

export function createOpenThread(deps: {
  client: GatewayClient;
  notices: NoticesStore;
  /** Whether a run of the thread is live (runs.ts): its detail is then the run's to refresh. */
  isRunning: (threadId: string) => boolean;
  /** A thread was opened (not a new one): the context gauge reads it. */
  onOpened: (threadId: string) => void;
}) {
  const { client } = deps;
  const { setNotice } = deps.notices;
  const [thread, setStoredThread] = createSignal<ThreadDetail | undefined>();
  /**
   * Counts the open thread's changes. Notices come one per saved step, so two reloads can be in flight at once and the
   * older read may answer last: a reload applies its read only if nothing changed the thread since it began.
   */
  let changes = 0;
  function setThread(detail: ThreadDetail | undefined): void {
    changes++;
    setStoredThread(detail);
  }
  /** A message to show in the thread being opened: the first one holding the query's words (see open). */
  const [findRequest, setFindRequest] = createSignal<{ threadId: string; query: string } | undefined>();
  /** A shared thread being read before it is imported: it shows in place of the open thread, which stays open. */
  const shared = createSharedThreadOffer(client);
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
  /** Whether a run of the open thread is live (none while a shared thread is read in its place). */
  const running = () => {
    const id = thread()?.thread_id;
    return !shared.reading() && id !== undefined && deps.isRunning(id);
  };

  /**
   * Opens the thread (none: the welcome page). With `find` (a thread search's query), the conversation scrolls to the
   * first message holding its words instead of to the last reply.
   */
  async function open(threadId: string | undefined, options: { find?: string } = {}): Promise<void> {
    shared.dismiss();
    if (openReplay()?.threadId !== threadId) setReplay(undefined);
    setFindRequest(threadId && options.find?.trim() ? { threadId, query: options.find } : undefined);
    if (!threadId) {
      setThread(undefined);
      if (location.hash) history.replaceState(null, "", location.pathname + location.search);
      return;
    }
    const detail = await client.threads.get(threadId);
    setThread(detail);
    if (!detail) setNotice(t("notice.threadGone"));
    else deps.onOpened(detail.thread_id);
    const hash = detail ? `#/t/${detail.thread_id}` : "";
    if (location.hash !== hash) history.pushState(null, "", hash || location.pathname + location.search);
  }

  return {
    /** The thread on screen: the open one (as at the replayed step), or a shared thread being read. */
    thread: shownThread,
    /** The open thread as stored, whatever is shown in its place. */
    current: thread,
    setCurrent: setThread,
    /** A shared thread arriving: read first (it is `thread` meanwhile), then imported or let go. */
    shared,
    /** Whether the open thread takes a message: not an imported one, nor one being replayed. */
    canReply: () => !shared.reading() && !thread()?.read_only && !openReplay(),
    open,
    newThread: () => open(undefined),
    /** The open thread, or a new one when none is open. */
    async ensure(): Promise<ThreadDetail> {
      const current = thread();
      if (current) return current;
      const created = await client.threads.create();
      const detail: ThreadDetail = { ...created, entries: [] };
      setThread(detail);
      history.pushState(null, "", `#/t/${created.thread_id}`);
      return detail;
    },
    /** Reads the thread again if it is open and no run of it is live. */
    async reloadIfOpen(threadId: string): Promise<void> {
      if (thread()?.thread_id !== threadId || deps.isRunning(threadId)) return;
      const begun = ++changes;
      const detail = await client.threads.get(threadId);
      if (begun === changes && thread()?.thread_id === threadId && !deps.isRunning(threadId)) setThread(detail);
    },
    /**
     * Follows the address: back and forward open the thread it names (a share link's is the Shared thread dialog's).
     * Returns the end of it.
     */
    followAddress(): () => void {
      const follow = () => {
        if (!isSharedHash(location.hash)) void open(threadIdFromHash());
      };
      window.addEventListener("popstate", follow);
      return () => window.removeEventListener("popstate", follow);
    },
    findRequest,
    /** The conversation showed (or gave up on) the message findRequest asked for. */
    findDone: () => setFindRequest(undefined),
    replay: openReplay,
    /** Plays the open thread back from its first saved step. */
    async startReplay(): Promise<void> {
      const detail = thread();
      if (!detail || running()) return;
      try {
        const saved = await client.threads.replay(detail.thread_id);
        if (saved.steps.length === 0 || thread()?.thread_id !== detail.thread_id) return;
        const entries = new Map(
          saved.messages.map((message): [string, ThreadEntry] => [message.id, { kind: "message", message }]),
        );
        setReplay({ threadId: detail.thread_id, steps: saved.steps, entries, step: 0, playing: true, speed: 1 });
      } catch (error) {
        setNotice(errorMessage(error));
      }
    },
    /** Moves the replay: to a step (kept within the steps; the last one pauses it), playing or not, at a speed. */
    controlReplay(change: Partial<Pick<ReplayView, "step" | "playing" | "speed">>): void {
      setReplay((view) => {
        if (!view) return view;
        const next = { ...view, ...change };
        next.step = Math.max(0, Math.min(next.step, view.steps.length - 1));
        // Play at the end starts over.
        if (change.playing && change.step === undefined && view.step === view.steps.length - 1) next.step = 0;
        else if (next.step === view.steps.length - 1) next.playing = false;
        return next;
      });
    },
    stopReplay: () => setReplay(undefined),
    /** "Continue this thread": a copy of the open (imported) thread of the user's own opens, ready for a message. */
    async continueThread(threadId: string): Promise<boolean> {
      try {
        const copy = await client.bundles.continueThread(threadId);
        setReplay(undefined);
        await open(copy.thread_id);
        return true;
      } catch (error) {
        setNotice(errorMessage(error));
        return false;
      }
    },
  };
}

export type OpenThreadStore = ReturnType<typeof createOpenThread>;
