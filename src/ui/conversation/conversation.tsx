// The conversation log: saved entries, then the live run (the user's message, streamed replies, its error), with
// each `task` call's subtask card built from the saved messages and the live run's task events. The saved entries are
// virtualized (only those in view and around them are in the page), so a thread of thousands of messages opens at
// once; a thread search's result opens the thread at the message it found.
import { createVirtualizer } from "@tanstack/solid-virtual";
import { createEffect, createMemo, createSignal, For, Index, on, onCleanup, onMount, Show, type JSX } from "solid-js";
import {
  CLARIFICATION_TOOL_NAME,
  contentText,
  type ThreadEntry,
  type ToolWireMessage,
  type UsageMetadata,
  type WireMessage,
} from "../../protocol/index.ts";
import { useGateway, useModelChoice, useNotices, useOpenThread, useRuns } from "../state/stores.tsx";
import { findMessageIndex } from "./find-message.ts";
import {
  answeredCallIds,
  answerUsages,
  carriesClarificationAnswer,
  clarificationCarriers,
  unansweredLastCalls,
} from "./answers.ts";
import { answerOf, requestOfToolMessage } from "./clarification-form.ts";
import { t } from "../i18n/index.ts";
import { liveMessages } from "../state/run-view.ts";
import { mergeSubtasks, subtasksFromMessages, type Subtasks } from "../state/subtasks.ts";
import { conversationTools, EntryView, ModelProgressNotice, RetryNotice, RunErrorView } from "./entry-view.tsx";
import { ToolProgressContext } from "./tool-steps.tsx";
import { createStepMemory, StepMemoryContext, type StepMemory } from "./step-memory.ts";
import { MESSAGE_BASE } from "../markdown/thread-file-references.ts";
import { MessageView } from "./message-view.tsx";
import type { MessageActions } from "./message-actions.tsx";
import { Welcome } from "./welcome.tsx";
import { ApprovalCard } from "./approval-card.tsx";
import { createImageUrls, ThreadFilesContext, type ThreadFiles } from "../markdown/thread-files-context.ts";

const NO_MESSAGES: readonly WireMessage[] = [];

const NOTHING_AWAITED: ReadonlySet<string> = new Set();
const NO_SUBTASKS: Subtasks = new Map();

const messageOf = (entry: ThreadEntry): WireMessage[] => (entry.kind === "message" ? [entry.message] : []);

function isClarification(entry: ThreadEntry): boolean {
  return entry.kind === "message" && entry.message.type === "tool" && entry.message.name === CLARIFICATION_TOOL_NAME;
}

/**
 * For each entry, how the conversation answered the clarification it asks: the first user message after it (the
 * live run's, when the saved entries have none yet). Undefined for other entries and for open questions.
 */
function clarificationAnswers(
  entries: readonly ThreadEntry[],
  pendingText: string | undefined,
): (string | undefined)[] {
  let nextUserText = pendingText;
  const answers: (string | undefined)[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.kind !== "message") continue;
    if (entry.message.type === "human") nextUserText = contentText(entry.message.content);
    else if (isClarification(entry)) {
      answers[index] = answerOf(requestOfToolMessage(entry.message as ToolWireMessage), nextUserText);
    }
  }
  return answers;
}

/** Where each message stands in its turn: the turn's user message, and whether it is the turn's last reply. */
interface TurnPlace {
  turn: string;
  lastReply: boolean;
}

function turnPlaces(entries: readonly ThreadEntry[]): Map<string, TurnPlace> {
  const places = new Map<string, TurnPlace>();
  let turn: string | undefined;
  let lastReply: TurnPlace | undefined;
  for (const entry of entries) {
    if (entry.kind !== "message") continue;
    const message = entry.message;
    if (message.type === "human") {
      turn = message.id;
      lastReply = undefined;
      places.set(message.id, { turn, lastReply: false });
    } else if (message.type === "ai" && turn !== undefined) {
      if (lastReply) lastReply.lastReply = false;
      lastReply = { turn, lastReply: true };
      places.set(message.id, lastReply);
    }
  }
  return places;
}

