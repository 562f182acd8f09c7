// The page's notice line: what it says, of what kind (an error, or news such as "/compact" done), and the thread it
// belongs to. A thread's notice shows only while that thread is open; one of no thread shows wherever the user is.
export type NoticeKind = "error" | "success" | "info";

export interface Notice {
  text: string;
  kind: NoticeKind;
  /** The thread the notice is about; absent: about the app (storage, an update, memory). */
  threadId?: string;
  /** A button after the text ("Open the copy"). */
  action?: NoticeAction;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

export interface NoticeOptions {
  /** Default "error": most notices say why something did not happen. */
  kind?: NoticeKind;
  threadId?: string | undefined;
  action?: NoticeAction;
}

/** The notice for `text` (none for undefined). */
export function noticeOf(text: string | undefined, options: NoticeOptions = {}): Notice | undefined {
  if (text === undefined) return undefined;
  return {
    text,
    kind: options.kind ?? "error",
    ...(options.threadId !== undefined && { threadId: options.threadId }),
    ...(options.action && { action: options.action }),
  };
}

/** The notice to show with `openThreadId` open: none when it belongs to another thread (or to one, and none is open). */
export function noticeShown(notice: Notice | undefined, openThreadId: string | undefined): Notice | undefined {
  if (!notice) return undefined;
  return notice.threadId === undefined || notice.threadId === openThreadId ? notice : undefined;
}
