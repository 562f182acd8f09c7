// Branches as a service: where an edit, a regeneration or a resumption starts, the run record fields that place it
// among the versions of its turn, and moving the thread to another version with that version's files (a run's
// recorder keeps them as it ends). The checkpointer keeps every fork; this service decides which one the thread shows
// (`ThreadSummary.head`).
import type { BranchesApi, RunRequest, ThreadSummary, TurnVersions, WireMessage } from "../protocol/index.ts";
import { contentText } from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UserError } from "../shared/user-error.ts";
import type {
  CheckpointStorage,
  RunRecord,
  ThreadFileVersionStorage,
  ThreadStorage,
  RunRecordStorage,
} from "../storage/index.ts";
import type { CheckpointReads } from "./checkpoint-view-cache.ts";
import { tryLockThread } from "./thread-locks.ts";
import { laggingRun, resumableRun, turnVersions, versionHead } from "./thread-branches.ts";

export interface BranchServiceOptions {
  threads: ThreadStorage & RunRecordStorage;
  checkpointer: CheckpointStorage;
  /** The thread's decoded checkpoints, shared with the conversation's read (one decode per checkpoint). */
  views: CheckpointReads;
  fileVersions: ThreadFileVersionStorage;
  /** Closes the thread's open sandbox: it holds the files it loaded, which a change of version replaces. */
  closeSandbox: (threadId: string) => Promise<void>;
  isRunning: (threadId: string) => boolean;
  onChanged: (threadId: string) => void;
}

/** The branch fields of a run's record. */
export type BranchRecord = Pick<RunRecord, "kind" | "base" | "user_message_id" | "regenerates" | "continues">;

/** How a run starts: from which checkpoint, with which input, and what its record says about its branch. */
export interface RunPlan {
  request: RunRequest;
  start?: { checkpoint?: string; resume?: boolean };
  record: BranchRecord;
}

const WAIT_FOR_THE_REPLY = "Wait for the reply to finish before changing versions.";

/** How far back a thread from before branches is searched for the step before a message. */
const MAX_WALK = 5000;

export class BranchService implements BranchesApi {
  constructor(private readonly options: BranchServiceOptions) {}

  /** The checkpoint the thread shows: the one the user moved to, else its latest (undefined: none). */
  async head(thread: Pick<ThreadSummary, "thread_id" | "head">): Promise<string | undefined> {
    return thread.head ?? (await this.options.checkpointer.latestCheckpointId(thread.thread_id));
  }

  /** The versions of the turns shown, and whether "Continue" applies. */
  async describe(
    thread: Pick<ThreadSummary, "thread_id" | "head">,
    messages: readonly WireMessage[],
  ): Promise<{ versions: Record<string, TurnVersions>; resumable: boolean }> {
    const [runs, head] = await Promise.all([this.options.threads.runs(thread.thread_id), this.head(thread)]);
    const resumable =
      !this.options.isRunning(thread.thread_id) &&
      (await this.cutOffRun(thread.thread_id, runs, head, messages)) !== undefined;
    // Regenerations from a LangGraph client keep their user message's id: which of them is shown is told by the
    // checkpoints on the way to the head.
    const ids = runs.flatMap((run) => (run.kind === "regenerate" && run.user_message_id ? [run.user_message_id] : []));
    const shared = runs.some((run) => run.kind !== "regenerate" && ids.includes(run.user_message_id ?? ""));
    const path = shared || new Set(ids).size < ids.length ? await this.ancestry(thread.thread_id, head) : undefined;
    return { versions: turnVersions(runs, messages, path), resumable };
  }

  /**
   * The cut-off run "Continue" resumes at `head` (resumableRun), also when the page closed between saving a step and
   * recording it: then the newest run's record ends behind `head`, on `head`'s own line, and `head` counts as its end.
   */
  private async cutOffRun(
    threadId: string,
    runs: readonly RunRecord[],
    head: string | undefined,
    messages: readonly WireMessage[],
  ): Promise<RunRecord | undefined> {
    const lagging = laggingRun(runs, head);
    if (lagging && (lagging.since === undefined || (await this.ancestry(threadId, head)).has(lagging.since))) {
      return resumableRun(
        runs.map((run) => (run === lagging.run ? { ...run, end: head } : run)),
        head,
        messages,
      );
    }
    return resumableRun(runs, head, messages);
  }

