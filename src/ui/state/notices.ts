// The notices and dialogs store: the notice line (an error or news, kept with the thread it is about), whether
// Settings is open, and the file in the preview dialog. Components take it with useNotices() (stores.tsx).
import { createSignal } from "solid-js";
import { noticeOf, noticeShown, type Notice, type NoticeOptions } from "../shared/notice.ts";

/** A file being previewed, with the thread it belongs to. */
export interface PreviewTarget {
  threadId: string;
  path: string;
}

/** `shownThreadId` is the thread on screen (the open one, or a shared thread being read). */
export function createNotices(deps: {
  openThreadId: () => string | undefined;
  shownThreadId: () => string | undefined;
}) {
  const [anyNotice, setAnyNotice] = createSignal<Notice | undefined>();
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [preview, setPreview] = createSignal<PreviewTarget | undefined>();
  return {
    /** The notice for the open thread: one of another thread stays with that thread. */
    notice: () => noticeShown(anyNotice(), deps.openThreadId()),
    /** Says `text` in the notice line: an error unless `kind` says otherwise; with `threadId`, only in that thread. */
    setNotice: (text: string | undefined, options?: NoticeOptions) => setAnyNotice(noticeOf(text, options)),
    settingsOpen,
    setSettingsOpen,
    /** The file being previewed, while its thread is the one shown. */
    previewing: () => {
      const open = preview();
      return open && open.threadId === deps.shownThreadId() ? open : undefined;
    },
    /** Previews one of the shown thread's files. */
    openPreview: (path: string) => {
      const threadId = deps.shownThreadId();
      if (threadId) setPreview({ threadId, path });
    },
    /**
     * Closes the preview `which` (a dialog's `close` event comes a task after it closes, when another preview may
     * already be open: that one stays).
     */
    closePreview: (which: PreviewTarget) => setPreview((current) => (current === which ? undefined : current)),
  };
}

export type NoticesStore = ReturnType<typeof createNotices>;
