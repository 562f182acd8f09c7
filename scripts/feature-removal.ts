// `npm run test:feature-removal`: the check that Fawn's tests can fail. Each row below removes one feature a user
// relies on (one small edit to the product code), runs the tests that claim to cover it, and expects them to fail;
// the edit is undone whatever happens. A row whose tests still pass names a test that cannot fail: the run fails.
// Not part of `npm test` (each row is a vitest run); run it after changing a feature or its tests. Needs a clean
// copy of each edited file (it refuses to touch a file with uncommitted changes). Results: reports/feature-removal.json.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

interface Removal {
  /** The feature as a user would name it. */
  feature: string;
  file: string;
  /** Each text removed or changed (it must occur exactly once in `file`) with what replaces it. */
  edits: [find: string, replace: string][];
  /** The tests that must now fail. */
  tests: string[];
  config?: "server";
}

const REMOVALS: Removal[] = [
  {
    feature: "a tool an agent's guardrail denies is refused when called anyway",
    file: "src/agent/middlewares/guardrail.ts",
    edits: [["if (isAllowed(name)) return handler(request);", "return handler(request);"]],
    tests: ["src/agent/middlewares/guardrail.test.ts"],
  },
  {
    feature: "an archive member that climbs out with .. is refused",
    file: "src/shared/zip-safety.ts",
    edits: [
      ['name.split("/").some((segment) => segment === "..")', "false"],
      ['segments.includes("..")', "false"],
    ],
    tests: ["src/agent/skills/skill-archive.test.ts", "src/bundles/backup-archive.test.ts"],
  },
  {
    feature: "a rate-limited or overloaded model call is retried",
    file: "src/agent/middlewares/model-retry.ts",
    edits: [["if (!isRetryableModelError(error)) return false;", "return false;"]],
    tests: ["src/agent/middlewares/model-retry.test.ts", "test/integration/model-retry.test.ts"],
  },
  {
    feature: "an API key echoed in a model error is redacted before the step is stored",
    file: "src/gateway/error-redaction.ts",
    edits: [["channel === ERROR ? redactedValue(value, redact) : value", "value"]],
    tests: ["test/integration/key-redaction.test.ts"],
  },
  {
    feature: "a share link over its size limit is refused",
    file: "src/bundles/share-link.ts",
    edits: [["if (data.length > SHARE_LINK_MAX_CHARS) return", "if (data.length < 0) return"]],
    tests: ["src/bundles/share-link.test.ts", "test/integration/thread-share-link.test.ts"],
  },
  {
    feature: "one run per thread: a second run on a running thread is refused",
    file: "src/gateway/thread-locks.ts",
    edits: [["if (heldHere.has(name)) return undefined;", ""]],
    tests: ["test/integration/thread-delete-lock.test.ts", "src/gateway/http/artifact-routes.test.ts"],
  },
  {
    feature: "a tool call left without its result (a cut-off run) gets one before the next model call",
    file: "src/agent/middlewares/dangling-tool-calls.ts",
    edits: [["if (call.id === undefined) continue;", "continue;"]],
    tests: ["src/agent/middlewares/dangling-tool-calls.test.ts"],
  },
  {
    feature: "a model repeating the same tool call is stopped",
    file: "src/agent/middlewares/loop-detection.ts",
    edits: [["repeats >= limits.hardRepeats", "repeats >= Infinity"]],
    tests: ["src/agent/middlewares/loop-detection.test.ts"],
  },
  {
    feature: "Markdown the model writes is sanitized before it is shown",
    file: "src/ui/markdown/markdown-sanitize.ts",
    edits: [["  purifier.sanitize(holder);\n", ""]],
    tests: ["src/ui/markdown/markdown-sanitize.test.ts", "src/ui/markdown/markdown.test.ts"],
  },
  {
    feature: "a server refuses a token no user holds",
    file: "server/http/auth.ts",
    edits: [
      [
        'if (!user) return problem(401, "This token is not valid on this server.", challenge);',
        "if (!user) return next();",
      ],
    ],
    tests: ["test/server/bad-input.test.ts"],
    config: "server",
  },
  {
    feature: "each model answer's token usage is counted",
    file: "src/agent/middlewares/token-usage.ts",
    edits: [
      [
        "message.usage_metadata === undefined) return undefined;",
        "message.usage_metadata === undefined || true) return undefined;",
      ],
    ],
    tests: ["src/agent/middlewares/token-usage.test.ts"],
  },
  {
    feature: "a model stream that ends before it says it is done is a cut reply, not a whole one",
    file: "src/models/stall-guard.ts",
    edits: [
      [
        'if (path.endsWith("/chat/completions")) return /"finish_reason"\\s*:\\s*"|data: ?\\[DONE\\]/;',
        'if (path.endsWith("/chat/completions")) return /./;',
      ],
    ],
    tests: ["src/models/stall-guard.test.ts"],
  },
  {
    feature: "an MCP server asking again for more access after 3 sign-ins is refused for good",
    file: "src/mcp/oauth-provider.ts",
    edits: [["if ((scopes.stepUps ?? 0) >= MCP_SCOPE_STEP_UP_LIMIT) return", "if ((scopes.stepUps ?? 0) < 0) return"]],
    tests: ["src/mcp/oauth-provider.test.ts"],
  },
  {
    feature: "a full storage mid-run ends the run instead of handing the model an empty tool error",
    file: "src/agent/middlewares/tool-errors.ts",
    edits: [
      [
        "isCancellation(error, request.runtime.signal) || isQuotaError(error)",
        "isCancellation(error, request.runtime.signal)",
      ],
    ],
    tests: ["src/agent/middlewares/tool-errors.test.ts"],
  },
  {
    feature: "a tab keeps the newest read of its open thread when two reloads answer out of order",
    file: "src/ui/state/open-thread.ts",
    edits: [["if (begun === changes && thread()", "if (thread()"]],
    tests: ["src/ui/state/open-thread.test.ts"],
  },
];

