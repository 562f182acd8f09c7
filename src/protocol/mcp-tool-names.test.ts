import { describe, expect, it } from "vitest";
import { BUILT_IN_TOOL_NAMES, mcpToolNamingReason, nameMcpTools } from "./mcp-tool-names.ts";

const names = (servers: { server: string; tools: string[] }[]) =>
  nameMcpTools(servers).map((naming) => (naming.kind === "refused" ? `refused:${naming.reason}` : naming.name));

describe("nameMcpTools", () => {
  it("gives <server>_<tool> when it is free", () => {
    expect(names([{ server: "docs", tools: ["search", "list"] }])).toEqual(["docs_search", "docs_list"]);
  });

  it("never gives a built-in tool's name, in any case: such a tool gets the first free _<n>", () => {
    for (const builtIn of BUILT_IN_TOOL_NAMES.filter((name) => name.includes("_"))) {
      const cut = builtIn.indexOf("_");
      const [naming] = nameMcpTools([{ server: builtIn.slice(0, cut), tools: [builtIn.slice(cut + 1)] }]);
      expect(naming).toMatchObject({ kind: "renamed", name: `${builtIn}_2`, owner: "built-in" });
    }
    expect(names([{ server: "Ask", tools: ["Clarification"] }])).toEqual(["Ask_Clarification_2"]);
    // The server's own ask_clarification_2 keeps its name: the renamed tool takes the next free one.
    expect(names([{ server: "ask", tools: ["clarification", "clarification_2"] }])).toEqual([
      "ask_clarification_3",
      "ask_clarification_2",
    ]);
  });

  it("keeps two servers' tools apart: the server whose name sorts first keeps the name, the other's is renamed", () => {
    const result = nameMcpTools([
      { server: "ask", tools: ["docs_echo"] },
      { server: "ask_docs", tools: ["echo"] },
    ]);
    expect(result).toEqual([
      { server: "ask", tool: "docs_echo", kind: "named", name: "ask_docs_echo" },
      {
        server: "ask_docs",
        tool: "echo",
        kind: "renamed",
        name: "ask_docs_echo_2",
        prefixed: "ask_docs_echo",
        owner: { server: "ask", tool: "docs_echo" },
      },
    ]);
    expect(mcpToolNamingReason(result[1]!)).toBe(
      'renamed to "ask_docs_echo_2": "ask_docs_echo" is already the name of ask\'s tool "docs_echo"',
    );
    // Same input, same names: the order decides, not timing.
    expect(
      nameMcpTools([
        ...[
          { server: "ask", tools: ["docs_echo"] },
          { server: "ask_docs", tools: ["echo"] },
        ],
      ]),
    ).toEqual(result);
  });

  it("refuses bad characters, names past 64 characters, a tool listed twice, and a clash with no room to rename", () => {
    const x30 = "x".repeat(30);
    expect(
      names([
        { server: "s", tools: ["with space", "x".repeat(63), "ok", "ok"] },
        { server: "web", tools: [`fetch${"y".repeat(54)}`] },
        { server: "web_fetch", tools: [] },
      ]),
    ).toEqual(["refused:characters", "refused:too-long", "s_ok", "refused:listed-twice", `web_fetch${"y".repeat(54)}`]);
    // 63 characters with a clash: "_2" would make 65.
    const clash = nameMcpTools([
      { server: "a", tools: [`${x30}_${x30}`] },
      { server: `a_${x30}`, tools: [x30] },
    ]);
    expect(clash[1]).toMatchObject({ kind: "refused", reason: "no-free-name", owner: { server: "a" } });
    expect(mcpToolNamingReason(clash[1]!)).toMatch(/no other name for it fits in 64 characters$/);
  });
});
