// The English dictionary: the source of truth for every UI string, flat keys by area. zh-cn.ts must have the same
// keys with the same {{ placeholders }} (a unit test checks). Keys ending in .one/.other are plural forms, chosen by
// `tn` with Intl.PluralRules; values with placeholders are templates, typed with the arguments they take.
import { template } from "@solid-primitives/i18n";

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
  "app.switchTheme": template<{ theme: string }>("Switch theme to {{ theme }}"),
  "app.switchLanguage": template<{ language: string }>("Switch language to {{ language }}"),
  "app.storageFailed": template<{ error: string }>("Fawn could not open its storage: {{ error }}"),
  "app.loadingTerminal": "Loading the terminal…",

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

  // Appearance (appearance-tab.tsx) and the theme's names.
  "theme.light": "Light",
  "theme.dark": "Dark",
  "theme.system": "System",
  "appearance.theme": "Theme",
  "appearance.themeHint": "System follows your device's light or dark setting, and switches when it does.",
  "appearance.language": "Language",
  "appearance.languageSystem": "System",
  "appearance.languageHint":
    "System follows your browser's language: Simplified Chinese if it prefers that, English otherwise.",
  "appearance.notifications": "Notifications",
  "appearance.notificationsHint": "A notification when a reply is ready while Fawn's tab is in the background.",
  "appearance.allowNotifications": "Allow notifications",
  "appearance.permission.default": "Not allowed yet.",
  "appearance.permission.granted": "Allowed: Fawn tells you when a reply is ready while its tab is hidden.",
  "appearance.permission.denied": "Blocked. Allow notifications for this site in the browser's site settings.",
  "appearance.permission.unsupported": "This browser cannot show notifications.",

  // The composer.
  "composer.mode": "Mode",
  "composer.mode.flash": "Flash",
  "composer.mode.flashHint": "Fast answers, no reasoning or plan",
  "composer.mode.thinking": "Thinking",
  "composer.mode.thinkingHint": "Reasons before answering (models marked Thinking)",
  "composer.mode.pro": "Pro",
  "composer.mode.proHint": "Reasons and keeps a plan of the steps",
  "composer.mode.ultra": "Ultra",
  "composer.mode.ultraHint": "Reasons, plans, and may split work among subagents",
  "composer.notAttached": template<{ problem: string }>("{{ problem }} Nothing was attached."),
  "composer.attachedFiles": "Attached files",
  "composer.remove": template<{ name: string }>("Remove {{ name }}"),
  "composer.message": "Message",
  "composer.placeholder": "Ask anything…  (Enter to send, Shift+Enter for a new line)",
  "composer.attach": "Attach files",
  "composer.attachTitle": "Attach files (up to 10, 50 MB each)",
  "composer.model": "Model for this message",
  "composer.uploading": "Uploading…",
  "composer.send": "Send",
  "composer.stop": "Stop",

  // The title bar (thread-header.tsx).
  "header.renamePrompt": "Rename thread",
  "header.deleteConfirm": template<{ title: string }>(
    'Delete "{{ title }}" and everything in it? This cannot be undone.',
  ),
  "header.showThreads": "Show threads",
  "header.tokens": template<{ count: string }>("Tokens: {{ count }}"),
  "header.shortcutsTitle": "Keyboard shortcuts (?)",
  "header.threadActions": "Thread actions",
  "header.rename": "Rename",
  "header.pin": "Pin",
  "header.unpin": "Unpin",

  // The conversation.
  "conversation.log": "Conversation",
  "conversation.welcome": "What can I do for you?",
  "conversation.setUp": template<{ link: string }>(
    "Fawn talks to any OpenAI-compatible model with your own key, straight from this browser. {{ link }} to begin.",
  ),
  "conversation.setUpLink": "Set up a model",
  "conversation.using": template<{ model: string }>("Using {{ model }}. Your threads stay in this browser."),
  "conversation.assistantMessage": "Assistant message",
  "conversation.thinking": "Thinking",

  // Messages and their tool steps (message-view.tsx, tool-steps.ts, tool-steps.tsx).
  "message.user": "User message",
  "message.files": "Files",
  "message.reasoning": "Reasoning",
  "message.stopped": "Stopped",
  "message.toolResult": template<{ tool: string }>("Tool result: {{ tool }}"),
  "message.toolFailed": template<{ tool: string }>("Tool failed: {{ tool }}"),
  "steps.list": "Tool calls",
  "steps.running": "Running",
  "steps.done": "Done",
  "steps.failed": "Failed",
  "steps.waiting": "Waiting for the result…",
  "steps.replaced": "Replaced text",
  "steps.newText": "New text",
  "steps.searchResults": "Search results",
  "steps.ran": template<{ command: string }>("Ran {{ command }}"),
  "steps.wrote": template<{ path: string }>("Wrote {{ path }}"),
  "steps.appended": template<{ path: string }>("Appended to {{ path }}"),
  "steps.edited": template<{ path: string }>("Edited {{ path }}"),
  "steps.read": template<{ path: string }>("Read {{ path }}"),
  "steps.readLines": template<{ path: string; start: string; end: string }>(
    "Read {{ path }} (lines {{ start }}–{{ end }})",
  ),
  "steps.listed": template<{ path: string }>("Listed {{ path }}"),
  "steps.globbed": template<{ pattern: string; path: string }>("Looked for {{ pattern }} in {{ path }}"),
  "steps.grepped": template<{ pattern: string; path: string }>("Searched for {{ pattern }} in {{ path }}"),
  "steps.searchedWeb": template<{ query: string }>("Searched the web for \u201c{{ query }}\u201d"),
  "steps.presented": template<{ names: string }>("Presented {{ names }}"),
  "steps.presentedFiles": "Presented files",
  "steps.lookedAt": template<{ path: string }>("Looked at {{ path }}"),
  "steps.used": template<{ tool: string }>("Used {{ tool }}"),
  "steps.lineEnd": "end",

  // Token usage (token-usage.ts).
  "tokens.count.one": template<{ count: string }>("{{ count }} token"),
  "tokens.count.other": template<{ count: string }>("{{ count }} tokens"),
  "tokens.detail": template<{ input: string; output: string }>("{{ input }} in · {{ output }} out"),

  // The clarification card.
  "clarification.group": "Clarification",
  "clarification.yourAnswer": "Your answer",
  "clarification.otherAnswer": "Or write another answer",
  "clarification.answer": "Answer",
  "clarification.choose": "Choose…",
  "clarification.beforeAnswering": template<{ problems: string }>("Before answering: {{ problems }}"),
  "clarification.fillOne": "Fill in at least one field before answering.",
  "clarification.answered": "Your answer:",

  // The Plan region.
  "plan.region": "Plan",
  "plan.progress": template<{ done: string; total: string }>("{{ done }} of {{ total }} done"),
  "plan.status": template<{ status: string }>(" ({{ status }})"),
  "plan.pending": "to do",
  "plan.inProgress": "in progress",
  "plan.completed": "done",

  // Subtask cards (subtask-cards.tsx, subtasks.ts).
  "subtasks.region": "Subtasks",
  "subtasks.card": template<{ description: string }>("Subtask: {{ description }}"),
  "subtasks.untitled": "Subtask",
  "subtasks.running": "Running",
  "subtasks.completed": "Completed",
  "subtasks.failed": "Failed",
  "subtasks.cancelled": "Cancelled",
  "subtasks.timedOut": "Timed out",
  "subtasks.stopped": "Stopped",
  "subtasks.turnCapped": "It stopped at its turn limit; the result may be partial.",
  "subtasks.loopCapped": "It stopped repeating the same tool calls; the result may be partial.",
  "subtasks.steps.one": template<{ count: string }>("{{ count }} step"),
  "subtasks.steps.other": template<{ count: string }>("{{ count }} steps"),
  "subtasks.details": "Details",
  "subtasks.prompt": "Prompt",
  "subtasks.stepsLabel": "Steps",
  "subtasks.result": "Result",
  "subtasks.error": "Error",
  "subtasks.ranTool": template<{ name: string }>("Ran {{ name }}"),
  "subtasks.aTool": "a tool",
  "subtasks.calling": template<{ names: string }>("Calling {{ names }}"),
  "subtasks.thinking": "Thinking",

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

  // Import thread.
  "import.button": "Import thread",
  "import.title": "Import a DeerFlow thread: its folder, a .zip of it, or its thread.json with its files",
  "import.fromFolder": "From a folder…",
  "import.fromFiles": "From a .zip or files…",
  "import.folderInput": "Thread folder",
  "import.filesInput": "Thread files",
  "import.importing": "Importing…",

  // The update prompt.
  "update.ready": "A new version of Fawn is ready.",
  "update.reload": "Reload",
  "update.later": "Later",
  "update.offline": "Fawn is installed in this browser and now works offline.",

  // Browser notifications.
  "notify.replyReady": template<{ title: string }>("{{ title }}: reply ready"),

  // Settings fields (text-field.tsx).
  "field.showKey": "Show key",
  "field.hideKey": "Hide key",

  // Settings dialog and Settings → Models (settings-dialog.tsx, models-tab.tsx).
  "settings.title": "Settings",
  "settings.close": "Close settings",
  "settings.sections": "Settings sections",
  "settings.tab.models": "Models",
  "settings.tab.web": "Web",
  "settings.tab.skills": "Skills",
  "settings.tab.memory": "Memory",
  "settings.tab.subagents": "Subagents",
  "settings.tab.sandbox": "Sandbox",
  "settings.tab.appearance": "Appearance",
  "settings.tab.data": "Data",
  "models.hint":
    "Any OpenAI-compatible endpoint works, and you can add several. Each key stays in this browser and is sent only to its endpoint.",
  "models.endpoint": "Endpoint",
  "models.mainOption": template<{ name: string }>("{{ name }} (default model)"),
  "models.addEndpoint": "Add endpoint",
  "models.removeEndpoint": "Remove endpoint",
  "models.removedUnsaved": template<{ name: string }>("{{ name }} removed. Save to keep the change."),
  "models.endpointN": template<{ count: string }>("Endpoint {{ count }}"),
  "models.endpointName": "Endpoint name",
  "models.presets": "Endpoint presets",
  "models.baseUrl": "Base URL",
  "models.apiKey": "API key",
  "models.apiKeyPlaceholder": "Leave empty for local servers",
  "models.useProxy": "Use the proxy",
  "models.useProxyHint":
    "For providers that refuse requests from web pages (CORS): requests go through Fawn's relay (npm run proxy), at the Proxy URL of Settings → Web or http://127.0.0.1:8787/forward/.",
  "models.model": "Model",
  "models.listModels": "List models",
  "models.asking": "Asking the endpoint for its models…",
  "models.offers": template<{ count: string }>("The endpoint offers {{ count }} models."),
  "models.offersNone": "The endpoint listed no models.",
  "models.choose": "Models to choose from",
  "models.chooseHint":
    "Mark the models that reason (they think in the Thinking, Pro and Ultra modes) and those that read images.",
  "models.default": "default",
  "models.thinking": "Thinking",
  "models.vision": "Vision",
  "models.remove": template<{ model: string }>("Remove {{ model }}"),
  "models.addAModel": "Add a model",
  "models.addPlaceholder": "another model of this endpoint",
  "models.addModel": "Add model",
  "models.titles": "Name threads with the model (one short extra request per thread)",

  // Settings → Memory.
  "memory.confidenceProblem": "Confidence must be a number from 0 to 1.",
  "memory.working": "Working…",
  "memory.factNeedsText": "A fact needs some text.",
  "memory.factSaved": "Fact saved.",
  "memory.factDeleted": "Fact deleted.",
  "memory.writeFactFirst": "Write the fact to add first.",
  "memory.factAdded": "Fact added.",
  "memory.exported": template<{ file: string }>("Memory exported as {{ file }}."),
  "memory.unreadable": template<{ file: string; error: string }>("Could not read {{ file }}: {{ error }}"),
  "memory.imported": "Memory imported.",
  "memory.cleared": "Memory cleared.",
  "memory.settings": "Memory settings",
  "memory.intro": "Fawn learns about you from your conversations and keeps it in this browser, for every thread.",
  "memory.use": "Use memory",
  "memory.inject": "Put memory into the prompt",
  "memory.off": "Memory is off: Fawn learns nothing new, and the agent sees none of it.",
  "memory.debounce": "Update delay (seconds)",
  "memory.debounceHint": "How long after a reply Fawn waits for more before it learns (0–3600).",
  "memory.budget": "Memory budget (tokens)",
  "memory.budgetHint": "The memory's share of the prompt (100–20000).",
  "memory.saveSettings": "Save memory settings",
  "memory.loading": "Loading memory…",
  "memory.empty": "Nothing remembered yet.",
  "memory.search": "Search memory",
  "memory.searchPlaceholder": "Search facts",
  "memory.facts": "Facts",
  "memory.fact": "Fact",
  "memory.category": "Category",
  "memory.confidence": "Confidence",
  "memory.learned": "Learned",
  "memory.actions": "Actions",
  "memory.insteadOf": template<{ wrong: string }>("Instead of: {{ wrong }}"),
  "memory.editFact": template<{ fact: string }>("Edit fact: {{ fact }}"),
  "memory.deleteFact": template<{ fact: string }>("Delete fact: {{ fact }}"),
  "memory.edit": "Edit",
  "memory.keepFact": "Keep fact",
  "memory.saveFact": "Save fact",
  "memory.noMatch": template<{ query: string }>("No fact matches “{{ query }}”."),
  "memory.noFacts": "No facts yet.",
  "memory.addTitle": "Add a fact",
  "memory.newFact": "New fact",
  "memory.newFactPlaceholder": "Prefers answers in British English",
  "memory.addFact": "Add fact",
  "memory.replace.one": template<{ file: string; count: string }>(
    "Replace what Fawn remembers with {{ file }} ({{ count }} fact)? The current memory will be lost.",
  ),
  "memory.replace.other": template<{ file: string; count: string }>(
    "Replace what Fawn remembers with {{ file }} ({{ count }} facts)? The current memory will be lost.",
  ),
  "memory.replaceButton": "Replace memory",
  "memory.cancelImport": "Cancel import",
  "memory.clearConfirm": "Forget every summary and fact? This cannot be undone.",
  "memory.confirmClear": "Confirm clear",
  "memory.keepMemory": "Keep memory",
  "memory.export": "Export memory",
  "memory.import": "Import memory",
  "memory.importFile": "Import memory file",
  "memory.clear": "Clear memory",

  // Settings → Skills.
  "skills.enable": template<{ name: string }>("Enable {{ name }}"),
  "skills.deleteSkill": template<{ name: string }>("Delete skill {{ name }}"),
  "skills.keep": "Keep skill",
  "skills.enabled": template<{ name: string }>("Enabled {{ name }}."),
  "skills.disabled": template<{ name: string }>("Disabled {{ name }}."),
  "skills.deleted": template<{ name: string }>("Deleted {{ name }}."),
  "skills.tooLarge": template<{ file: string; size: string; max: string }>(
    "{{ file }} is {{ size }}; a skill archive may be at most {{ max }}.",
  ),
  "skills.installing": template<{ file: string }>("Installing {{ file }}…"),
  "skills.installed": template<{ name: string }>("Installed {{ name }}."),
  "skills.intro":
    "Skills are instructions and scripts the agent reads from /mnt/skills when a task needs them. Turned-off skills stay out of its prompt.",
  "skills.install": "Install skill",
  "skills.archive": "Skill archive",
  "skills.loading": "Loading skills…",
  "skills.builtIn": "Built-in skills",
  "skills.noneShipped": "This build of Fawn ships no skills.",
  "skills.installedTitle": "Installed skills",
  "skills.noneInstalled":
    "None yet. Install a .skill or .zip archive holding a SKILL.md (its name and description in YAML frontmatter). The agent can write one for you with the skill-creator skill.",

  // Settings → Subagents.
  "subagents.intro":
    "In Ultra mode the agent hands parts of a task to subagents, each working in its own context. The built-in types general-purpose and bash are always there (bash only when the sandbox has bash); add your own below.",
  "subagents.timeout": "Subagent time limit (seconds)",
  "subagents.perResponse": "Subagents per response",
  "subagents.perRun": "Subagents per run",
  "subagents.limitsHint":
    "A subagent is stopped after its time limit (10–7200 seconds). Up to 4 run at once from one response, and up to 50 in one run.",
  "subagents.yourTypes": "Your subagent types",
  "subagents.noTypes": "None yet. A type gives a subagent its own instructions and, if you like, fewer tools.",
  "subagents.newType": "New subagent type",
  "subagents.name": "Name",
  "subagents.description": "Description",
  "subagents.descriptionPlaceholder": "Looks things up on the web and reports what it found",
  "subagents.instructions": "Instructions",
  "subagents.tools": "Tools (comma-separated, empty for all)",
  "subagents.maxTurns": "Max turns",
  "subagents.default": "Default",
  "subagents.typeTimeout": "Time limit (seconds)",
  "subagents.asAbove": "As above",
  "subagents.removeType": template<{ name: string }>("Remove subagent type {{ name }}"),
  "subagents.remove": "Remove",
  "subagents.addType": "Add subagent type",
  "subagents.save": "Save subagents",

  // Settings → Sandbox.
  "sandbox.intro": "Where the agent's commands and the Terminal run. Each thread keeps its own files either way.",
  "sandbox.group": "Sandbox",
  "sandbox.browser": "Browser",
  "sandbox.browserText": template<{ name: string }>("{{ name }} — bash tools and Python in this tab. Works offline."),
  "sandbox.webcontainerText": template<{ name: string }>(
    "{{ name }} — Node.js and npm, from StackBlitz. Needs a connection; commercial use needs StackBlitz's licence.",
  ),
  "sandbox.notIsolated":
    "WebContainer needs a cross-origin isolated page, and this one is not. Reload once Fawn is installed or its service worker is active, or serve Fawn with COOP/COEP headers.",
  "sandbox.starting": "Starting WebContainer… (up to 30 s)",
  "sandbox.running": "WebContainer is running.",

  // Settings → Web.
  "web.search.off": "The agent has no web_search. It can still read pages you give it with web_fetch.",
  "web.search.tavily": "Needs an API key from tavily.com. Answers this browser directly.",
  "web.search.brave":
    "Needs an API key from brave.com/search/api. Brave refuses browser requests: set the Proxy URL below.",
  "web.search.searxng":
    "Your own SearXNG instance, with the json format enabled in its settings.yml. Without CORS headers on the instance, set the Proxy URL below.",
  "web.search.jina": "Needs an API key from jina.ai. Answers this browser directly.",
  "web.fetch.jina":
    "Jina's reader works without a key at a low rate limit; a key raises it. The pages are read on Jina's side.",
  "web.fetch.direct":
    "Pages are read from this browser. Most sites refuse browser requests, so set the Proxy URL below.",
  "web.intro":
    "The agent's web_search and web_fetch tools call these services with your own keys. Keys stay in this browser and are sent only to their service (or through your proxy).",
  "web.searchProvider": "Search provider",
  "web.off": "Off",
  "web.searchKey": "Search API key",
  "web.searchBaseUrl": "Search base URL",
  "web.publicService": "Leave empty for the public service.",
  "web.fetchProvider": "Fetch provider",
  "web.fetchKey": "Fetch API key",
  "web.optional": "Optional",
  "web.fetchBaseUrl": "Fetch base URL",
  "web.proxyUrl": "Proxy URL",
  "web.proxyHint": template<{ command: string }>(
    "Fawn's optional proxy ({{ command }}) for services and pages that refuse browser requests. Services that answer browsers are always called directly.",
  ),
};

/** The English dictionary's type: every key, and the template arguments each takes. */
export type Dictionary = typeof en;

export type MessageKey = keyof Dictionary;

/** Another language's dictionary: every key, as plain text with the same {{ placeholders }} as the English. */
export type Translation = { readonly [K in MessageKey]: string };
