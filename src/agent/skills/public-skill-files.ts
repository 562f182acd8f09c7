// The files of the skills shipped with Fawn (the repository's skills/public/), bundled as text at build time. Kept
// apart from public-skills.ts so the sandbox worker can mount them without the YAML parser.
/// <reference types="vite/client" />

const GLOB_PREFIX = "../../../skills/public/";

const bundled = import.meta.glob<string>("../../../skills/public/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every shipped skill file as text, by `"<dir>/<path>"` (e.g. `"data-analysis/scripts/table_tool.py"`). */
export const PUBLIC_SKILL_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(bundled)
    .filter(([path]) => path.startsWith(GLOB_PREFIX))
    .map(([path, text]) => [path.slice(GLOB_PREFIX.length), text]),
);

/** The shipped files grouped by skill folder (a shipped skill's folder is its name), each by path inside it. */
export function publicSkillFilesByDir(): Map<string, Record<string, string>> {
  const byDir = new Map<string, Record<string, string>>();
  for (const [key, text] of Object.entries(PUBLIC_SKILL_FILES)) {
    const slash = key.indexOf("/");
    if (slash <= 0) continue;
    const dir = key.slice(0, slash);
    const files = byDir.get(dir) ?? {};
    files[key.slice(slash + 1)] = text;
    byDir.set(dir, files);
  }
  return byDir;
}
