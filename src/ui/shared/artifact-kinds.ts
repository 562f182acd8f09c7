// Which preview an artifact gets, decided from its file name (DeerFlow's extension map, trimmed to what Fawn renders),
// and the data previews show: text cut at 1 MiB, CSV/TSV rows, a skill archive's SKILL.md (libraries load on use).

/** Languages the code preview highlights; each has a lazily loaded highlight.js grammar. */
export const CODE_LANGUAGES = [
  "bash",
  "c",
  "cpp",
  "csharp",
  "css",
  "diff",
  "dockerfile",
  "go",
  "graphql",
  "ini",
  "java",
  "javascript",
  "json",
  "kotlin",
  "less",
  "lua",
  "makefile",
  "markdown",
  "perl",
  "php",
  "powershell",
  "python",
  "r",
  "ruby",
  "rust",
  "scss",
  "sql",
  "swift",
  "typescript",
  "xml",
  "yaml",
] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * How an artifact is previewed. `code` with no language is plain text; `source` is the language its source view
 * highlights as (Markdown and HTML can be shown rendered or as source).
 */
export type ArtifactKind =
  | { kind: "markdown"; source: CodeLanguage }
  | { kind: "html"; source: CodeLanguage }
  | { kind: "image"; mimeType: string }
  | { kind: "video"; mimeType: string }
  | { kind: "audio"; mimeType: string }
  | { kind: "code"; language: CodeLanguage | undefined }
  | { kind: "table"; delimiter: "," | "\t" }
  | { kind: "pdf" }
  | { kind: "skill" }
  | { kind: "none" };

/** Video the browser's own player shows (`.ogg` is taken as audio, its usual use). */
const VIDEO_TYPES: Readonly<Record<string, string>> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  ogv: "video/ogg",
  mov: "video/quicktime",
};

const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  flac: "audio/flac",
  weba: "audio/webm",
};

/** Text previews read at most this much of a file (DeerFlow previews a 1 MiB range). */
export const PREVIEW_MAX_BYTES = 1024 * 1024;
/** Tables show at most this many rows after the header. */
export const TABLE_MAX_ROWS = 500;
/** Longer text is shown without highlighting, which would block the page for too long. */
export const HIGHLIGHT_MAX_CHARS = 256 * 1024;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
  // Shown through <img>, where an SVG's scripts never run.
  svg: "image/svg+xml",
};

const CODE_EXTENSIONS: Readonly<Record<string, CodeLanguage | undefined>> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  pyw: "python",
  json: "json",
  jsonl: "json",
  ipynb: "json",
  geojson: "json",
  css: "css",
  scss: "scss",
  less: "less",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  yaml: "yaml",
  yml: "yaml",
  toml: "ini",
  ini: "ini",
  cfg: "ini",
  conf: "ini",
  env: "ini",
  xml: "xml",
  xsl: "xml",
  xsd: "xml",
  plist: "xml",
  vue: "xml",
  svelte: "xml",
  sql: "sql",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  cs: "csharp",
  rb: "ruby",
  php: "php",
  r: "r",
  lua: "lua",
  pl: "perl",
  pm: "perl",
  diff: "diff",
  patch: "diff",
  ps1: "powershell",
  graphql: "graphql",
  gql: "graphql",
  mk: "makefile",
  tex: undefined,
  txt: undefined,
  text: undefined,
  log: undefined,
  rst: undefined,
  srt: undefined,
};

/** Files known by their whole name rather than an extension. */
const CODE_NAMES: Readonly<Record<string, CodeLanguage>> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
};

/** The last segment of a virtual path. */
export function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The lower-case extension of a file name without its dot, or "" (a leading dot, as in `.env`, is not one). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/**
 * The preview for a file, from its name; `mimeType` (as stored with the file) only rescues files whose name says
 * nothing, such as a `README` that is text.
 */
