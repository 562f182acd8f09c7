// The layer rules of docs/architecture.md#layers are enforced by lint: these cases must be refused (and the allowed
// ones pass).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe("layer rules", () => {
  it("refuses LangChain and IndexedDB in the UI", async () => {
    expect(
      await ruleIds("src/ui/x.ts", 'import { createAgent } from "langchain";\nexport const a = createAgent;\n'),
    ).toContain("no-restricted-imports");
    expect(await ruleIds("src/ui/x.ts", 'import { openDB } from "idb";\nexport const a = openDB;\n')).toContain(
      "no-restricted-imports",
    );
  });

  it("refuses a UI import of a worker-side layer", async () => {
    const code = 'import { Gateway } from "../gateway/index.ts";\nexport const a = Gateway;\n';
    expect(await ruleIds("src/ui/x.ts", code)).toContain("import-x/no-restricted-paths");
  });

  it("refuses an upward import, such as storage importing the agent", async () => {
    const code = 'import { createLeadAgent } from "../agent/index.ts";\nexport const a = createLeadAgent;\n';
    expect(await ruleIds("src/storage/x.ts", code)).toContain("import-x/no-restricted-paths");
  });

  it("refuses node: modules in browser code", async () => {
    expect(
      await ruleIds("src/shared/x.ts", 'import { readFile } from "node:fs";\nexport const a = readFile;\n'),
    ).toContain("no-restricted-imports");
  });

  it("lets the page host the WebContainer, and nothing else of the sandbox layer", async () => {
    const host =
      'import { bootWebContainer } from "../sandbox/webcontainer/webcontainer-host.ts";\nexport const a = bootWebContainer;\n';
    expect(await ruleIds("src/ui/x.ts", host)).toEqual([]);
    const paths = 'import { resolveSandboxPath } from "../sandbox/sandbox.ts";\nexport const a = resolveSandboxPath;\n';
    expect(await ruleIds("src/ui/x.ts", paths)).toEqual([]);
    const browser =
      'import { BrowserSandbox } from "../sandbox/browser/browser-sandbox.ts";\nexport const a = BrowserSandbox;\n';
    expect(await ruleIds("src/ui/x.ts", browser)).toContain("import-x/no-restricted-paths");
  });

  it("refuses IndexedDB storage in the WebContainer sandbox, which runs on the page", async () => {
    const code = 'import { ThreadFiles } from "../../storage/index.ts";\nexport const a = ThreadFiles;\n';
    expect(await ruleIds("src/sandbox/webcontainer/x.ts", code)).toContain("import-x/no-restricted-paths");
    expect(await ruleIds("src/sandbox/browser/x.ts", code)).toEqual([]);
    const base = 'import { ThreadFiles } from "../storage/index.ts";\nexport const a = ThreadFiles;\n';
    expect(await ruleIds("src/sandbox/sandbox-base.ts", base)).toContain("import-x/no-restricted-paths");
  });

  it("keeps the UI's stores from importing a feature folder, which imports them", async () => {
    const feature = 'import { Composer } from "../composer/composer.tsx";\nexport const a = Composer;\n';
    expect(await ruleIds("src/ui/state/x.ts", feature)).toContain("import-x/no-restricted-paths");
    const shared = 'import { download } from "../shared/download.ts";\nexport const a = download;\n';
    expect(await ruleIds("src/ui/state/x.ts", shared)).toEqual([]);
  });

  it("refuses an import past a layer's index.ts from outside the layer; inside it, and from tests, any file", async () => {
    const past = 'import { isQuotaError } from "../storage/storage-errors.ts";\nexport const a = isQuotaError;\n';
    expect(await ruleIds("src/gateway/x.ts", past)).toContain("import-x/no-restricted-paths");
    const front = 'import { isQuotaError } from "../storage/index.ts";\nexport const a = isQuotaError;\n';
    expect(await ruleIds("src/gateway/x.ts", front)).toEqual([]);
    const inside = 'import { isQuotaError } from "./storage-errors.ts";\nexport const a = isQuotaError;\n';
    expect(await ruleIds("src/storage/x.ts", inside)).toEqual([]);
    expect(await ruleIds("src/gateway/x.test.ts", past)).toEqual([]);
    const protocol =
      'import { SKILL_ARCHIVE_LIMITS } from "../protocol/skills.ts";\nexport const a = SKILL_ARCHIVE_LIMITS;\n';
    expect(await ruleIds("src/ui/x.ts", protocol)).toContain("import-x/no-restricted-paths");
  });

  it("allows the gateway to import the layers below it", async () => {
    const code = 'import { createLeadAgent } from "../agent/index.ts";\nexport const a = createLeadAgent;\n';
    expect(await ruleIds("src/gateway/x.ts", code)).toEqual([]);
  });
});

describe("import cycles", () => {
  it("refuses two modules that import each other", async () => {
    const dir = mkdtempSync(join(process.cwd(), "src/shared/cycle-fixture-"));
    try {
      writeFileSync(join(dir, "a.ts"), 'import { b } from "./b.ts";\nexport const a = () => b;\n');
      writeFileSync(join(dir, "b.ts"), 'import { a } from "./a.ts";\nexport const b = () => a;\n');
      const [result] = await eslint.lintFiles([join(dir, "a.ts")]);
      expect(result?.messages.map((message) => message.ruleId)).toContain("import-x/no-cycle");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
