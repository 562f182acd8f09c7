// What an interpreter snapshot depends on, shared by the two places that make one: the build, in Node
// (scripts/python-snapshot.ts, shipped under pyodide/), and the browser's python worker (workers/python.worker.ts), which
// makes one only when it got none. Both load Pyodide with these options and set it up with PythonCore, so a snapshot
// from either starts the same interpreter.

/**
 * The environment Python starts with. Emscripten's defaults depend on where it runs (LANG follows the browser's
 * language, `_` is the Node script that made the snapshot); these are the same everywhere, and what a python:3
 * container says.
 */
export const PYODIDE_ENV: Readonly<Record<string, string>> = { LANG: "C.UTF-8", _: "/usr/local/bin/python3" };

/**
 * Whether a snapshot's bytes are gzipped, as the build ships it. The browser may have inflated it already (a host that
 * sends it with `Content-Encoding: gzip`), and the page keeps it inflated: its first bytes say which.
 */
export function isGzippedSnapshot(bytes: ArrayBuffer): boolean {
  const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
  return head[0] === 0x1f && head[1] === 0x8b;
}
