// Tool calls waiting in group "Approval": each run's calls that send data out wait here for the page's answer
// (ApprovalsApi.answer). A wait lives in this worker only: a closed page ends the run with it, so a call never
// runs without an answer (its thread's "Continue" asks again); Stop cancels it.
import type { OutboundApproval, OutboundCall } from "../agent/index.ts";
import {
  APPROVAL_DECISIONS,
  type ApprovalDecision,
  type ApprovalsApi,
  type ChangeNotice,
  type RunEvent,
  type ThreadSummary,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { UserError } from "../shared/user-error.ts";
import type { ThreadStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

interface Waiting {
  threadId: string;
  tool: string;
  emit: (event: RunEvent) => void;
  settle: (answer: "allow" | "deny") => void;
}

export interface ApprovalServiceOptions {
  threads: ThreadStorage;
  notify: (notice: ChangeNotice) => void;
}

export class ApprovalService implements ApprovalsApi {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly options: ApprovalServiceOptions) {}

  /**
   * The approval a run's tool calls wait for: `describe` says which calls send data out; each such call of a tool
   * not allowed for the thread emits `approval_requested` through `emit` and waits.
   */
  forRun(
    threadId: string,
    describe: OutboundApproval["describe"],
    emit: (event: RunEvent) => void,
    reason: "foreign" | "settings" | "agent",
  ): OutboundApproval {
    return { describe, ask: (call, signal) => this.ask(threadId, call, emit, reason, signal) };
  }

  private async ask(
    threadId: string,
    call: OutboundCall,
    emit: (event: RunEvent) => void,
    reason: "foreign" | "settings" | "agent",
    signal?: AbortSignal,
  ): Promise<"allow" | "deny"> {
    signal?.throwIfAborted();
    // Read now, not as the run began: "Allow for this thread" earlier in this run counts.
    const thread = await this.options.threads.get(threadId);
    if (thread?.approved_tools?.includes(call.tool)) return "allow";
    const approvalId = newId();
    return new Promise<"allow" | "deny">((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiting.delete(approvalId)) return;
        emit({ event: "custom", data: { type: "approval_resolved", approval_id: approvalId, decision: "cancelled" } });
        reject(
          signal?.reason instanceof Error ? signal.reason : new DOMException("The run was stopped.", "AbortError"),
        );
      };
      this.waiting.set(approvalId, {
        threadId,
        tool: call.tool,
        emit,
        settle: (answer) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      emit({
        event: "custom",
        data: {
          type: "approval_requested",
          approval_id: approvalId,
          tool_call_id: call.tool_call_id,
          tool: call.tool,
          target: call.target,
          ...(call.server !== undefined && { server: call.server }),
          reason,
        },
      });
    });
  }

  /**
   * The user's answer; "Allow for this thread" is stored on the thread and lets its other waiting calls of the tool
   * go. With `threadId`, only a call waiting in that thread is answered.
   */
  async answer(approvalId: string, decision: ApprovalDecision, threadId?: string): Promise<void> {
    if (!APPROVAL_DECISIONS.includes(decision)) {
      throw new UserError('An approval is answered "allow", "deny" or "allow_thread".');
    }
    const found = typeof approvalId === "string" ? this.waiting.get(approvalId) : undefined;
    const waiting = threadId === undefined || found?.threadId === threadId ? found : undefined;
    if (!waiting) {
      throw new UserError(
        "There is no tool call waiting for approval with that id: it was answered, or its run ended.",
      );
    }
    if (decision === "allow_thread") await this.allowForThread(waiting.threadId, waiting.tool);
    const settled: [string, Waiting][] =
      decision === "allow_thread"
        ? [...this.waiting].filter(([, other]) => other.threadId === waiting.threadId && other.tool === waiting.tool)
        : [[approvalId, waiting]];
    for (const [id, each] of settled) {
      this.waiting.delete(id);
      each.emit({ event: "custom", data: { type: "approval_resolved", approval_id: id, decision } });
      each.settle(decision === "deny" ? "deny" : "allow");
    }
  }

  private async allowForThread(threadId: string, tool: string): Promise<ThreadSummary> {
    const updated = await writing(() =>
      this.options.threads.update(threadId, (thread) => ({
        approved_tools: [...new Set([...(thread.approved_tools ?? []), tool])],
      })),
    );
    if (!updated) throw new UserError(`There is no thread with id ${threadId}.`);
    this.options.notify({ type: "thread-changed", thread_id: threadId });
    return updated;
  }
}
