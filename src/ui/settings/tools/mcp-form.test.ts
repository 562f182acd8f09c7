import { describe, expect, it } from "vitest";
import { blankMcpRow, fromMcpRow, mcpFormProblems, toMcpRow } from "./mcp-form.ts";

describe("Settings → Tools' form", () => {
  it("shows a server as fields and reads it back the same", () => {
    const entry = {
      name: "remote",
      url: "https://remote.example/mcp",
      enabled: false,
      useProxy: true,
      bearerToken: "tok",
      oauthClientId: "fawn-app",
      oauthClientSecret: "s3cret",
      headers: { "X-Api-Key": "k: with colon", "X-Other": "2" },
      disabledTools: ["slow"],
      timeoutSeconds: 30,
      description: "Remote tools",
    };
    const row = toMcpRow(entry, "k1");
    expect(row.headers).toBe("X-Api-Key: k: with colon\nX-Other: 2");
    expect(fromMcpRow(row)).toEqual(entry);
  });

  it("leaves blank fields out and names a header line it cannot read", () => {
    const row = { ...blankMcpRow(), name: " a ", url: " https://x.example/mcp " };
    expect(fromMcpRow(row)).toEqual({ name: "a", url: "https://x.example/mcp", enabled: true });
    expect(fromMcpRow({ ...row, headers: "\nno colon here\n" })).toEqual({
      error: 'Server "a": write each header as Name: value, one per line.',
    });
  });

  it("ties each problem to its server's field, as the Gateway would refuse it", () => {
    const row = (key: string, change: Partial<ReturnType<typeof blankMcpRow>>) => ({
      ...blankMcpRow(),
      key,
      url: "https://x.example/mcp",
      ...change,
    });
    const problems = mcpFormProblems([
      row("a", { name: "github", url: "ftp://x.example/mcp", headers: "no colon" }),
      row("b", { name: "GitHub", bearerToken: "two words", timeoutSeconds: "0" }),
      row("c", { name: " ", headers: "Authorization: Bearer x" }),
      row("d", { name: "bad name!", headers: "X Key: 1", url: "https://user:pw@x.example/mcp" }),
    ]);
    expect(problems.map(({ key, field }) => `${key}.${field}`)).toEqual([
      "a.url",
      "a.headers",
      "b.name",
      "b.bearerToken",
      "b.timeout",
      "c.name",
      "c.headers",
      "d.name",
      "d.url",
      "d.headers",
    ]);
    expect(problems[0]?.message).toMatch(/http:\/\/ or https:\/\//);
    expect(problems[1]?.message).toBe("Write each header as Name: value, one per line.");
    expect(problems[2]?.message).toBe("Another server is named GitHub: each needs a name of its own.");
    expect(problems[6]?.message).toMatch(/Put a bearer token in Bearer token/);
    expect(problems[9]?.message).toMatch(/"X Key" is not a header name/);
  });

  it("wants a client secret's client ID, and neither with spaces", () => {
    const row = { ...blankMcpRow(), key: "k", name: "a", url: "https://x.example/mcp" };
    const problems = (change: Partial<typeof row>) =>
      mcpFormProblems([{ ...row, ...change }]).map(({ field, message }) => `${field}: ${message}`);
    expect(problems({ oauthClientSecret: "s3cret" })).toEqual([
      "oauthClientSecret: A client secret goes with its client ID: fill in Client ID too.",
    ]);
    expect(problems({ oauthClientId: "an id", oauthClientSecret: "a secret" })).toEqual([
      "oauthClientId: A client ID has no spaces.",
      "oauthClientSecret: A client secret has no spaces.",
    ]);
    expect(problems({ oauthClientId: "fawn-app" })).toEqual([]);
  });

  it("finds nothing wrong with servers the Gateway would take", () => {
    const ok = {
      ...blankMcpRow(),
      name: "a-1",
      url: "http://127.0.0.1:8787/mcp/a",
      headers: "X-Api-Key: 1\n",
      timeoutSeconds: "30",
    };
    expect(mcpFormProblems([ok, { ...ok, key: "2", name: "b_2", timeoutSeconds: "" }])).toEqual([]);
  });
});