  /** The checkpoints from `head` back to the thread's start. */
  private async ancestry(threadId: string, head: string | undefined): Promise<Set<string>> {
    const path = new Set<string>();
    for (let id = head; id !== undefined && !path.has(id) && path.size < MAX_WALK;) {
      path.add(id);
      const tuple = await this.options.checkpointer.getTuple({
        configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: id },
      });
      id = tuple?.parentConfig?.configurable?.checkpoint_id as string | undefined;
    }
    return path;
  }

  /**
   * Plans the run `request` asks for on `thread`. An edit or a regeneration forks before its user message: the
   * thread's files become those of the fork point (the current ones are kept for the version left). Throws a
   * UserError when the message is not one of the thread's, a checkpoint is not, a client's message id is taken, or
   * there is nothing to continue.
   */
  async plan(request: RunRequest, thread: ThreadSummary): Promise<RunPlan> {
    const threadId = thread.thread_id;
    const head = await this.head(thread);
    const branch = request.branch;
    const sends = branch?.kind !== "resume" && branch?.kind !== "regenerate";
    const clientId = sends ? request.input.messages[0]?.id : undefined;
    const userMessageId = clientId ?? newId();
    if (sends) await this.checkClientIds(request, threadId, head);
    if (!branch) {
      return {
        request,
        ...(thread.head !== undefined && { start: { checkpoint: thread.head } }),
        record: { kind: "send", ...(head !== undefined && { base: head }), user_message_id: userMessageId },
      };
    }
    const runs = await this.options.threads.runs(threadId);
    const messages = (head !== undefined && (await this.messagesAt(threadId, head))) || [];
    if (branch.kind === "resume") {
      const cutOff = await this.cutOffRun(threadId, runs, head, messages);
      if (!cutOff || head === undefined) throw new UserError("This thread has no cut-off reply to continue.");
      return {
        request: { ...request, input: { messages: [] } },
        start: { checkpoint: head, resume: true },
        record: { kind: "resume", base: head, continues: cutOff.run_id },
      };
    }
    if (branch.kind === "edit" && request.input.messages.every((input) => contentText(input.content).trim() === "")) {
      throw new UserError("The message is empty.");
    }
    if ("checkpoint" in branch) {
      const at = await this.messagesAt(threadId, branch.checkpoint);
      if (at === undefined) throw new UserError(`Checkpoint ${branch.checkpoint} is not one of this thread's.`);
      if (branch.kind === "regenerate") {
        // LangGraph runs on from the checkpoint: at a cut-off run's end, that is Fawn's "Continue".
        if (branch.checkpoint === head && (await this.cutOffRun(threadId, runs, head, messages))) {
          return this.plan({ ...request, branch: { kind: "resume" } }, thread);
        }
        const last = at.findLast((message) => message.type === "human");
        if (!last) throw new UserError("That checkpoint has no user message to answer again.");
        const plan = await this.fork(
          request,
          threadId,
          { runs, head, walkFrom: branch.checkpoint },
          last,
          "regenerate",
        );
        // Past the user message (a reply already there), it is sent again from where its turn started.
        if (at.at(-1) !== last) return plan;
        // At the user message, as LangGraph does, the graph runs on from the checkpoint sent with no input (its steps
        // become that checkpoint's children, so the client sees the fork): the user message keeps its id, and the run
        // counts as a regeneration of that message's turn.
        return {
          request: { ...request, input: { messages: [] } },
          start: { checkpoint: branch.checkpoint, resume: true },
          record: { ...plan.record, user_message_id: last.id },
        };
      }
      // An edit of the user message that followed the checkpoint on the thread's history, when there is one.
      const follows = at.every((message, index) => messages[index]?.id === message.id);
      const next = follows ? messages[at.length] : undefined;
      if (next?.type === "human") return this.fork(request, threadId, { runs, head }, next, "edit", userMessageId);
      // Else a send from that checkpoint, as from a version the thread was moved to (agent-chat-ui sends from the
      // branch it shows).
      await this.moveFiles(threadId, head, branch.checkpoint);
      return {
        request,
        start: { checkpoint: branch.checkpoint },
        record: { kind: "send", base: branch.checkpoint, user_message_id: userMessageId },
      };
    }
    const message = messages.find((candidate) => candidate.id === branch.message_id);
    if (message?.type !== "human") throw new UserError("That message is not one of this thread's own messages.");
    return this.fork(request, threadId, { runs, head }, message, branch.kind, userMessageId);
  }

  /** An edit or a regeneration of the user message `message`: forks where its turn started. */
  private async fork(
    request: RunRequest,
    threadId: string,
    thread: { runs: readonly RunRecord[]; head: string | undefined; walkFrom?: string },
    message: WireMessage,
    kind: "edit" | "regenerate",
    userMessageId: string = newId(),
  ): Promise<RunPlan> {
    const { runs, head } = thread;
    const turn =
      runs.find((run) => run.user_message_id === message.id && run.kind !== "resume") ??
      (await this.recordFirstVersion(threadId, message.id, thread.walkFrom ?? head));
    const forkFrom = turn.base ?? (await this.options.checkpointer.rootCheckpointId(threadId));
    await this.moveFiles(threadId, head, turn.base);
    const base = turn.base !== undefined ? { base: turn.base } : {};
    if (kind === "edit") {
      return {
        request,
        ...(forkFrom !== undefined && { start: { checkpoint: forkFrom } }),
        record: { kind: "edit", ...base, user_message_id: userMessageId },
      };
    }
    const first = turn.kind === "regenerate" && turn.regenerates ? turn.regenerates : turn.run_id;
    const again = {
      type: "human" as const,
      content: message.content,
      ...(message.type === "human" && message.files && message.files.length > 0 && { files: message.files }),
    };
    return {
      request: { ...request, input: { messages: [again] } },
      ...(forkFrom !== undefined && { start: { checkpoint: forkFrom } }),
      record: { kind: "regenerate", ...base, user_message_id: userMessageId, regenerates: first },
    };
  }

  /**
   * Refuses client ids (LangGraph keeps a client's message id) that the thread already has, in the history shown or
   * as a version's user message: LangGraph would replace that message, which Fawn's versions cannot express.
   */
  private async checkClientIds(request: RunRequest, threadId: string, head: string | undefined): Promise<void> {
    const ids = request.input.messages.flatMap((message) => (message.id !== undefined ? [message.id] : []));
    if (ids.length === 0) return;
    if (new Set(ids).size < ids.length) throw new UserError("Two of the run's messages have the same id.");
    const [runs, shown] = await Promise.all([
      this.options.threads.runs(threadId),
      head === undefined ? undefined : this.messagesAt(threadId, head),
    ]);
    const taken = new Set([
      ...runs.flatMap((run) => (run.user_message_id !== undefined ? [run.user_message_id] : [])),
      ...(shown ?? []).map((message) => message.id),
    ]);
    const reused = ids.find((id) => taken.has(id));
    if (reused !== undefined) throw new UserError(`This thread already has a message with id ${reused}.`);
  }

  /** The messages of the thread's checkpoint `checkpointId`, as the conversation shows them (undefined: no such one). */
  private async messagesAt(threadId: string, checkpointId: string): Promise<readonly WireMessage[] | undefined> {
    return (await this.options.views.read(threadId, checkpointId))?.view.messages;
  }

  /** The checkpoint the thread shows: the version the user moved to, else the latest (undefined: none). */
  async shownVersion(threadId: string): Promise<string | undefined> {
    const thread = await this.options.threads.get(threadId);
    return thread && this.head(thread);
  }

  /**
   * A change outside any run (`/compact`) saved a checkpoint as the child of `from`, the version it changed: the runs
   * that ended at `from` now end at the new checkpoint, so their version leads there and to the turns after it, with
   * the same files, and the thread shows it.
   */
  async moved(threadId: string, from: string | undefined): Promise<void> {
    const [runs, latest] = await Promise.all([
      this.options.threads.runs(threadId),
      this.options.checkpointer.latestCheckpointId(threadId),
    ]);
    if (latest === undefined || from === undefined || latest === from) return;
    for (const run of runs) {
      if (run.end === from) await this.options.threads.recordRun({ ...run, end: latest });
    }
    await this.options.fileVersions.save(threadId, latest);
    await this.options.threads.update(threadId, { head: undefined });
  }

  /** Shows the version run `runId` made, followed to its latest continuation, with that version's files. */
  async showVersion(threadId: string, runId: string): Promise<void> {
    const thread = await this.options.threads.get(threadId);
    if (!thread) throw new UserError(`There is no thread with id ${threadId}.`);
    if (this.options.isRunning(threadId)) throw new UserError(WAIT_FOR_THE_REPLY);
    const runs = await this.options.threads.runs(threadId);
    const target = versionHead(runs, runId);
    if (target === undefined) throw new UserError("That version has no saved steps to show.");
    // Holding the thread's lock keeps a run in another tab from starting (or writing files) meanwhile.
    const release = await tryLockThread(threadId);
    if (!release) throw new UserError(WAIT_FOR_THE_REPLY);
    try {
      const head = await this.head(thread);
      if (target === head) return;
      await this.moveFiles(threadId, head, target);
      const latest = await this.options.checkpointer.latestCheckpointId(threadId);
      await this.options.threads.update(threadId, { head: target === latest ? undefined : target });
    } finally {
      release();
    }
    this.options.onChanged(threadId);
  }

  /**
   * Takes the thread back to where run `runId` started (LangGraph's `rollback`): it shows the step before the run
   * (the first run: the thread's empty root step) with that version's files; the run's own steps stay a version.
   */
  async rollBack(threadId: string, runId: string): Promise<void> {
    const [thread, run] = await Promise.all([
      this.options.threads.get(threadId),
      this.options.threads.run(threadId, runId),
    ]);
    if (!thread || !run || this.options.isRunning(threadId)) return;
    const target = run.base ?? (await this.options.checkpointer.rootCheckpointId(threadId));
    const head = await this.head(thread);
    if (target === undefined || target === head) return;
    await this.moveFiles(threadId, head, run.base);
    const latest = await this.options.checkpointer.latestCheckpointId(threadId);
    await this.options.threads.update(threadId, { head: target === latest ? undefined : target });
    this.options.onChanged(threadId);
  }

  /**
   * Keeps the files as they are for the version at `from`, then puts those of `to` in their place (`undefined`: the
   * empty start); a version with no kept files (from before branches) keeps the current ones.
   */
  private async moveFiles(threadId: string, from: string | undefined, to: string | undefined): Promise<void> {
    if (from === to) return;
    if (from !== undefined) await this.options.fileVersions.save(threadId, from);
    await this.options.closeSandbox(threadId);
    await this.options.fileVersions.restore(threadId, to);
  }

  /**
   * A message sent before branches were recorded (or imported) has no run record: one is written for it, so it
   * counts as the first version, with the step before it found by walking back from `head`.
   */
  private async recordFirstVersion(threadId: string, messageId: string, head: string | undefined): Promise<RunRecord> {
    const base = await this.stepBefore(threadId, messageId, head);
    const now = Date.now();
    const record: RunRecord = {
      thread_id: threadId,
      run_id: newId(),
      status: "success",
      created_at: now - 1,
      updated_at: now - 1,
      kind: "send",
      ...(base !== undefined && { base }),
      ...(head !== undefined && { end: head }),
      user_message_id: messageId,
    };
    await this.options.threads.recordRun(record);
    return record;
  }

  /** The newest checkpoint before `messageId` entered the thread's history (undefined: the thread's start). */
  private async stepBefore(threadId: string, messageId: string, head: string | undefined): Promise<string | undefined> {
    let id = head;
    for (let step = 0; id !== undefined && step < MAX_WALK; step++) {
      const tuple = await this.options.checkpointer.getTuple({
        configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: id },
      });
      if (!tuple) return undefined;
      const messages = tuple.checkpoint.channel_values.messages;
      const holds = Array.isArray(messages) && messages.some((message: { id?: unknown }) => message.id === messageId);
      const parent = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
      if (!holds) {
        // An input step still carries the message it was given: the step before it is the one to fork from.
        return tuple.metadata?.source === "input" ? parent : id;
      }
      id = parent;
    }
    return undefined;
  }
}
