// The English dictionary: the source of truth for every UI string, flat keys by area: the app's shell, threads and
// shared pieces here, the rest in parts (en-conversation.ts, en-workspaces.ts, en-settings.ts, en-models-tools.ts).
// `en` is what the first screen shows: this file and the parts joined below. The parts only the Settings dialog shows
// (en-settings.ts, en-models-tools.ts) are not in it: they load with that dialog's chunk and add themselves to it
// (`addEnglish`), and `Dictionary` still types every key (en-all.ts joins everything, for tests and checks).
// zh-cn.ts must have every key with the same {{ placeholders }} (its type and a unit test check). Keys ending in
// .one/.other are plural forms, chosen by `tn` with Intl.PluralRules; values with placeholders are templates, typed
// with the arguments they take.
import { template } from "@solid-primitives/i18n";
import { enConversation } from "./en-conversation.ts";
import type { enModelsTools } from "./en-models-tools.ts";
import type { enSettings } from "./en-settings.ts";
import type { enSchedules } from "./en-schedules.ts";
import type { enThreadLogs } from "./en-thread-logs.ts";
import { enWorkspaces } from "./en-workspaces.ts";

/** The English texts the first screen may show (first-screen-keys.test.ts checks that no first-screen module uses
 * another). */
export const en = {
  // Shared words.
  "common.save": "Save",
  "common.saving": "Saving…",
  "common.saved": "Saved.",
  "common.cancel": "Cancel",
  "common.delete": "Delete",
  "common.confirmDelete": "Confirm delete",
  "common.dismiss": "Dismiss",
  "common.threads": "Threads",
  "common.terminal": "Terminal",
  "common.keyboardShortcuts": "Keyboard shortcuts",
  "common.openSettings": "Open Settings",
  "common.stopReply": "Stop the reply",
  "common.newThread": "New thread",
  "common.focusComposer": "Focus the message box",
  "common.commandPalette": "Command palette",

  // The app shell (app.tsx).
  "app.openSettings": "Open settings",
  "app.toggleSidebar": "Toggle sidebar",
  "app.toggleTerminal": "Toggle terminal",
  "theme.light": "Light",
  "theme.dark": "Dark",
  "theme.system": "System",
  "app.switchTheme": template<{ theme: string }>("Switch theme to {{ theme }}"),
  "app.switchLanguage": template<{ language: string }>("Switch language to {{ language }}"),
  "app.storageFailed": template<{ error: string }>("Fawn could not open its storage: {{ error }}"),
  // A dialog whose code is still on its way (app.tsx, shared/deferred.tsx).
  "app.loadingDialog": "Loading…",
  "app.loadingTerminal": "Loading the terminal…",
  // GitHub Pages project sites share one origin (workspace/shared-origin-notice.tsx).
  "origin.shared": template<{ origin: string; owner: string }>(
    "This Fawn is a GitHub Pages project site: it shares its address, {{ origin }}, with every other Pages site of {{ owner }}. Any of those sites can read what Fawn keeps in this browser, your API keys included.",
  ),
  "origin.howTo": "How to give Fawn an address of its own",

  // Layout: the side panels' summary row on narrower screens (side-panels.tsx).
  "layout.artifactsCount": template<{ count: string }>("Artifacts ({{ count }})"),
  "layout.planProgress": template<{ done: string; total: string }>("Plan {{ done }}/{{ total }}"),
  "layout.writing": "writing…",
  "layout.hideThreads": "Hide threads",

  // Keyboard shortcuts (shortcuts.ts, shortcuts-help.tsx).
  "shortcuts.toggleSidebar": "Show or hide the threads",
  "shortcuts.close": "Close keyboard shortcuts",
  "shortcuts.action": "Action",
  "shortcuts.keys": "Keys",
  "shortcuts.or": " or ",
  "shortcuts.hint": '"/" and "?" work when you are not typing in a text field. Escape stops a reply while it runs.',

  // Command palette.
  "palette.search": "Search commands and threads",
  "palette.searchPlaceholder": "Search commands and threads…",
  "palette.results": "Commands and threads",
  "palette.commands": "Commands",
  "palette.nothing": template<{ query: string }>('Nothing matches "{{ query }}".'),

  // The title bar (thread-header.tsx).
  "header.renamePrompt": "Rename thread",
  "header.deleteConfirm": template<{ title: string }>(
    'Delete "{{ title }}" and everything in it? This cannot be undone.',
  ),
  "header.showThreads": "Show threads",
  "header.tokens": template<{ count: string }>("Tokens: {{ count }}"),
  "header.shortcutsTitle": "Keyboard shortcuts (?)",
  "header.threadActions": "Thread actions",
  "header.export": "Export",
  "header.exportFawn": "Fawn bundle (.fawn)",
  "header.exportMarkdown": "Markdown",
  "header.exportDeerFlow": "DeerFlow JSON",
  "header.exportFailed": template<{ error: string }>("The thread was not exported: {{ error }}"),
  "header.rename": "Rename",
  "header.pin": "Pin",
  "header.unpin": "Unpin",
  "header.threadMemory": "Use memory in this thread",
  "header.threadMemoryFailed": template<{ error: string }>("Memory was not switched: {{ error }}"),

  // The Terminal panel.
  "terminal.noAnswer": template<{ error: string }>("The sandbox did not answer: {{ error }}"),
  "terminal.intro": template<{ kind: string }>(
    "This thread's sandbox ({{ kind }}). Files under /mnt/user-data are kept.",
  ),
  "terminal.kindBrowser": "bash in the browser",
  "terminal.outputNote": "Output shows when a command ends; Ctrl+C stops it.",
  "terminal.resize": "Resize terminal",
  "terminal.title": "Sandbox terminal",
  "terminal.running": "Running… Ctrl+C stops it.",
  "terminal.noInterpreter": template<{ command: string }>(
    "The interactive Python interpreter is not available here. Run a script with {{ command }} file.py, or one line with {{ command }} -c \"print('hi')\".",
  ),

  // Import thread.
  "import.button": "Import thread",
  "import.title":
    "Import a thread: a Fawn bundle (.fawn), or a DeerFlow thread's folder, a .zip of it, or its thread.json with its files",
  "import.fromFolder": "From a folder…",
  "import.fromFiles": "From a .zip or files…",
  "import.folderInput": "Thread folder",
  "import.filesInput": "Thread files",
  "import.importing": "Importing…",
  "import.markdownNotImportable":
    "This is a Markdown transcript, made to be read: Fawn cannot import it. Import the thread's Fawn bundle (.fawn) or DeerFlow JSON export instead.",

  // Share link (share-link-dialog.tsx) and a shared thread arriving (shared-thread-dialog.tsx).
  "share.menuItem": "Share link",
  "header.uploads": "Uploads",
  "header.sandboxLog": "Sandbox log",
  "header.schedule": "Schedule…",
  "share.title": "Share link",
  "share.linkLabel": "Share link",
  "share.copy": "Copy link",
  "share.copied": "Copied.",
  "share.copyFailed": "The link could not be copied: select it and copy it yourself.",
  "share.making": "Making the link…",
  "share.hint":
    "Anyone with this link can read the thread, its messages and files. The thread travels inside the link itself: no server receives it.",
  "share.tooBig": template<{ size: string; limit: string }>(
    "This thread is too big for a link ({{ size }}; a link holds at most {{ limit }}). Share it as a .fawn file instead.",
  ),
  "share.exportFawn": "Export .fawn instead",
  "share.failed": template<{ error: string }>("The link was not made: {{ error }}"),
  "share.close": "Close",
  "shared.title": "Shared thread",
  "shared.reading": "Reading the shared thread…",
  "shared.messages.one": "{{ count }} message",
  "shared.messages.other": "{{ count }} messages",
  "shared.files": "Files",
  "shared.noFiles": "No files.",
  "shared.readFirst": "Read it here first: nothing is saved in this browser until you import it.",
  "shared.previewFile": "Preview",
  "shared.import": "Import",
  "shared.importing": "Importing…",
  "shared.fileGone": "The shared file is no longer here: share it to Fawn again.",
  "shared.close": "Close",

  // The update prompt.
  "update.ready": "A new version of Fawn is ready.",
  "update.reload": "Reload",
  "update.later": "Later",
  "update.offline": "Fawn is installed in this browser and now works offline.",

  // Browser notifications.
  "notify.replyReady": template<{ title: string }>("{{ title }}: reply ready"),

  // Notices at the top of the page (the stores, src/ui/state/).
  "notice.threadGone": "That thread no longer exists.",
  "notice.updated": "Fawn was updated. Reload the page to use the new version.",
  "notice.deletedElsewhere": "This thread was deleted in another tab.",
  "notice.notUploaded": template<{ error: string }>("The files were not uploaded: {{ error }}"),
  "notice.runNotStarted": template<{ error: string }>("The run could not start: {{ error }}"),

  // The sidebar, the thread list and thread search (sidebar.tsx, thread-list.tsx, thread-search.tsx, thread-search-controller.ts).
  "sidebar.settings": "Settings",
  "threads.none": "No threads yet.",
  "threads.pinned": "Pinned",
  "threads.imported": "Imported, read-only",
  "threads.running": "Running",
  "threads.importedTag": "Imported",
  "threads.copy": "Your copy of another person's thread",
  "threads.copyTag": "Copy",
  "search.box": "Search threads",
  "search.clear": "Clear search",
  "search.clearTitle": "Clear search (Esc)",
  "search.results": "Search results",
  "search.failed": template<{ error: string }>("The search failed: {{ error }}"),
  "search.searching": "Searching…",
  "search.indexing": "Still indexing older threads…",
  "search.none": template<{ query: string }>("No threads match \u201c{{ query }}\u201d."),
  "search.matches.one": template<{ count: string }>("{{ count }} matching thread."),
  "search.matches.other": template<{ count: string }>("{{ count }} matching threads."),
  "search.showing.one": template<{ count: string; shown: string }>(
    "Showing {{ shown }} of {{ count }} matching thread.",
  ),
  "search.showing.other": template<{ count: string; shown: string }>(
    "Showing {{ shown }} of {{ count }} matching threads.",
  ),
  "artifacts.tableFailed": template<{ error: string }>("The table could not be read: {{ error }}"),

  // The Artifacts region and its preview (artifacts-panel.tsx, artifact-preview*.tsx).
  "artifacts.region": "Artifacts",
  "artifacts.beingWritten": "Files being written",
  "artifacts.writingFile": template<{ name: string }>("Writing {{ name }}…"),
  "artifacts.liveContent": template<{ name: string }>("{{ name }} as it is written"),
  "artifacts.preview": template<{ name: string }>("Preview {{ name }}"),
  "artifacts.previewOf": template<{ name: string }>("Preview: {{ name }}"),
  "artifacts.download": "Download",
  "artifacts.downloadFile": template<{ name: string }>("Download {{ name }}"),
  "artifacts.install": "Install",
  "artifacts.installSkill": template<{ name: string }>("Install skill {{ name }}"),
  "artifacts.installed": template<{ name: string }>("Installed {{ name }}. It is on in Settings → Skills."),
  "artifacts.source": "Source",
  "artifacts.back": "Back",
  "artifacts.backTo": template<{ name: string }>("Back to {{ name }}"),
  "artifacts.closePreview": "Close preview",
  "artifacts.loading": "Loading the preview…",
  "artifacts.htmlPreview": "HTML preview",
  "artifacts.allowNetwork": "Allow network",
  "artifacts.pdfPreview": "PDF preview",
  "artifacts.videoPreview": template<{ name: string }>("Video {{ name }}"),
  "artifacts.audioPreview": template<{ name: string }>("Audio {{ name }}"),
  "artifacts.imageBroken": "This image could not be shown. Use Download to save it.",
  "artifacts.mediaBroken": "This browser cannot play this file. Use Download to save it.",
  "artifacts.noPdf": "This browser cannot show PDFs here. Use Download to open it in a PDF reader.",
  "artifacts.noSkillMd": "The archive has no SKILL.md.",
  "artifacts.badSkill": "This skill archive could not be opened.",
  "artifacts.sourceOf": template<{ name: string }>("Source of {{ name }}"),
  "artifacts.tableOf": template<{ name: string }>("Table of {{ name }}"),
  "artifacts.truncated": template<{ shown: string; total: string }>(
    "Showing the first {{ shown }} of {{ total }}. Download the file to see all of it.",
  ),
  "artifacts.truncatedHtml": template<{ shown: string; total: string }>(
    "Showing the first {{ shown }} of {{ total }}, as source: a cut page is not run. Download the file to see all of it.",
  ),
  "artifacts.empty": "This file is empty.",
  "artifacts.noPreview": "No preview for this kind of file. Use Download to save it.",

  // Delete's confirmation (threads/delete-thread-dialog.tsx).
  "deleteThread.title": "Delete thread?",
  "deleteThread.cancel": "Cancel",

  // Rename's dialog (threads/rename-thread-dialog.tsx); its heading is header.renamePrompt.
  "renameThread.label": "Title",
  "renameThread.empty": "Give the thread a title.",
  "renameThread.tooLong": template<{ max: string }>("A title is at most {{ max }} characters."),

  // Copy buttons and Mermaid diagrams (shared/copy-button.tsx, conversation/copy-message-button.tsx,
  // markdown/code-block-tools.tsx).
  "copy.message": "Copy",
  "copy.code": "Copy code",
  "copy.done": "Copied",
  "copy.failed": "The browser refused access to the clipboard: select the text and copy it yourself.",
  "mermaid.showSource": "Show source",
  "mermaid.showDiagram": "Show diagram",
  "mermaid.diagram": "Diagram",
  "mermaid.rendering": "Drawing the diagram…",
  "mermaid.failed": template<{ error: string }>("The diagram could not be drawn: {{ error }}"),

  ...enConversation,
  ...enWorkspaces,
};

/** The English dictionary's type: every key (the first screen's and the Settings dialog's parts), and the template
 * arguments each takes. */
export type Dictionary = typeof en &
  typeof enSettings &
  typeof enModelsTools &
  typeof enThreadLogs &
  typeof enSchedules;

export type MessageKey = keyof Dictionary;

/** Another language's dictionary: every key, as plain text with the same {{ placeholders }} as the English. */
export type Translation = { readonly [K in MessageKey]: string };