export function artifactKind(path: string, mimeType = ""): ArtifactKind {
  const name = fileName(path).toLowerCase();
  const extension = extensionOf(name);
  if (extension === "md" || extension === "markdown" || extension === "mdx") {
    return { kind: "markdown", source: "markdown" };
  }
  if (extension === "html" || extension === "htm" || extension === "xhtml") return { kind: "html", source: "xml" };
  const image = IMAGE_TYPES[extension];
  if (image) return { kind: "image", mimeType: image };
  const video = VIDEO_TYPES[extension];
  if (video) return { kind: "video", mimeType: video };
  const audio = AUDIO_TYPES[extension];
  if (audio) return { kind: "audio", mimeType: audio };
  if (extension === "csv") return { kind: "table", delimiter: "," };
  if (extension === "tsv" || extension === "tab") return { kind: "table", delimiter: "\t" };
  if (extension === "pdf") return { kind: "pdf" };
  if (extension === "skill") return { kind: "skill" };
  if (extension in CODE_EXTENSIONS) return { kind: "code", language: CODE_EXTENSIONS[extension] };
  const named = CODE_NAMES[name] ?? CODE_NAMES[name.split(".")[0] ?? ""];
  if (named) return { kind: "code", language: named };
  if (/^text\//i.test(mimeType) || /^application\/(json|xml|javascript)\b/i.test(mimeType)) {
    return { kind: "code", language: undefined };
  }
  return { kind: "none" };
}

/**
 * The UTF-8 text of at most `maxBytes` of a file. A code point split by the cut is dropped rather than turned into
 * U+FFFD; `truncated` says whether bytes were left out.
 */
export function previewText(
  bytes: Uint8Array,
  maxBytes = PREVIEW_MAX_BYTES,
): { text: string; truncated: boolean; totalBytes: number } {
  const truncated = bytes.byteLength > maxBytes;
  const decoder = new TextDecoder("utf-8");
  const text = truncated ? decoder.decode(bytes.subarray(0, maxBytes), { stream: true }) : decoder.decode(bytes);
  return { text, truncated, totalBytes: bytes.byteLength };
}

/** A table as previewed: the first row is taken as the header, at most `maxRows` rows follow. */
export interface TablePreviewData {
  header: string[];
  rows: string[][];
  /** Rows after the header in the text, shown or not. */
  total: number;
  /** The widest row's cell count; shorter rows are padded with empty cells. */
  columns: number;
}

/** Parses CSV or TSV with Papa Parse (quoted cells, doubled quotes, newlines in cells); blank lines are skipped. */
export async function parseTable(
  text: string,
  delimiter: "," | "\t",
  maxRows = TABLE_MAX_ROWS,
): Promise<TablePreviewData> {
  // Papa Parse is CommonJS: its module.exports arrives as the default export.
  const { parse } = (await import("papaparse")).default;
  const { data } = parse<string[]>(text, { delimiter, skipEmptyLines: "greedy" });
  const [first = [], ...body] = data;
  const columns = Math.max(first.length, ...body.slice(0, maxRows).map((row) => row.length));
  const pad = (row: string[]) =>
    row.length >= columns ? row : [...row, ...Array<string>(columns - row.length).fill("")];
  return { header: pad(first), rows: body.slice(0, maxRows).map(pad), total: body.length, columns };
}

/**
 * The Markdown a `.skill` archive previews as: its SKILL.md (the one with the shortest path), the frontmatter shown
 * as a YAML code block; undefined when the archive has none. Rejects when the bytes are not a zip archive.
 */
export async function skillMarkdown(bytes: Uint8Array): Promise<string | undefined> {
  const { unzipSync, strFromU8 } = await import("fflate");
  const entries = unzipSync(bytes, {
    filter: (entry) => fileName(entry.name) === "SKILL.md" && entry.originalSize <= PREVIEW_MAX_BYTES,
  });
  const [first] = Object.keys(entries).sort((a, b) => a.length - b.length);
  const content = first === undefined ? undefined : entries[first];
  if (!content) return undefined;
  return strFromU8(content).replace(/^---\r?\n([\s\S]*?)\r?\n---\r?\n/, "```yaml\n$1\n```\n");
}
