import { describe, expect, it } from "vitest";
import { describeModelError } from "./model-errors.ts";

describe("a model request that never got an answer", () => {
  const blocked = new TypeError("Failed to fetch");

  it("tells the user to switch on Use the proxy for that endpoint when it does not use it", () => {
    const error = describeModelError(blocked, "https://api.example.test/v1", { endpoint: "Second" });
    expect(error.error).toBe("unreachable");
    expect(error.message).toContain("Could not reach the model endpoint at https://api.example.test/v1.");
    expect(error.message).toContain('"Use the proxy" switched on for the endpoint Second in Settings → Models');
  });

  it("points at the proxy itself when the endpoint already goes through it", () => {
    const error = describeModelError(blocked, "http://127.0.0.1:8787/forward/https://a.test/v1", {
      proxied: true,
      endpoint: "Second",
    });
    expect(error.message).toContain("check that the proxy is running on this computer");
    expect(error.message).not.toContain("switched on");
  });

  it("does not blame CORS for an answer with a status", () => {
    expect(describeModelError(Object.assign(new Error("nope"), { status: 401 }), "https://a.test/v1").error).toBe(
      "authentication",
    );
  });
});

describe("a refusal from Fawn's proxy", () => {
  it("is not blamed on the API key and says what the proxy wants", () => {
    const refused = Object.assign(new Error("403 Target host api.example.test is not allowed."), {
      status: 403,
      type: "proxy_error",
      error: { message: "Target host api.example.test is not allowed.", type: "proxy_error" },
    });
    expect(describeModelError(refused, "http://127.0.0.1:8787/forward/https://api.example.test/v1")).toEqual({
      error: "proxy_refused",
      message: "Fawn's proxy refused to forward the request (403): Target host api.example.test is not allowed.",
    });
  });
});
