// Lint: TypeScript rules, the layer rules of docs/architecture.md#layers (each with the fix in its message) and no
// import cycles.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/** Layers under src/ and the layers each may import (docs/architecture.md#layers). */
const LAYERS = {
  shared: [],
  protocol: ["shared"],
  storage: ["protocol", "shared"],
  sandbox: ["storage", "protocol", "shared"],
  models: ["protocol", "shared"],
  mcp: ["models", "protocol", "shared"],
  agent: ["sandbox", "storage", "models", "mcp", "protocol", "shared"],
  bundles: ["storage", "protocol", "shared"],
  gateway: ["agent", "bundles", "mcp", "models", "sandbox", "storage", "protocol", "shared"],
  ui: ["protocol", "shared"],
};

/**
 * What the page may take from sandbox/ (relative to it): it hosts the WebContainer and the walled-off Python workers
 * (docs/architecture.md#where-code-runs), which only a page can start; thread-file-store.ts is the store's interface and in-memory twin.
 */
const PAGE_SANDBOX = ["./webcontainer", "./sandbox.ts", "./thread-file-store.ts", "./python/page"];

const layerZones = Object.entries(LAYERS).flatMap(([layer, allowed]) =>
  Object.keys(LAYERS)
    .filter((other) => other !== layer && !allowed.includes(other))
    .map((other) => ({
      target: `./src/${layer}`,
      from: `./src/${other}`,
      ...(layer === "ui" && other === "sandbox" && { except: PAGE_SANDBOX }),
      message:
        layer === "ui"
          ? "ui/ imports only protocol/ and shared/ (and sandbox/webcontainer/, sandbox/python/page/, sandbox/sandbox.ts and sandbox/thread-file-store.ts, for the page's WebContainer and Python hosts): reach the worker through the gateway client (ui/gateway-client.ts)."
          : `${layer}/ may import only ${allowed.join(", ") || "nothing in src/"} (docs/architecture.md#layers); move the shared piece down a layer or call it from gateway/.`,
    })),
);

/** Layers with a front: outside the layer, code imports only its index.ts (docs/architecture.md#layers). */
const FRONTED = ["agent", "bundles", "gateway", "mcp", "models", "protocol", "storage"];

/**
 * Files that import one module past a layer's front, each for a reason: the sandbox worker mounts skills through
 * agent/skills/ and must not take all of protocol/ with it; the OAuth callback page is an entry of its own, kept small;
 * the agent (its subagents too) and mcp-service take MCP's pure helpers without the MCP client, which mcp-service loads on first use (a
 * chunk of its own). Tests and workers/ (entry points, kept small) may reach inside.
 */
const PAST_FRONT_ALLOWED = [
  "./src/agent/skills/skill-archive.ts",
  "./src/agent/skills/skill-mount.ts",
  "./src/agent/skills/skills-prompt.ts",
  "./src/agent/skills/slash-skill.ts",
  "./src/agent/lead-agent.ts",
  "./src/agent/subagents/subagent-runner.ts",
  "./src/agent/subagents/task-tool.ts",
  "./src/agent/middlewares/mcp-images.ts",
  "./src/agent/middlewares/outbound-approval.ts",
  "./src/ui/oauth-callback.ts",
  "./src/gateway/mcp-service.ts",
];

/** Non-test source of `layer`, the files the front rule applies to. */
const sourceOf = (layer) => `./src/${layer}/**/!(*.test).{ts,tsx}`;

const frontZones = FRONTED.map((layer) => ({
  target: Object.keys(LAYERS)
    .filter((other) => other !== layer)
    .map(sourceOf),
  from: `./src/${layer}`,
  except: ["./index.ts"],
  message: `Outside ${layer}/, import its front, ${layer}/index.ts (docs/architecture.md#layers): export what you need there.`,
}));

/** The other import rules: where page code may not reach, entry points, standalone code, the UI's stores. */
const otherZones = [
  {
    // The WebContainer's code and the shared pieces it takes from sandbox/ (its server among them).
    target: [
      "./src/sandbox/webcontainer",
      "./src/sandbox/sandbox.ts",
      "./src/sandbox/sandbox-base.ts",
      "./src/sandbox/sandbox-support.ts",
      "./src/sandbox/sandbox-server.ts",
      "./src/sandbox/thread-file-store.ts",
      "./src/sandbox/file-search.ts",
    ],
    from: "./src/storage",
    message:
      "sandbox/webcontainer/ and the sandbox pieces it uses run on the page, which never opens IndexedDB: take the thread's files through the ThreadFileStore (sandbox/thread-file-store.ts) the agent worker passes in.",
  },
  {
    target: "./src",
    from: "./workers",
    // The Python frame host takes the python worker's built URL (`?worker&url`), not its code.
    except: ["./python.worker.ts"],
    message: "workers/ are entry points: nothing imports them.",
  },
  {
    target: "./proxy",
    from: "./src",
    message: "proxy/ is standalone Node code and imports nothing from src/.",
  },
  {
    // The server (docs/architecture.md#d12-server) runs src/ on Node; nothing the browser loads may take it along.
    target: ["./src", "./workers"],
    from: "./server",
    message: "src/ and workers/ reach the browser: they never import server/ (Node only, with its database drivers).",
  },
  ...FRONTED.map((layer) => ({
    target: "./server",
    from: `./src/${layer}`,
    except: ["./index.ts"],
    message: `server/ takes ${layer}/ through its front, ${layer}/index.ts (docs/architecture.md#layers).`,
  })),
  {
    target: "./server",
    from: ["./src/ui", "./workers"],
    message: "server/ never takes the page's ui/ or the browser's workers/.",
  },
  {
    // The stores every feature takes (useRuns(), useOpenThread()…): the arrows run from features to state.
    target: "./src/ui/state",
    from: [
      "./src/ui/artifacts",
      "./src/ui/composer",
      "./src/ui/conversation",
      "./src/ui/markdown",
      "./src/ui/replay",
      "./src/ui/settings",
      "./src/ui/terminal",
      "./src/ui/threads",
      "./src/ui/workspace",
    ],
    message:
      "ui/state/ holds the stores the feature folders use, so it imports none of them: move the piece into the store or into ui/shared/.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "dist-base/",
      "dist-*/",
      "reports/",
      "reports-*/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "docs/",
      "test/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: {
      // Lets import-x parse the TypeScript files it follows; without it no-cycle sees no dependencies.
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["tsconfig.app.json", "tsconfig.worker.json", "tsconfig.node.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [...layerZones, ...frontZones, ...otherZones],
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/**", "workers/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*"],
              message: "src/ and workers/ run in browsers: no node: modules (docs/architecture.md#layers).",
            },
          ],
        },
      ],
    },
  },
  {
    // Solid assigns `ref` variables through JSX, which this rule cannot see.
    files: ["**/*.tsx"],
    rules: { "no-unassigned-vars": "off" },
  },
  {
    files: ["src/ui/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*"], message: "The UI runs in the browser: no node: modules." },
            {
              group: ["langchain", "langchain/*", "@langchain/*", "idb"],
              message:
                "The UI must stay light: LangChain and IndexedDB live in the agent worker; call the gateway client.",
            },
          ],
        },
      ],
    },
  },
  {
    // The files listed in PAST_FRONT_ALLOWED keep every import rule but the front rule.
    files: PAST_FRONT_ALLOWED.map((file) => file.slice(2)),
    rules: { "import-x/no-restricted-paths": ["error", { zones: [...layerZones, ...otherZones] }] },
  },
);