/** A saved entry's height before it is measured, in px (a short message). */
const ESTIMATED_ENTRY_PX = 120;
/**
 * Threads this long are in the page whole, as before virtualization: everything in them stays findable (the page's
 * own search, a screen reader's list of articles) and keeps its state (an open tool step, a half-written edit).
 */
const WHOLE_THREAD_ENTRIES = 200;
/** Entries kept in the page above and below the visible ones in longer threads. */
const OVERSCAN = 12;
/** How long the message a search found stays marked, in ms. */
const FOUND_MARK_MS = 4000;

function entryKey(entries: readonly ThreadEntry[], index: number): string {
  const entry = entries[index];
  if (!entry) return `entry-${index}`;
  return entry.kind === "message" ? `message-${entry.message.id}` : `error-${entry.id}`;
}

/**
 * The saved entries of one thread, virtualized: each entry is measured as it renders, the list opens at its end (or
 * at the message `find` points at) and stays there while it is scrolled to the end. Older entries coming in above
 * keep what is on screen in place.
 */
function EntryList(props: {
  entries: readonly ThreadEntry[];
  scroller: HTMLElement;
  /** A thread search's query: the list opens at the first message holding its words (see findMessageIndex). */
  find: string | undefined;
  onFindDone: () => void;
  /** The list is in the page: at its end (else at a found message). */
  onOpen: (atEnd: boolean) => void;
  /** The list moved away from the end on its own (to a found message). */
  onLeaveEnd: () => void;
  children: (entry: ThreadEntry, index: number) => JSX.Element;
}) {
  let list!: HTMLDivElement;
  const [scrollMargin, setScrollMargin] = createSignal(0);
  const [found, setFound] = createSignal<string | undefined>();
  const initialFind = props.find === undefined ? -1 : findMessageIndex(props.entries, props.find);
  const virtualizer = createVirtualizer({
    get count() {
      return props.entries.length;
    },
    getScrollElement: () => props.scroller,
    estimateSize: () => ESTIMATED_ENTRY_PX,
    getItemKey: (index) => entryKey(props.entries, index),
    get overscan() {
      return props.entries.length <= WHOLE_THREAD_ENTRIES ? WHOLE_THREAD_ENTRIES : OVERSCAN;
    },
    get scrollMargin() {
      return scrollMargin();
    },
    // Chat-like: at the end it stays at the end as entries grow; entries added above keep the view in place.
    anchorTo: "end",
    scrollEndThreshold: 80,
    // Sizes measured while scrolling are applied once a frame, not once per entry.
    useAnimationFrameWithResizeObserver: true,
    initialOffset: () => (initialFind >= 0 ? initialFind : props.entries.length) * ESTIMATED_ENTRY_PX + scrollMargin(),
  });
  onMount(() => {
    const top = list.getBoundingClientRect().top - props.scroller.getBoundingClientRect().top;
    setScrollMargin(Math.max(0, top + props.scroller.scrollTop));
    props.onOpen(initialFind < 0);
  });

  let unmark: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(unmark));
  createEffect(
    on(
      () => props.find,
      (query) => {
        if (query === undefined) return;
        const index = findMessageIndex(props.entries, query);
        props.onFindDone();
        if (index < 0) return;
        props.onLeaveEnd();
        virtualizer.scrollToIndex(index, { align: "center" });
        setFound(entryKey(props.entries, index));
        clearTimeout(unmark);
        unmark = setTimeout(() => setFound(undefined), FOUND_MARK_MS);
      },
    ),
  );

  const measure = (element: HTMLElement) =>
    queueMicrotask(() => element.isConnected && virtualizer.measureElement(element));
  return (
    <div
      ref={list}
      class="conversation-entries"
      // Entries come into the page as the list scrolls: not news to announce (the live run below is).
      aria-live="off"
      style={{ height: `${virtualizer.getTotalSize() - scrollMargin()}px` }}
    >
      <div
        class="conversation-window"
        style={{
          transform: `translateY(${(virtualizer.getVirtualItems()[0]?.start ?? scrollMargin()) - scrollMargin()}px)`,
        }}
      >
        <For each={virtualizer.getVirtualItems()}>
          {(item) => (
            <Show when={props.entries[item.index]} keyed>
              {(entry) => (
                <div
                  class="conversation-row"
                  classList={{ found: found() !== undefined && found() === entryKey(props.entries, item.index) }}
                  data-index={item.index}
                  ref={measure}
                >
                  {props.children(entry, item.index)}
                </div>
              )}
            </Show>
          )}
        </For>
      </div>
    </div>
  );
}

