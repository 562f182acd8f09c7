// The thread list store: the threads in the sidebar, read again on each change the worker announces, and the changes
// a thread's actions make (rename, pin, memory, delete, export). Components take it with useThreadList() (stores.tsx).
import { createSignal } from "solid-js";
import type { ThreadExport, ThreadExportFormat, ThreadSummary } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { download } from "../shared/download.ts";
import type { NoticesStore } from "./notices.ts";
import type { OpenThreadStore } from "./open-thread.ts";

export function createThreadList(deps: { client: GatewayClient; notices: NoticesStore; openThread: OpenThreadStore }) {
  const { client, notices, openThread } = deps;
  const [threads, setThreads] = createSignal<ThreadSummary[]>([]);

  // The list is read once per change: the worker announces every change it makes (this tab's own included), and a
  // change announced while a read is under way gets one more read after it, however many came meanwhile.
  let reading: Promise<void> | undefined;
  let readAgain: Promise<void> | undefined;
  function refresh(): Promise<void> {
    if (!reading) {
      const read = client.threads.list().then((list) => void setThreads(list));
      reading = read.finally(() => (reading = undefined));
      return reading;
    }
    const after = reading;
    readAgain ??= after
      .catch(() => undefined)
      .then(() => {
        readAgain = undefined;
        return refresh();
      });
    return readAgain;
  }

  /** Applies a change to a thread (its notice refreshes the list and the open thread); a refusal becomes a notice. */
  async function change(apply: () => Promise<unknown>): Promise<void> {
    try {
      await apply();
    } catch (error) {
      notices.setNotice(errorMessage(error));
    }
  }

  return {
    threads,
    refresh,
    rename: (threadId: string, title: string) => change(() => client.threads.rename(threadId, title)),
    pin: (threadId: string, pinned: boolean) => change(() => client.threads.pin(threadId, pinned)),
    /** Thread actions → "Use memory in this thread", for a thread holding another person's messages. */
    setMemory: (threadId: string, enabled: boolean) => change(() => client.threads.setMemory(threadId, enabled)),
    async delete(threadId: string): Promise<void> {
      try {
        await client.threads.delete(threadId);
        // The notice that follows refreshes the list; the thread closes here, so it does not read as deleted elsewhere.
        if (openThread.current()?.thread_id === threadId) await openThread.open(undefined);
      } catch (error) {
        notices.setNotice(errorMessage(error));
      }
    },
    /** Thread actions → Export: the file downloads (and is answered); a refusal becomes a notice (none answered). */
    async export(threadId: string, format: ThreadExportFormat): Promise<ThreadExport | undefined> {
      try {
        const exported = await client.bundles.export(threadId, format);
        download(exported.blob, exported.file_name);
        return exported;
      } catch (error) {
        notices.setNotice(t("header.exportFailed", { error: errorMessage(error) }));
        return undefined;
      }
    },
  };
}

export type ThreadListStore = ReturnType<typeof createThreadList>;
