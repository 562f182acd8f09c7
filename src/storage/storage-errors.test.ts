import { describe, expect, it } from "vitest";
import { isClosedConnectionError, isDatabaseGoneError, isQuotaError } from "./storage-errors.ts";

describe("isQuotaError", () => {
  it("recognises the browser's quota error, also as the cause of another error", () => {
    const quota = new DOMException("The quota has been exceeded.", "QuotaExceededError");
    expect(isQuotaError(quota)).toBe(true);
    expect(isQuotaError(new Error("transaction aborted", { cause: quota }))).toBe(true);
  });

  it("does not mistake other failures for a full disk", () => {
    expect(isQuotaError(new DOMException("gone", "NotFoundError"))).toBe(false);
    expect(isQuotaError("QuotaExceededError")).toBe(false);
  });
});

describe("isClosedConnectionError", () => {
  it("recognises a call on a connection that stepped aside for a newer version, also as a cause", () => {
    const closing = new DOMException(
      "Failed to execute 'transaction' on 'IDBDatabase': The database connection is closing.",
      "InvalidStateError",
    );
    expect(isClosedConnectionError(closing)).toBe(true);
    expect(isClosedConnectionError(new Error("the run failed", { cause: closing }))).toBe(true);
  });

  it("does not mistake another invalid state for it", () => {
    expect(isClosedConnectionError(new DOMException("The transaction has finished.", "InvalidStateError"))).toBe(false);
    expect(isClosedConnectionError(new DOMException("full", "QuotaExceededError"))).toBe(false);
  });
});

describe("isDatabaseGoneError", () => {
  it("recognises a database that went away: a refused connection, a shutdown, a terminated connection", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    expect(isDatabaseGoneError(refused)).toBe(true);
    expect(isDatabaseGoneError(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseGoneError(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("does not mistake a model endpoint that cannot be reached, or a bad query, for it", () => {
    const fetchFailed = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", syscall: "connect" }),
    });
    expect(isDatabaseGoneError(fetchFailed)).toBe(false);
    expect(isDatabaseGoneError(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
    expect(isDatabaseGoneError("ECONNREFUSED")).toBe(false);
  });
});
