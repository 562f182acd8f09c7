// What a benchmark hands to `npm run bench`: its tables and goals as JSON in reports/bench/, which
// scripts/bench.ts renders into docs/performance.md. Numbers only; nothing here asserts a timing.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where each benchmark leaves its result; `npm test` removes `reports/`, `npm run bench` reads it. */
export const BENCH_RESULTS_DIR = join(process.cwd(), "reports", "bench");

/** One table of a benchmark: a header row and rows of cells (numbers are printed as given). */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

/** A goal from issue 21 (or a budget) with the figure this run measured beside it, and its anchor's where one ran. */
export interface BenchGoal {
  /** What is measured, e.g. "main-thread time per streamed token at 10,000 characters". */
  measure: string;
  /** The goal, e.g. "≤ 0.5 ms". */
  goal: string;
  /** Fawn's figure in this run, e.g. "0.21 ms". */
  figure: string;
  /** Whether the figure meets the goal; undefined when this run could not tell. */
  met: boolean | undefined;
  /** The anchor's figure measured in the same run, and which anchor (e.g. "2.4 ms (DeerFlow: re-parse every 50 ms)"). */
  anchor?: string;
}

/** Everything one benchmark reports. */
export interface BenchResult {
  /** File name in reports/bench and the section's anchor, e.g. "stream". */
  name: string;
  /** The section heading, e.g. "Streaming a reply". */
  title: string;
  /** The command that runs this benchmark alone, e.g. "npm run bench:stream". */
  command: string;
  /** What is measured, how and where (Markdown, one paragraph or a few). */
  about: string;
  goals: BenchGoal[];
  tables: BenchTable[];
  /** What the figures say (Markdown bullets, without the leading "- "). */
  notes?: string[];
}

/** Writes `result` to reports/bench/<name>.json and prints its tables, so a benchmark run alone still shows them. */
export function saveBenchResult(result: BenchResult): void {
  mkdirSync(BENCH_RESULTS_DIR, { recursive: true });
  writeFileSync(join(BENCH_RESULTS_DIR, `${result.name}.json`), JSON.stringify(result, null, 2));
  console.log(`\n${result.title}`);
  for (const goal of result.goals) {
    const verdict = goal.met === undefined ? "?" : goal.met ? "met" : "NOT MET";
    console.log(
      `  ${goal.measure}: ${goal.figure} (goal ${goal.goal}, ${verdict})${goal.anchor ? `; anchor ${goal.anchor}` : ""}`,
    );
  }
  for (const table of result.tables) console.log(`\n${markdownTable(table)}`);
}

/** A table as GitHub Markdown. */
export function markdownTable(table: BenchTable): string {
  const escape = (cell: string | number) => String(cell).replaceAll("|", "\\|");
  return [
    `**${table.title}**`,
    "",
    `| ${table.columns.map(escape).join(" | ")} |`,
    `| ${table.columns.map(() => "---").join(" | ")} |`,
    ...table.rows.map((row) => `| ${row.map(escape).join(" | ")} |`),
  ].join("\n");
}

/** Median of `values` (undefined when empty). */
export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
