// Writes one benchmark's section into docs/performance.md in place, as scripts/bench.ts renders every section, for a
// benchmark run alone (`npm run bench:server`) while the other sections' results are not at hand: the section named
// `result.name` is replaced, or added before the list of failed benchmarks (or at the end).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markdownTable, type BenchResult } from "./report.ts";

const DOC = join(process.cwd(), "docs", "performance.md");
const FAILED_HEADING = "## Benchmarks that failed in this run";

/** The section as scripts/bench.ts writes it (this result has no goals). */
function section(result: BenchResult): string {
  const lines = [`<a id="${result.name}"></a>`, "", `## ${result.title}`, "", `Run alone: \`${result.command}\`.`, ""];
  lines.push(result.about, "");
  for (const table of result.tables) lines.push(markdownTable(table), "");
  if (result.notes?.length) lines.push(...result.notes.map((note) => `- ${note}`), "");
  return lines.join("\n");
}

export function writeSectionIntoPage(result: BenchResult): void {
  const page = readFileSync(DOC, "utf8");
  const anchor = `<a id="${result.name}"></a>`;
  const text = section(result);
  let next: string;
  const at = page.indexOf(anchor);
  if (at >= 0) {
    // Up to the next section's anchor or the failures' list, whichever comes first.
    const ends = [page.indexOf('<a id="', at + anchor.length), page.indexOf(FAILED_HEADING, at)].filter((i) => i > 0);
    const end = ends.length > 0 ? Math.min(...ends) : page.length;
    next = `${page.slice(0, at)}${text}\n${page.slice(end)}`;
  } else {
    const failed = page.indexOf(FAILED_HEADING);
    next = failed >= 0 ? `${page.slice(0, failed)}${text}\n${page.slice(failed)}` : `${page.trimEnd()}\n\n${text}`;
  }
  writeFileSync(DOC, `${next.trimEnd()}\n`);
  execFileSync(join("node_modules", ".bin", "prettier"), ["--write", DOC], { stdio: "ignore" });
  console.log(`\nWrote the "${result.title}" section into ${DOC}.`);
}
