// The English dictionary, part: the thread's records opened from Thread actions, "Uploads" (the files attached to
// the thread, with Delete) and "Sandbox log" (the commands the agent ran). Only their lazily loaded dialogs import
// this part, and it adds itself to the English dictionary as it loads (index.ts `addEnglish`).
import { template } from "@solid-primitives/i18n";
import { addEnglish } from "./index.ts";

export const enThreadLogs = {
  "uploads.title": "Uploads",
  "uploads.intro": "Files attached to this thread's messages. The agent reads them in /mnt/user-data/uploads.",
  "uploads.list": "Uploads",
  "uploads.loading": "Reading the uploads…",
  "uploads.none": "No files are uploaded to this thread.",
  "uploads.markdown": template<{ name: string }>("Also as Markdown: {{ name }}"),
  "uploads.download": template<{ name: string }>("Download {{ name }}"),
  "uploads.delete": template<{ name: string }>("Delete {{ name }}"),
  "uploads.confirmTitle": "Delete upload?",
  "uploads.confirmText": template<{ name: string }>(
    "{{ name }} will be deleted from this thread. The messages that mention it stay as they are.",
  ),
  "uploads.confirmTextMarkdown": template<{ name: string; markdown: string }>(
    "{{ name }} and its Markdown copy {{ markdown }} will be deleted from this thread. The messages that mention them stay as they are.",
  ),
  "uploads.deleted": template<{ name: string }>("Deleted {{ name }}."),
  "threadLogs.close": "Close",
  "sandboxLog.title": "Sandbox log",
  "sandboxLog.intro":
    "Every command the agent ran in this thread's sandbox, oldest first, with the files each one changed. Your own Terminal commands are not listed.",
  "sandboxLog.table": "Sandbox log",
  "sandboxLog.loading": "Reading the log…",
  "sandboxLog.none": "The agent has not run any commands in this thread's sandbox yet.",
  "sandboxLog.time": "Time",
  "sandboxLog.command": "Command",
  "sandboxLog.exitCode": "Exit code",
  "sandboxLog.files": "Files changed",
  "sandboxLog.noFiles": "None",
  "sandboxLog.cut": "(cut short)",
  "sandboxLog.seconds": template<{ seconds: string }>("{{ seconds }} s"),
  "sandboxLog.stopped.timeout": "stopped: too slow",
  "sandboxLog.stopped.cancelled": "cancelled",
  "sandboxLog.stopped.limit": "stopped: over the limits",
  "sandboxLog.notRun": "not run",
  "sandboxLog.added": template<{ path: string }>("added {{ path }}"),
  "sandboxLog.modified": template<{ path: string }>("changed {{ path }}"),
  "sandboxLog.deleted": template<{ path: string }>("deleted {{ path }}"),
  "sandboxLog.more": template<{ count: string }>("and {{ count }} more"),
};

// Only the thread records' dialogs import this part: its texts join the English dictionary as their chunk loads.
addEnglish(enThreadLogs);
