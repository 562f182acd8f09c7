// Vite's eager `?raw` glob, read from disk when Node loads the module (what `npm run server` needs for the skills).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inlineGlobs } from "./vite-globs.ts";

const root = mkdtempSync(path.join(tmpdir(), "fawn-globs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("inlineGlobs", () => {
  it("replaces an eager ?raw glob with the files under its folder, by the path the glob names them", () => {
    mkdirSync(path.join(root, "skills/public/charts/scripts"), { recursive: true });
    writeFileSync(path.join(root, "skills/public/charts/SKILL.md"), "# Charts\n");
    writeFileSync(path.join(root, "skills/public/charts/scripts/plot.py"), "print('plot')\n");
    const source =
      'const bundled = import.meta.glob("../skills/public/**/*", { query: "?raw", import: "default", eager: true });';
    const inlined = inlineGlobs(source, path.join(root, "src/files.ts"));
    const literal = inlined.slice("const bundled = ".length, -1);
    expect(JSON.parse(literal)).toEqual({
      "../skills/public/charts/SKILL.md": "# Charts\n",
      "../skills/public/charts/scripts/plot.py": "print('plot')\n",
    });
  });

  it("refuses any other glob rather than giving nothing", () => {
    const lazy = 'import.meta.glob("./pages/*.ts", { eager: false })';
    expect(() => inlineGlobs(lazy, path.join(root, "x.ts"))).toThrow(/only eager "\?raw" globs/);
  });

  it("leaves a module without a glob as it was", () => {
    expect(inlineGlobs("export const a = 1;", path.join(root, "x.ts"))).toBe("export const a = 1;");
  });
});
