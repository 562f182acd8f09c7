// What installing costs: the service worker's precache, downloaded on a first visit before Fawn works offline (the
// install download), and the lazy groups left out of it (diagrams, PDF reading, Python), cached on first use or in
// idle time after a visit. Sizes of the built app in dist/, read from its service worker's manifest: each file gzipped
// at level 9 (as `npm run size` counts it and a host that compresses sends it) and as built. The anchor is the app
// before this round (BENCH_BASE_DIST, which precached everything), else the figure recorded below. Needs a build.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST } from "../scripts/dist-graph.ts";
import { precacheSizes, type PrecacheSizes } from "../scripts/precache-groups.ts";
import { LAZY_GROUPS } from "../src/protocol/lazy-parts.ts";
import { saveBenchResult, type BenchGoal } from "./report.ts";

const budgets = JSON.parse(readFileSync(join(process.cwd(), "size-budgets.json"), "utf8")) as Record<string, number>;
const PRECACHE_GOAL = budgets.precache ?? 0;
/** The app before this round (commit 9f9d383), measured with this script: every file precached. */
const RECORDED_BASE = { commit: "9f9d383", files: 243, gzip: 10_626_377, raw: 28_065_330 };

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(2)} MB`;

const now = precacheSizes(DIST);
const baseDist = process.env.BENCH_BASE_DIST;
let base: PrecacheSizes["precache"] & { label: string };
if (baseDist) {
  base = { ...precacheSizes(baseDist).precache, label: `${process.env.BENCH_BASE_COMMIT ?? "base"}, same run` };
} else {
  base = { ...RECORDED_BASE, label: `${RECORDED_BASE.commit}, recorded` };
}
const lazyTotal = LAZY_GROUPS.reduce(
  (sum, group) => ({ gzip: sum.gzip + now.lazy[group].gzip, raw: sum.raw + now.lazy[group].raw }),
  { gzip: 0, raw: 0 },
);
console.log(JSON.stringify({ now, base }, null, 2));

const goals: BenchGoal[] = [
  {
    measure: "the install download (the service worker's precache), gzip",
    goal: `≤ ${kb(PRECACHE_GOAL)} (size-budgets.json)`,
    figure: `${kb(now.precache.gzip)} (${now.precache.files} files)`,
    anchor: `${kb(base.gzip)} (${base.files} files; ${base.label})`,
    met: now.precache.gzip <= PRECACHE_GOAL,
  },
];
const DESCRIPTIONS: Record<(typeof LAZY_GROUPS)[number], string> = {
  diagrams: "diagrams (mermaid, its chunks, css-tree)",
  pdf: "PDF reading (pdfjs-dist and its worker)",
  python: "Python (everything under pyodide/)",
  "on-device": "the on-device model runtime (wllama; cached on first use only)",
};
saveBenchResult({
  name: "install",
  title: "What installing costs",
  command: "npm run bench -- --only install",
  about: [
    "A first visit installs the service worker, which downloads its precache before Fawn works offline: that is the",
    "install download. Parts most users never need are left out of it (scripts/precache-groups.ts finds their files",
    "in the build) and cached by the service worker on first use, and all at once when the page, idle after a visit",
    "(3 s after its load, online, no Save-Data, not a cellular or 2G connection), asks for them. The sizes are the",
    "service worker manifest's files in dist/, gzipped at level 9 (what `npm run size` counts, and about what a host",
    "that compresses sends) and as built. The anchor is the app before this round, which precached everything.",
  ].join("\n"),
  goals,
  tables: [
    {
      title: "The install download and the lazy groups",
      columns: ["part", "files", "gzip", "as built"],
      rows: [
        ["install download (precache)", now.precache.files, kb(now.precache.gzip), mb(now.precache.raw)],
        ...LAZY_GROUPS.map((group) => [
          `lazy: ${DESCRIPTIONS[group]}`,
          now.lazy[group].files,
          kb(now.lazy[group].gzip),
          mb(now.lazy[group].raw),
        ]),
        ["lazy groups together", "", kb(lazyTotal.gzip), mb(lazyTotal.raw)],
        [`before this round (${base.label}): all precached`, base.files, kb(base.gzip), mb(base.raw)],
      ],
    },
  ],
  notes: [
    "Each lazy group works offline once used (its files are cached as they are fetched) or once the idle-time caching has finished; a new build's service worker drops the lazy files its manifest no longer lists, so a changed file is fetched again.",
    "Sizes only: nothing here is timed. The idle-time download itself (the lazy groups, above) happens after the first screen and the agent worker, in the service worker, two files at a time.",
  ],
});
