// Remote content (pages, search snippets, a service's error text) must not be able to speak in the framework's own
// tags: an opening or closing tag with one of those names is escaped, so the model reads it as text.

/** Tag names Fawn and DeerFlow use to frame context for the model (system prompt sections and injected reminders). */
const FRAMEWORK_TAG_NAMES = [
  "system[-_a-z]*",
  "memory",
  "uploaded_files",
  "current_uploads",
  "(?:slash_)?skill_activation",
  "skill_content",
  "user_request",
  "current_memory",
  "conversation",
  "skill_system",
  "available_skills",
  "disabled_skills",
  "subagent_system",
  "working_directory",
  "citations",
  "soul",
  "role",
  "trust",
  "thinking_style",
  "clarification(?:_system)?",
  "response_style",
  "(?:critical_)?reminders",
];

const FRAMEWORK_TAG = new RegExp(`<\\s*(/?)\\s*(${FRAMEWORK_TAG_NAMES.join("|")})\\b([^<>]*)>`, "gi");

/** `text` with every framework tag (e.g. `<system-reminder>`, `</memory>`) written as `&lt;…&gt;`. */
export function neutralizeFrameworkTags(text: string): string {
  return text.replace(
    FRAMEWORK_TAG,
    (_whole, slash: string, name: string, rest: string) => `&lt;${slash}${name}${rest}&gt;`,
  );
}
