import { describe, expect, it } from "vitest";
import { importSpecifiersOf } from "./dist-graph.ts";

describe("importSpecifiersOf", () => {
  it("finds static, re-exported and dynamic imports, and ignores import-like text in strings", () => {
    const code = [
      'import{a as b}from"./chunk-a.js";',
      'export*from"./chunk-b.js";',
      'const m=import("node:fs");',
      "const hint=`set globalThis.File to import('node:buffer').File`;",
    ].join("\n");
    expect(importSpecifiersOf(code)).toEqual([
      { specifier: "./chunk-a.js", dynamic: false },
      { specifier: "./chunk-b.js", dynamic: false },
      { specifier: "node:fs", dynamic: true },
    ]);
  });
});
