// The English dictionary, part: Settings → Appearance, Data, Memory, Skills, Subagents and Sandbox, the fields
// they share and Settings' unsaved-edits prompt. Not in the first screen's English (en.ts): the Settings dialog's
// chunk imports it, and it adds itself to the English dictionary as it loads (index.ts `addEnglish`).
import { template } from "@solid-primitives/i18n";
import { addEnglish } from "./index.ts";

export const enSettings = {
  // Appearance (appearance-tab.tsx).
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
  "appearance.imageHosts": "Images from the web",
  "appearance.imageHostsHint":
    "A picture from another site in a reply waits for Load image. Images from these sites show at once (chosen with Always):",
  "appearance.imageHostsNone": "None: every picture from the web waits for a click.",
  "appearance.imageHostRemove": template<{ host: string }>("Ask again before showing images from {{ host }}"),
  "appearance.imageHostRemoveShort": "Ask again",

  // Settings fields (settings/fields/text-field.tsx).
  "field.showKey": "Show key",
  "field.hideKey": "Hide key",

  // Settings → Data (data-tab.tsx).
  "data.preparing": "Preparing the backup…",
  "data.saved": template<{ file: string; size: string }>("Saved {{ file }} ({{ size }})."),
  "data.exportFailed": "The backup could not be made:",
  "data.checking": template<{ file: string }>("Checking {{ file }}…"),
  "data.importFailed": template<{ file: string }>("{{ file }} was not imported, and nothing was changed:"),
  "data.deleting": "Deleting…",
  "data.deleted": "All data was deleted from this browser.",
  "data.deleteFailed": "Nothing was deleted:",
  "data.noReport": "This browser does not report its storage use.",
  "data.storageUsed": "Storage used",
  "data.usage": template<{ used: string; quota: string }>(
    "Fawn uses {{ used }} of the {{ quota }} this browser allows it.",
  ),
  "data.persistent": "Storage is persistent: the browser will not clear your threads to free space.",
  "data.notPersistent": "Storage is not persistent yet: under storage pressure the browser may clear it.",
  "data.keep": "Keep my data",
  "data.backup": "Backup",
  "data.backupHint":
    "One .zip with every thread and its files, the memory, installed skills and settings. API keys are never in it: after an import, enter them again in Models. Importing keeps what is already here and adds the rest.",
  "data.export": "Export all data",
  "data.import": "Import data",
  "data.importFile": "Backup file to import",
  "data.deleteAll": "Delete all data",
  "data.confirmGroup": "Confirm deleting all data",
  "data.confirm": template<{ threads: string; facts: string; skills: string }>(
    "This deletes {{ threads }} with their files, {{ facts }}, {{ skills }}, all settings and your API keys from this browser. It cannot be undone: export a backup first if you may want them back.",
  ),
  "data.threads.one": template<{ count: string }>("{{ count }} thread"),
  "data.threads.other": template<{ count: string }>("{{ count }} threads"),
  "data.facts.one": template<{ count: string }>("{{ count }} memory fact"),
  "data.facts.other": template<{ count: string }>("{{ count }} memory facts"),
  "data.skills.one": template<{ count: string }>("{{ count }} installed skill"),
  "data.skills.other": template<{ count: string }>("{{ count }} installed skills"),
  "data.deleteEverything": "Delete everything",
  "data.additionsTitle": "Confirm what the backup adds",
  "data.additionsIntro": "This backup adds what can act or send data. Nothing is imported until you confirm:",
  "data.additionsList": "What the backup adds",
  "data.additionsHint":
    "Requests, and the API keys you enter for them, will go to these addresses. MCP servers arrive switched off; " +
    "once on, their tools can act and send data. A skill's scripts run in the sandbox when the agent uses the skill. " +
    "Import only if you know and trust them.",
  "data.additionMcp": template<{ name: string }>("MCP server {{ name }}, switched off"),
  "data.additionMcpProxy": template<{ name: string }>("MCP server {{ name }}, switched off, through the proxy"),
  "data.additionSkill": template<{ name: string }>("Skill {{ name }} with scripts"),
  "data.addressEndpoint": template<{ name: string }>("Model endpoint {{ name }}"),
  "data.addressSearch": template<{ name: string }>("Web search ({{ name }})"),
  "data.addressFetch": template<{ name: string }>("Web fetch ({{ name }})"),
  "data.addressProxy": "Proxy URL",
  "data.importWithAdditions": "Import and add these",
  "data.importCancelled": "The backup was not imported; nothing was changed.",

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
  "subagents.error.seconds": "Write a whole number of seconds, from 10 to 7200.",
  "subagents.error.whole": "Write a whole number.",
  "subagents.error.name": "A subagent type needs a name, for example researcher.",
  "subagents.error.nameLong": template<{ count: string }>("A name is at most {{ count }} characters."),
  "subagents.error.nameForm":
    "The name must be hyphen-case: lowercase letters and digits joined by single hyphens, for example web-researcher.",
  "subagents.error.nameBuiltIn": template<{ name: string }>(
    "{{ name }} is a built-in subagent's name; choose another.",
  ),
  "subagents.error.nameTwice": template<{ name: string }>("Another subagent type is named {{ name }}."),
  "subagents.error.description": "Say in a line when the agent should pick this subagent.",
  "subagents.error.instructions": "Write the subagent's instructions: what it does and how it reports back.",
  "subagents.error.tooLong": template<{ count: string }>("This is longer than {{ count }} characters."),
  "subagents.error.wholeOrEmpty": "Write a whole number, or leave it empty for the default.",
  "subagents.error.secondsOrEmpty": "Write a whole number of seconds, or leave it empty for the limit above.",
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

  // Settings → Servers (servers/servers-tab.tsx); the check's sentences come from the worker as they are.
  "servers.intro":
    "Threads can run on a Fawn server or a DeerFlow deployment: connect it here, then pick it under Workspace. Its token stays in this browser, never in a backup.",
  "servers.none": "No servers yet.",
  "servers.url": "Server URL",
  "servers.token": "Access token",
  "servers.connect": "Connect",
  "servers.checking": "Checking the server…",
  "servers.urlMissing": "Enter the server's URL.",
  "servers.disconnect": "Disconnect",
  "servers.disconnected": template<{ name: string }>("Disconnected from {{ name }}. Its threads stay on the server."),
  "servers.kind.fawn": "Fawn server",
  "servers.kind.langgraph": "LangGraph server",
  "servers.kind.deerflow": "DeerFlow",
  "servers.offers": template<{ list: string }>("Offers {{ list }}."),
  "servers.lacks": template<{ list: string }>("Not there: {{ list }}."),
  "servers.feature.threads": "threads",
  "servers.feature.runs": "runs",
  "servers.feature.uploads": "uploads",
  "servers.feature.artifacts": "artifacts",
  "servers.feature.memory": "memory",
  "servers.feature.skills": "skills",

  // Settings closed with unsaved edits (settings/settings-dialog.tsx).
  "settings.unsavedTitle": "Unsaved changes",
  "settings.unsavedText": template<{ tabs: string }>("Changes in {{ tabs }} are not saved yet."),
  "settings.keepEditing": "Keep editing",
  "settings.discard": "Discard changes",

  // Follow-up suggestions (appearance-tab.tsx).
  "suggestions.setting": "Follow-up suggestions",
  "suggestions.settingHint":
    "After a reply, offer three questions to ask next. Each costs one small extra request to your model.",
};

// Only the Settings dialog's modules import this part: its texts join the English dictionary as their chunk loads.
addEnglish(enSettings);
