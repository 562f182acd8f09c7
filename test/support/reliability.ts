// The reliability suites' shared recorder (docs/reliability.md, `npm run reliability`). Each suite runs a quick subset
// inside `npm test` and its full size when FAWN_RELIABILITY=full (scripts/reliability.ts sets it). Every case a suite
// runs is appended as one JSON line to reports/reliability/<suite>.jsonl; scripts/reliability.ts sums the lines into
// docs/reliability.md: cases run, survived, lost, the longest recovery. Node only (vitest and Playwright's runner).
import { appendFileSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";

/** The suites docs/reliability.md reports, in its order. */
export const RELIABILITY_SUITES = {
  "crash-browser": "Crash in the browser: renderer crash, tab closed, worker terminated mid-run",
  "crash-server": "Crash on the server: a replica SIGKILLed mid-run, Postgres restarted mid-run",
  "model-faults": "Faults from the model: errors, cut and stalled streams, malformed and oversized replies",
  "wire-formats": "Real providers' wire formats: recorded streams replayed through Fawn's providers",
  storage: "Storage: a real quota, persistence denied, an upgrade with two live tabs, a cut-off backup import",
  "fuzz-uploads": "Fuzz: damaged uploads (PDF, DOCX, XLSX, PPTX) and a conversion that hangs",
  "fuzz-skills": "Fuzz: skill archives",
  "fuzz-deerflow": "Fuzz: DeerFlow thread imports",
  "fuzz-share-links": "Fuzz: share links",
  "fuzz-server-requests": "Fuzz: requests to Fawn's server",
  tabs: "Tabs: three tabs acting at random on the same threads",
} as const;

export type ReliabilitySuite = keyof typeof RELIABILITY_SUITES;

/** True under `npm run reliability`: run each suite at its full size. */
export const FULL_RELIABILITY = process.env.FAWN_RELIABILITY === "full";

/** How many cases to run: `quick` inside `npm test`, `full` under `npm run reliability`. */
export function reliabilityCases(quick: number, full: number): number {
  return FULL_RELIABILITY ? full : quick;
}

export interface ReliabilityCase {
  /** What this case did, short and reproducible (seed, cut point, fault): "seed 7, renderer crash after 2 tool calls". */
  case: string;
  /** The user's data and the app came through: nothing lost, nothing half-written shown, the turn can finish. */
  survived: boolean;
  /** Items lost (messages, files, records); the goal is 0. A case that lost something has survived: false. */
  lost: number;
  /** From the fault to the user being able to go on (reopened and usable, retried, refused with its sentence), ms. */
  recoveryMs?: number;
  /** What went wrong when it did not survive, or a short remark. */
  detail?: string;
}

/** Appends one case to reports/reliability/<suite>.jsonl (safe from parallel workers: one small append each). */
export function recordCase(suite: ReliabilitySuite, record: ReliabilityCase): void {
  const dir = resolve(process.env.FAWN_RELIABILITY_DIR ?? "reports/reliability");
  mkdirSync(dir, { recursive: true });
  appendFileSync(resolve(dir, `${suite}.jsonl`), `${JSON.stringify(record)}\n`);
}

/** A small seeded generator (mulberry32), so a case's random cut point can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The first seed of a run: FAWN_RELIABILITY_SEED to replay one, else a fixed one in `npm test` (steady) and the clock's under `npm run reliability`. */
export function firstSeed(): number {
  const chosen = Number(process.env.FAWN_RELIABILITY_SEED);
  if (Number.isInteger(chosen) && chosen > 0) return chosen;
  return FULL_RELIABILITY ? Date.now() % 1_000_000 : 33;
}
