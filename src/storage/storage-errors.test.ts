import { describe, expect, it } from "vitest";
import { isClosedConnectionError, isQuotaError } from "./storage-errors.ts";

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
