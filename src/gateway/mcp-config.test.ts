import { describe, expect, it } from "vitest";
import { parseMcpServers, readDeerFlowMcpConfig, toDeerFlowMcpConfig, withoutMcpSecrets } from "./mcp-config.ts";

const server = { name: "everything", url: "https://mcp.example.com/mcp", enabled: true };

describe("the MCP servers Settings → Tools stores", () => {
  it("keeps what was typed, trimmed, without empty fields", () => {
    const parsed = parseMcpServers([
      {
        ...server,
        name: " everything ",
        bearerToken: " tok ",
        headers: { "X-Api-Key": "k1", "X-Empty": "" },
        disabledTools: ["b", "a", "a"],
        description: "",
        timeoutSeconds: 60,
      },
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: [{ ...server, bearerToken: "tok", headers: { "X-Api-Key": "k1" }, disabledTools: ["a", "b"] }],
    });
  });

  it("refuses a bad entry with one sentence naming the server", () => {
    const problem = (entry: unknown) => {
      const parsed = parseMcpServers([entry]);
      return parsed.ok ? "" : parsed.message;
    };
    expect(problem({ ...server, name: "has space" })).toMatch(/^Server "has space": A server's name is 1 to 32/);
    expect(problem({ ...server, url: "ftp://x" })).toMatch(/^Server "everything": The URL is an http/);
    expect(problem({ ...server, url: "https://me:pw@x.com/mcp" })).toMatch(/no user name/);
    expect(problem({ ...server, headers: { Authorization: "Bearer x" } })).toMatch(
      /Put a bearer token in Bearer token/,
    );
    expect(problem({ ...server, headers: { "X-A": "one\ntwo" } })).toMatch(/one line\.$/);
    expect(problem({ ...server, timeoutSeconds: 0 })).toMatch(/^Server "everything": /);
    const twice = parseMcpServers([server, { ...server, name: "Everything" }]);
    expect(twice).toEqual({ ok: false, message: 'Two servers are named "Everything": each needs a name of its own.' });
    expect(parseMcpServers("nope")).toEqual({ ok: false, message: "The MCP servers are a list." });
  });

  it("leaves the secrets out of what may be exported", () => {
    expect(withoutMcpSecrets({ ...server, bearerToken: "t", headers: { "X-A": "v" } })).toEqual(server);
  });
});

describe("DeerFlow's mcpServers file", () => {
  it("reads HTTP and SSE servers, and says why it leaves out stdio commands and environment variables", () => {
    const read = readDeerFlowMcpConfig({
      mcpServers: {
        remote: {
          type: "http",
          url: "https://remote.example/mcp",
          headers: { "X-Api-Key": "k", "X-Env": "$TOKEN" },
          tools: { slow: { enabled: false }, fast: { enabled: true } },
          tool_call_timeout: 30,
          description: "Remote tools",
        },
        legacy: { transport: "sse", url: "https://old.example/sse", enabled: false },
        files: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
        broken: { type: "http", url: "not a url" },
      },
      skills: {},
    });
    expect(read.servers).toEqual([
      {
        name: "remote",
        url: "https://remote.example/mcp",
        enabled: true,
        headers: { "X-Api-Key": "k" },
        disabledTools: ["slow"],
        timeoutSeconds: 30,
        description: "Remote tools",
      },
      { name: "legacy", url: "https://old.example/sse", enabled: false },
    ]);
    expect(read.skipped.map((skip) => skip.name)).toEqual(["files", "broken"]);
    expect(read.skipped[0]?.reason).toMatch(
      /a program to run on your computer, which a web page cannot start: .*\/mcp\/files\.$/,
    );
    expect(read.skipped[1]?.reason).toMatch(/^Server "broken": The URL is/);
    expect(() => readDeerFlowMcpConfig({ skills: [] })).toThrow(/no "mcpServers" object/);
  });

  it("writes the servers in DeerFlow's shape, which reads back the same, without a secret", () => {
    const servers = [
      { ...server, disabledTools: ["slow"], timeoutSeconds: 30, useProxy: true, description: "All of it" },
      { name: "off", url: "http://127.0.0.1:8787/mcp/files", enabled: false },
    ];
    const file = toDeerFlowMcpConfig(servers);
    expect(JSON.stringify(file)).not.toMatch(/bearer|header/i);
    expect(readDeerFlowMcpConfig(JSON.parse(JSON.stringify(file)))).toEqual({ servers, skipped: [] });
  });
});
