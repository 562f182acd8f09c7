import { describe, expect, it } from "vitest";
import { isQuotaError } from "./storage-errors.ts";

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
