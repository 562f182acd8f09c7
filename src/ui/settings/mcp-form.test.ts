import { describe, expect, it } from "vitest";
import { blankMcpRow, fromMcpRow, toMcpRow } from "./mcp-form.ts";

describe("Settings → Tools' form", () => {
  it("shows a server as fields and reads it back the same", () => {
    const entry = {
      name: "remote",
      url: "https://remote.example/mcp",
      enabled: false,
      useProxy: true,
      bearerToken: "tok",
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
});
