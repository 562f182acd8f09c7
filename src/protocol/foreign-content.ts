// Another person's content in a thread (an imported `.fawn`, a share link, a DeerFlow thread.json), and the approval a
// tool call that sends data out waits for: plain data the thread record, the run events and the UI share.

/**
 * What a thread holds of another person's: set by "Continue this thread" and by a DeerFlow import, never taken from
 * an imported file. Its messages reach the model as a quoted transcript, memory never learns from them, and tools
 * that send data out wait for the user's approval.
 */
export interface ForeignContent {
  /** The ids of the messages that came from elsewhere, in any of the thread's versions. */
  message_ids: string[];
  /** The user turned memory on for this thread: its prompt carries the memory, and memory learns from the user's turns. */
  memory?: boolean;
}

/** What the user answers in group "Approval". */
export type ApprovalDecision = "allow" | "deny" | "allow_thread";

export const APPROVAL_DECISIONS: readonly ApprovalDecision[] = ["allow", "deny", "allow_thread"];

/** A `custom` run event: a tool call that would send data out waits for the user's answer. */
export interface ApprovalRequestedEvent {
  type: "approval_requested";
  approval_id: string;
  tool_call_id: string;
  /** The tool's name as the model called it. */
  tool: string;
  /** Where the data goes: the URL, the search query, or the MCP server and its tool. */
  target: string;
  /** For an MCP tool, the server it belongs to. */
  server?: string;
  /**
   * Why it asks: the thread holds another person's messages, Settings → Web asks in every thread, or the agent
   * would create or change a custom agent (setup_agent, update_agent).
   */
  reason?: "foreign" | "settings" | "agent";
}

/** A `custom` run event: the approval was answered (or dropped with a Stop), so it no longer waits. */
export interface ApprovalResolvedEvent {
  type: "approval_resolved";
  approval_id: string;
  decision: ApprovalDecision | "cancelled";
}

export function isApprovalRequestedEvent(value: unknown): value is ApprovalRequestedEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  return (
    event.type === "approval_requested" &&
    typeof event.approval_id === "string" &&
    typeof event.tool_call_id === "string" &&
    typeof event.tool === "string" &&
    typeof event.target === "string" &&
    (event.server === undefined || typeof event.server === "string") &&
    (event.reason === undefined ||
      event.reason === "foreign" ||
      event.reason === "settings" ||
      event.reason === "agent")
  );
}

export function isApprovalResolvedEvent(value: unknown): value is ApprovalResolvedEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  return event.type === "approval_resolved" && typeof event.approval_id === "string";
}

/** True when the thread holds content from someone else (its tools ask before sending data out). */
export function holdsForeignContent(thread: { foreign?: ForeignContent } | undefined): boolean {
  return thread?.foreign !== undefined;
}
