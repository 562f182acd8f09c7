import { describe, expect, it } from "vitest";
import type { McpServerConfig } from "../protocol/index.ts";
import { McpRegistry } from "./registry.ts";

const base: McpServerConfig = { name: "docs", url: "https://docs.example/mcp", enabled: true };

describe("McpRegistry.connection", () => {
  it("keeps one connection per server while only its tool switches, timeout or description change", () => {
    const registry = new McpRegistry({ proxyUrl: "http://127.0.0.1:8787" });
    const first = registry.connection(base, { bearerToken: "t1" });
    const same = registry.connection({ ...base, disabledTools: ["x"], timeoutSeconds: 5 }, { bearerToken: "t1" });
    expect(same).toBe(first);
    expect(same.config.disabledTools).toEqual(["x"]);
    expect(same.config.timeoutSeconds).toBe(5);
  });

  it("makes a new connection when the URL, the proxy switch, the headers or the token change", async () => {
    const registry = new McpRegistry({ proxyUrl: "http://127.0.0.1:8787" });
    let previous = registry.connection(base, { bearerToken: "t1" });
    for (const [config, token] of [
      [{ ...base, url: "https://docs.example/v2/mcp" }, "t1"],
      [{ ...base, url: "https://docs.example/v2/mcp", useProxy: true }, "t1"],
      [{ ...base, url: "https://docs.example/v2/mcp", useProxy: true, headers: { "X-A": "1" } }, "t1"],
      [{ ...base, url: "https://docs.example/v2/mcp", useProxy: true, headers: { "X-A": "1" } }, "t2"],
    ] as const) {
      const next = registry.connection(config, { bearerToken: token });
      expect(next).not.toBe(previous);
      previous = next;
    }
    await registry.closeAll();
  });

  it("forgets a server: its next connection is a new one", async () => {
    const registry = new McpRegistry();
    const first = registry.connection(base);
    await registry.forget("docs");
    expect(registry.connection(base)).not.toBe(first);
  });
});
