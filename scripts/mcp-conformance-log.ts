// What scripts/mcp-conformance.ts reads from the conformance runner's printed log besides checks.json: the baseline
// entries the runner itself calls stale (scenarios listed as expected failures that passed).

/**
 * The scenarios the runner found passing though the baseline expects them to fail: it lists them under "Stale baseline
 * entries" and ends with "Baseline is stale" (its exit code is then 1, as for an unexpected failure).
 */
export function staleEntries(log: string): string[] {
  // Without the colour codes (ESC [ … m); the lint rule forbids ESC in a regular expression.
  const plain = log.replaceAll(`${String.fromCharCode(27)}[`, "\u241B").replace(/\u241B[0-9;]*m/g, "");
  const section = /Stale baseline entries[^\n]*\n((?:[ \t]+✓ \S+\n?)+)/u.exec(plain);
  const named = section?.[1] ? [...section[1].matchAll(/✓ (\S+)/gu)].map((match) => match[1] ?? "") : [];
  if (named.length === 0 && plain.includes("Baseline is stale")) return ["(the runner named none)"];
  return named;
}
