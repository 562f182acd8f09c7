// Tests for reading the proxy's settings from FAWN_PROXY_* and FAWN_APP_ORIGIN.
import { describe, expect, it } from "vitest";
import { proxyOptionsFromEnv } from "./config.ts";

describe("proxyOptionsFromEnv", () => {
  it("uses defaults", () => {
    const options = proxyOptionsFromEnv({});
    expect(options).toEqual({ port: 8787, host: "127.0.0.1", appOrigin: "http://127.0.0.1:4173" });
  });

  it("reads overrides", () => {
    const options = proxyOptionsFromEnv({
      FAWN_PROXY_PORT: "9000",
      FAWN_PROXY_HOST: "0.0.0.0",
      FAWN_APP_ORIGIN: "https://fawn.example/",
      FAWN_PROXY_ORIGINS: "http://localhost:5173, http://localhost:3000 ",
      FAWN_PROXY_TARGETS: "*,api.deepseek.com,192.168.1.10:11434,[::1]:11435",
      FAWN_PROXY_HEADERS_TIMEOUT: "90",
      FAWN_PROXY_IDLE_TIMEOUT: "0.5",
      FAWN_PROXY_MAX_REQUEST_BYTES: "64MiB",
      FAWN_PROXY_MAX_RESPONSE_BYTES: "1048576",
      FAWN_PROXY_QUIET: "1",
    });
    expect(options).toEqual({
      port: 9000,
      host: "0.0.0.0",
      appOrigin: "https://fawn.example",
      allowedOrigins: ["http://localhost:5173", "http://localhost:3000"],
      allowedTargets: ["*", "api.deepseek.com", "192.168.1.10:11434", "[::1]:11435"],
      headersTimeoutMs: 90_000,
      idleTimeoutMs: 500,
      maxRequestBytes: 64 * 1024 * 1024,
      maxResponseBytes: 1048576,
      log: null,
    });
  });

  it("rejects bad values, naming the variable", () => {
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "80a" })).toThrow(/FAWN_PROXY_PORT/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_PORT: "70000" })).toThrow(/FAWN_PROXY_PORT/);
    expect(() => proxyOptionsFromEnv({ FAWN_APP_ORIGIN: "http://127.0.0.1:4173/app" })).toThrow(/FAWN_APP_ORIGIN/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_TARGETS: "http://x.example/" })).toThrow(/FAWN_PROXY_TARGETS/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_TARGETS: "x.example:99999" })).toThrow(/FAWN_PROXY_TARGETS/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_HEADERS_TIMEOUT: "0" })).toThrow(/FAWN_PROXY_HEADERS_TIMEOUT/);
    expect(() => proxyOptionsFromEnv({ FAWN_PROXY_MAX_REQUEST_BYTES: "lots" })).toThrow(/FAWN_PROXY_MAX_REQUEST_BYTES/);
  });
});
