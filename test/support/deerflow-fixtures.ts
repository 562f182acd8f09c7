// DeerFlow's demo threads (test/fixtures/deerflow-threads, MIT): each a thread.json beside its user-data folder.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const DEERFLOW_FIXTURES = fileURLToPath(new URL("../fixtures/deerflow-threads", import.meta.url));

export interface DeerFlowFixture {
  /** The folder's name: DeerFlow's thread id. */
  id: string;
  dir: string;
  /** thread.json, parsed. */
  thread: {
    values: {
      title: string;
      messages: { id: string; type: string }[];
      artifacts?: string[];
      todos?: { content: string; status: string }[];
    };
  };
  /** The files under user-data, by their path in the folder (`user-data/outputs/…`). */
  files: { path: string; bytes: Uint8Array }[];
}

function filesUnder(root: string, dir: string): { path: string; bytes: Uint8Array }[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(root, full);
    return [{ path: relative(root, full).split(sep).join("/"), bytes: new Uint8Array(readFileSync(full)) }];
  });
}

/** Every demo thread, by folder name. */
export function deerFlowFixtures(): DeerFlowFixture[] {
  return readdirSync(DEERFLOW_FIXTURES)
    .filter((name) => statSync(join(DEERFLOW_FIXTURES, name)).isDirectory())
    .sort()
    .map((id) => deerFlowFixture(id));
}

export function deerFlowFixture(id: string): DeerFlowFixture {
  const dir = join(DEERFLOW_FIXTURES, id);
  return {
    id,
    dir,
    thread: JSON.parse(readFileSync(join(dir, "thread.json"), "utf8")) as DeerFlowFixture["thread"],
    files: filesUnder(dir, join(dir, "user-data")),
  };
}