export function Conversation() {
  let log!: HTMLDivElement;
  const client = useGateway();
  const openThread = useOpenThread();
  const runs = useRuns();
  const modelChoice = useModelChoice();
  const notices = useNotices();
  const liveRun = () => runs.run();
  const openSettings = () => notices.setSettingsOpen(true);
  const answers = createMemo(() => clarificationAnswers(openThread.thread()?.entries ?? [], liveRun()?.userText));
  // The live run's messages and task state change by reference only when they change, not on every token.
  const produced = createMemo(() => liveRun()?.produced ?? NO_MESSAGES);
  const liveSubtasks = createMemo(() => liveRun()?.subtasks ?? NO_SUBTASKS);
  // Results of calls that ended before the rest of their step: their steps show done while the others run.
  const earlyResults = createMemo(() => liveRun()?.results ?? NO_MESSAGES);
  const messages = createMemo(() => {
    const saved = (openThread.thread()?.entries ?? []).flatMap((entry) =>
      entry.kind === "message" ? [entry.message] : [],
    );
    return [...saved, ...produced(), ...earlyResults()];
  });
  const subtasks = createMemo(() => mergeSubtasks(subtasksFromMessages(messages()), liveSubtasks()));
  // The streaming message's calls count too: its results come in `produced` while it is still on screen.
  const streamingCalls = createMemo(
    () => {
      const view = liveRun();
      const live = view ? liveMessages(view) : NO_MESSAGES;
      return live.flatMap((message) =>
        message.type === "ai" ? (message.tool_calls ?? []).map((call) => call.id) : [],
      );
    },
    [],
    { equals: (a, b) => a.length === b.length && a.every((id, i) => id === b[i]) },
  );
  // A replay shows the thread as it was at a step: a call whose result a later step shows is waiting, not failed.
  // So is a cut-off reply's last step (a closed or crashed page): "Continue" runs its calls.
  const awaited = createMemo(() => {
    const replay = openThread.replay();
    if (replay) return answeredCallIds([...replay.entries.values()].flatMap(messageOf));
    return openThread.thread()?.resumable && !liveRun() ? unansweredLastCalls(messages()) : NOTHING_AWAITED;
  });
  const tools = createMemo(() => conversationTools(messages(), streamingCalls(), awaited()));
  // One token count per answer, after its last message: the saved answers', and the live run's so far.
  const savedUsages = createMemo(() =>
    answerUsages(
      (openThread.thread()?.entries ?? []).flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])),
    ),
  );
  const liveUsages = createMemo(() => {
    const view = liveRun();
    return view ? answerUsages(liveMessages(view)) : new Map<string, UsageMetadata>();
  });
  // A user message that only carries a Clarification card's answer to the model: the card shows the answer.
  const carriers = createMemo(() => clarificationCarriers(openThread.thread()?.entries ?? []));
  const liveCarriesAnswer = () => {
    const view = liveRun();
    return !!view && carriesClarificationAnswer(openThread.thread()?.entries ?? [], view.userText);
  };
  const empty = () => !liveRun() && (openThread.thread()?.entries.length ?? 0) === 0;
  const places = createMemo(() => turnPlaces(openThread.thread()?.entries ?? []));
  /** Edit, Regenerate, feedback and versions, while nothing runs in a thread that takes messages. */
  const actionsFor = (entry: ThreadEntry): MessageActions | undefined => {
    if (entry.kind !== "message" || liveRun() || !openThread.canReply()) return undefined;
    const place = places().get(entry.message.id);
    if (!place) return undefined;
    const versions = openThread.thread()?.versions?.[place.turn];
    const showVersion = (runId: string) => void runs.showVersion(runId);
    if (entry.message.type === "human") {
      const messageId = entry.message.id;
      return {
        versions: versions?.prompt,
        onShowVersion: showVersion,
        onEdit: (text) => void runs.editMessage(messageId, text),
      };
    }
    // One Regenerate and one rating per answer: on its last reply (where DeerFlow shows a run's feedback).
    if (!place.lastReply) return undefined;
    return {
      versions: versions?.reply,
      onShowVersion: showVersion,
      onRegenerate: () => void runs.regenerate(place.turn),
      feedback: entry.message.id,
    };
  };
  // Pictures and links in the messages that name the thread's files.
  const threadId = () => openThread.thread()?.thread_id ?? "";
  // What the reader opened in this thread's steps, kept as the live reply gives way to the saved one; a new memory
  // for each thread opened. A new thread's first run begins before it has an id, so getting one keeps the memory.
  let memoryFor = "";
  const threadStepMemory = createMemo<StepMemory>((memory) => {
    const id = threadId();
    const kept = id === memoryFor || memoryFor === "";
    memoryFor = id;
    return kept ? memory : createStepMemory();
  }, createStepMemory());
  const stepMemory: StepMemory = {
    opened: (callId) => threadStepMemory().opened(callId),
    setOpened: (callId, opened) => threadStepMemory().setOpened(callId, opened),
    imagesShown: (callId) => threadStepMemory().imagesShown(callId),
    showImages: (callId) => threadStepMemory().showImages(callId),
  };
  const images = createImageUrls((path, thread) => client.threads.readFile(thread, path), threadId);
  createEffect(on(threadId, images.forgetOthers, { defer: true }));
  const files: ThreadFiles = { base: MESSAGE_BASE, imageUrl: images.imageUrl, open: notices.openPreview };

  // Follow the reply as it grows, unless the user scrolled up to read. A thread opens at its end unless a search
  // result opened it at a message. The welcome stays at its top (its greeting, on a phone taller than the screen):
  // where the page's prerendered first screen drew it.
  let pinned = true;
  /** The query of a thread search whose result opened this thread, until the conversation has shown its message. */
  const findFor = (id: string) => {
    const request = openThread.findRequest();
    return request?.threadId === id ? request.query : undefined;
  };
  // Only the user scrolling up lets go of the end (a wheel, a touch, a key, the scroll bar): entries measured as
  // they render, and message actions that come and go, move the view too, and must not.
  let lastTop = 0;
  let userScrollUntil = 0;
  const userScrolls = () => (userScrollUntil = performance.now() + 1000);
  const onScroll = () => {
    const top = log.scrollTop;
    if (log.scrollHeight - top - log.clientHeight < 80) pinned = true;
    else if (top < lastTop - 1 && performance.now() < userScrollUntil) pinned = false;
    lastTop = top;
  };
  // Once per task at most. A streaming reply's growth is followed from the ResizeObserver below, which runs after
  // the frame's layout and before its paint: reading the height there costs nothing, and the update and the scroll
  // are painted together. Scrolling right after each update instead made the browser lay the page out in the middle
  // of the update's script (a forced layout: the growing block laid out twice when anything changed after it).
  let scrollQueued = false;
  const scrollToEnd = () => {
    if (scrollQueued) return;
    scrollQueued = true;
    queueMicrotask(() => {
      scrollQueued = false;
      if (pinned && !empty()) log.scrollTo({ top: log.scrollHeight });
    });
  };
  // A thread opened, or a run started or ended: to the end, as the conversation changes wholesale.
  const running = createMemo(() => !!liveRun());
  createEffect(
    on([() => openThread.thread(), running], () => {
      if (pinned) scrollToEnd();
    }),
  );
  // Whatever changes the conversation's height (an entry measured, a reply growing, a picture loading) keeps it at
  // its end while pinned.
  let inner!: HTMLDivElement;
  onMount(() => {
    const resized = new ResizeObserver(() => {
      if (pinned) scrollToEnd();
    });
    resized.observe(inner);
    onCleanup(() => resized.disconnect());
  });

  return (
    <div
      class="conversation"
      role="log"
      aria-label={t("conversation.log")}
      aria-live="polite"
      ref={log}
      onScroll={onScroll}
      onWheel={userScrolls}
      onTouchMove={userScrolls}
      onKeyDown={userScrolls}
      onPointerDown={userScrolls}
    >
      <div class="conversation-inner" ref={inner}>
        <ThreadFilesContext.Provider value={files}>
          <ToolProgressContext.Provider value={() => liveRun()?.toolProgress}>
            <StepMemoryContext.Provider value={stepMemory}>
              <Show when={!empty()} fallback={<Welcome />}>
                <Show when={threadId()} keyed>
                  {(id) => (
                    <EntryList
                      entries={openThread.thread()?.entries ?? []}
                      scroller={log}
                      find={findFor(id)}
                      onFindDone={() => openThread.findDone()}
                      onOpen={(atEnd) => (pinned = atEnd)}
                      onLeaveEnd={() => (pinned = false)}
                    >
                      {(entry, index) => {
                        const answer = () => (isClarification(entry) ? answers()[index] : undefined);
                        const id = entry.kind === "message" ? entry.message.id : undefined;
                        if (id !== undefined && carriers().has(id)) return null;
                        return (
                          <EntryView
                            entry={entry}
                            onOpenSettings={openSettings}
                            modelSetUp={modelChoice.modelChoices().length > 0}
                            answer={answer()}
                            subtasks={subtasks()}
                            tools={tools()}
                            actions={actionsFor(entry)}
                            usage={id === undefined ? undefined : savedUsages().get(id)}
                            // Only an unanswered question takes an answer, and only while nothing runs.
                            onAnswer={
                              isClarification(entry) && answer() === undefined && !liveRun() && openThread.canReply()
                                ? (text) => void runs.send(text)
                                : undefined
                            }
                          />
                        );
                      }}
                    </EntryList>
                  )}
                </Show>
                <Show when={!liveRun() && openThread.thread()?.resumable && openThread.canReply()}>
                  <div class="run-cut-off">
                    <p>{t("conversation.cutOff")}</p>
                    <button type="button" class="primary" onClick={() => void runs.resume()}>
                      {t("conversation.continue")}
                    </button>
                  </div>
                </Show>
                <Show when={liveRun()}>
                  {(view) => (
                    <>
                      <Show when={!view().resumed && !liveCarriesAnswer()}>
                        <MessageView
                          message={{
                            type: "human",
                            id: `pending-${view().runId}`,
                            content: view().userText,
                            ...(view().files && { files: view().files }),
                          }}
                        />
                      </Show>
                      <Index each={liveMessages(view())}>
                        {(message) => (
                          <MessageView
                            message={message()}
                            streaming={!view().ended}
                            subtasks={subtasks()}
                            tools={tools()}
                            usage={liveUsages().get(message().id)}
                          />
                        )}
                      </Index>
                      <Show when={liveMessages(view()).length === 0 && !view().ended && !view().error}>
                        <article
                          class="message assistant"
                          aria-label={t("conversation.assistantMessage")}
                          aria-busy="true"
                        >
                          <span class="typing" role="img" aria-label={t("conversation.thinking")} />
                        </article>
                      </Show>
                      <For each={view().approvals}>
                        {(approval) => (
                          <ApprovalCard
                            approval={approval}
                            onAnswer={(decision) => runs.answerApproval(approval.approval_id, decision)}
                          />
                        )}
                      </For>
                      <Show when={!view().ended && view().retry}>{(retry) => <RetryNotice retry={retry()} />}</Show>
                      <Show when={!view().ended && view().modelProgress}>
                        {(progress) => <ModelProgressNotice progress={progress()} />}
                      </Show>
                      <Show when={view().error}>
                        {(error) => (
                          <RunErrorView
                            error={error()}
                            onOpenSettings={openSettings}
                            modelSetUp={modelChoice.modelChoices().length > 0}
                          />
                        )}
                      </Show>
                    </>
                  )}
                </Show>
              </Show>
            </StepMemoryContext.Provider>
          </ToolProgressContext.Provider>
        </ThreadFilesContext.Provider>
      </div>
    </div>
  );
}
