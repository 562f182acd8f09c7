// The runs store: live runs by thread (threads run side by side, one run per thread), folded from their events as
// they stream; sending (with uploads, edits, regenerations and Continue), Stop, approvals and the versions a run made.
// Components take it with useRuns() (stores.tsx).
import { batch, createSignal } from "solid-js";
import {
  contentText,
  type ApprovalDecision,
  type HumanWireMessage,
  type RunEvent,
  type RunRequest,
  type UploadedFileRef,
} from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import { errorMessage, streamRun, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { notifyRunFinished } from "../shared/notifications.ts";
import { createUpdatePacer } from "../shared/update-pacer.ts";
import type { AgentChoiceStore } from "./agent-choice.ts";
import type { ComposerExtras } from "./composer-extras.ts";
import type { ModelChoiceStore } from "./model-choice.ts";
import type { NoticesStore } from "./notices.ts";
import type { OpenThreadStore } from "./open-thread.ts";
import { applyRunEvents, startRunView, type RunView } from "./run-view.ts";

export function createRuns(deps: {
  client: GatewayClient;
  notices: NoticesStore;
  openThread: OpenThreadStore;
  modelChoice: ModelChoiceStore;
  /** The agent a message goes to (its `context.agent`), told which thread it went to. */
  agentChoice: Pick<AgentChoiceStore, "runAgent" | "sent">;
  /** Told of each message sent and each run's end (suggestions, the context gauge). */
  composerExtras: Pick<ComposerExtras, "messageSent" | "runEnded">;
}) {
  const { client, notices, openThread, modelChoice, composerExtras } = deps;
  const { setNotice } = notices;
  const thread = openThread.current;
  const [runs, setRuns] = createSignal<Readonly<Record<string, RunView>>>({});
  /** The open thread's live run (none while a shared thread is read in its place). */
  const run = () => (openThread.shared.reading() ? undefined : runs()[thread()?.thread_id ?? ""]);
  const isRunning = (threadId: string) => threadId in runs();
  const setRun = (threadId: string, update: (view: RunView | undefined) => RunView | undefined) =>
    setRuns((all) => {
      const next = { ...all };
      const view = update(all[threadId]);
      if (view) next[threadId] = view;
      else delete next[threadId];
      return next;
    });

  /**
   * Sends, resolving once the run has begun (or was refused): until then the composer keeps Send disabled, so a
   * second message cannot slip in while the thread is still being created and start a thread of its own.
   */
  function sendStarted(text: string, files: UploadedFileRef[] = []): Promise<void> {
    return new Promise<void>((started) => void send(text, files, started).finally(started));
  }

  /** Sends `text` to the open thread (creating one when none is open) and streams the reply. */
  async function send(
    text: string,
    files: UploadedFileRef[] = [],
    onStarted?: () => void,
    branch?: RunRequest["branch"],
  ): Promise<void> {
    const resume = branch?.kind === "resume";
    if ((!resume && text.trim().length === 0) || run()) return;
    // Read before a new thread is made: its agent is the one chosen on the welcome screen.
    const agent = deps.agentChoice.runAgent();
    const current = await openThread.ensure();
    const threadId = current.thread_id;
    deps.agentChoice.sent(threadId, agent);
    // An edit or a regeneration replaces its user message and everything after it: they leave the screen at once.
    const forkAt =
      branch && "message_id" in branch
        ? current.entries.findIndex((entry) => entry.kind === "message" && entry.message.id === branch.message_id)
        : -1;
    const kept = forkAt >= 0 ? current.entries.slice(0, forkAt) : current.entries;
    if (forkAt >= 0) openThread.setCurrent({ ...current, entries: kept, versions: {} });
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
          context: { mode: modelChoice.mode(), ...modelChoice.runModel(), ...agent },
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
    const detail = await settle(threadId);
    composerExtras.runEnded(threadId, endStatus === "success");
    // The tab may be hidden: a notification says the reply is ready (when the user allowed them).
    if (detail) notifyRunFinished({ threadId, title: detail.title }, () => void openThread.open(threadId));
  }

  /**
   * A run's stream is over: the thread as saved takes the live view's place. When it cannot be read back (this tab
   * stepped aside for a newer Fawn in another, storage failed) the run is over all the same: its error, else the
   * read's, stays in the notice line.
   */
  async function settle(threadId: string) {
    let detail: Awaited<ReturnType<typeof client.threads.get>> | undefined;
    try {
      detail = await client.threads.get(threadId);
    } catch (error) {
      setNotice(runs()[threadId]?.error?.message ?? errorMessage(error), { threadId });
    }
    batch(() => {
      if (detail && thread()?.thread_id === threadId) openThread.setCurrent(detail);
      setRun(threadId, () => undefined);
    });
    return detail;
  }

  /** The user message `messageId` as shown, for an edit or a regeneration of it. */
  function shownUserMessage(messageId: string): HumanWireMessage | undefined {
    const entry = thread()?.entries.find((item) => item.kind === "message" && item.message.id === messageId);
    return entry?.kind === "message" && entry.message.type === "human" ? entry.message : undefined;
  }

  return {
    run,
    isRunning,
    send,
    // A run followed from elsewhere (state/run-join.ts, a server workspace's): its view, and its end.
    setRun,
    settle,
    /**
     * Uploads `files` to the open thread (creating one when none is open), then sends `text` with them. False when
     * the upload was refused: the notice says why, and the composer keeps the text and the files.
     */
    async sendWithFiles(text: string, files: readonly File[]): Promise<boolean> {
      if (text.trim().length === 0 || run()) return false;
      if (files.length === 0) {
        await sendStarted(text);
        return true;
      }
      try {
        const current = await openThread.ensure();
        const payload = await Promise.all(
          files.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
        );
        const result = await client.threads.upload(current.thread_id, payload);
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
    },
    /** Runs `text` in place of the user message `messageId`: the thread forks before it, keeping its files. */
    async editMessage(messageId: string, text: string): Promise<void> {
      const message = shownUserMessage(messageId);
      if (!message || text.trim().length === 0) return;
      await send(text, message.files ?? [], undefined, { kind: "edit", message_id: messageId });
    },
    /** Runs the user message `messageId` again for another version of its reply. */
    async regenerate(messageId: string): Promise<void> {
      const message = shownUserMessage(messageId);
      if (!message) return;
      await send(contentText(message.content), message.files ?? [], undefined, {
        kind: "regenerate",
        message_id: messageId,
      });
    },
    /** "Continue": the cut-off run goes on from its last saved step. */
    async resume(): Promise<void> {
      await send("", [], undefined, { kind: "resume" });
    },
    /** Shows the version run `runId` made (Previous version / Next version). */
    async showVersion(runId: string): Promise<void> {
      const threadId = thread()?.thread_id;
      if (!threadId || run()) return;
      try {
        await client.branches.showVersion(threadId, runId);
        const detail = await client.threads.get(threadId);
        if (thread()?.thread_id === threadId) openThread.setCurrent(detail);
      } catch (error) {
        setNotice(errorMessage(error));
      }
    },
    async stop(): Promise<void> {
      const view = run();
      if (view) await client.runs.cancel(view.runId);
    },
    /** Answers a tool call waiting in group "Approval"; rejects with the worker's sentence (the card shows it). */
    answerApproval: (approvalId: string, decision: ApprovalDecision) => client.approvals.answer(approvalId, decision),
  };
}

export type RunsStore = ReturnType<typeof createRuns>;