function clean(file: string): boolean {
  const status = spawnSync("git", ["status", "--porcelain", "--", file], { encoding: "utf8" });
  return status.status === 0 && status.stdout.trim() === "";
}

interface Result {
  feature: string;
  file: string;
  caught: boolean;
  detail: string;
}

const only = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const results: Result[] = [];
for (const removal of REMOVALS) {
  if (only.length && !only.some((word) => removal.file.includes(word))) continue;
  if (!clean(removal.file)) throw new Error(`${removal.file} has uncommitted changes: commit or set them aside first.`);
  const original = readFileSync(removal.file, "utf8");
  let changed = original;
  for (const [find, replace] of removal.edits) {
    const count = changed.split(find).length - 1;
    if (count !== 1) throw new Error(`${removal.file}: ${JSON.stringify(find)} occurs ${count} times, not once.`);
    changed = changed.replace(find, replace);
  }
  writeFileSync(removal.file, changed);
  try {
    const config = removal.config === "server" ? ["--config", "vitest.server.config.ts"] : [];
    const run = spawnSync("npx", ["vitest", "run", ...config, "--reporter=dot", ...removal.tests], {
      encoding: "utf8",
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    // eslint-disable-next-line no-control-regex
    const plain = run.stdout.replace(/\u001b\[[0-9;]*m/g, "");
    const summary = /Tests\s+(.*)/.exec(plain)?.[1]?.trim() ?? `exit ${run.status}`;
    const caught = run.status !== 0 && /failed/.test(summary);
    results.push({ feature: removal.feature, file: removal.file, caught, detail: summary });
    console.log(`${caught ? "caught " : "MISSED "} ${removal.feature} (${removal.file}): ${summary}`);
  } finally {
    writeFileSync(removal.file, original);
  }
}
mkdirSync("reports", { recursive: true });
writeFileSync("reports/feature-removal.json", JSON.stringify(results, null, 2));
const missed = results.filter((result) => !result.caught);
console.log(`feature removal: ${results.length - missed.length} of ${results.length} removals caught by their tests`);
process.exit(missed.length ? 1 : 0);
