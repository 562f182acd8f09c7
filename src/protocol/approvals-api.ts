// The approvals domain's contract (`gateway.approvals`): the user's answer to a tool call waiting for approval.
import type { ApprovalDecision } from "./foreign-content.ts";

export interface ApprovalsApi {
  /**
   * Answers a tool call waiting in group "Approval" (a run's `approval_requested` event): `allow` runs it, `deny`
   * answers the model with a refusal and the run goes on, `allow_thread` runs it and every later call of that tool in
   * the thread. Rejects with one sentence when no such call waits (answered already, or its run has ended), or when
   * `threadId` is given and the call waits in another thread.
   */
  answer(approvalId: string, decision: ApprovalDecision, threadId?: string): Promise<void>;
}
