// Tests for telling a credential field by its name, and for removing such fields from a JSON value at any depth.
import { describe, expect, it } from "vitest";
import { isSecretField, withoutSecrets } from "./credential-fields.ts";

describe("withoutSecrets", () => {
  it("drops credential fields at any depth and keeps the rest", () => {
    expect(
      withoutSecrets({
        baseUrl: "http://x",
        apiKey: "sk-1",
        maxTokens: 10,
        servers: [{ url: "u", headers: { Authorization: "Bearer t", accept: "json" }, api_key: "k" }],
      }),
    ).toEqual({ baseUrl: "http://x", maxTokens: 10, servers: [{ url: "u", headers: { accept: "json" } }] });
  });

  it("knows a credential by its name's last word, however it is written (found by the key scan)", () => {
    for (const name of ["X-API-Key", "x-api-key", "clientSecret", "accessToken", "refresh_token", "Cookie", "apikey"]) {
      expect(isSecretField(name)).toBe(true);
    }
    for (const name of ["key", "maxTokens", "maxInjectionTokens", "keyboard", "author", "subagent_token_usage"]) {
      expect(isSecretField(name)).toBe(false);
    }
  });
});
