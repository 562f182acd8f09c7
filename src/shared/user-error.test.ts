import { describe, expect, it } from "vitest";
import { isUserFacing, UserError, userErrorStatus, type UserErrorKind, type UserFacing } from "./user-error.ts";

class MarkedError extends Error implements UserFacing {
  constructor(
    message: string,
    readonly userFacing: UserErrorKind,
  ) {
    super(message);
  }
}

describe("the UserFacing mark", () => {
  it("is carried by UserError, with its kind", () => {
    expect(isUserFacing(new UserError("Bad."))).toBe(true);
    expect(new UserError("Bad.").userFacing).toBe("invalid");
    expect(new UserError("Busy.", "conflict").userFacing).toBe("conflict");
  });

  it("is carried by any error class that declares it, subclasses included", () => {
    class Sub extends MarkedError {}
    expect(isUserFacing(new MarkedError("No.", "invalid"))).toBe(true);
    expect(isUserFacing(new Sub("Taken.", "conflict"))).toBe(true);
  });

  it("is not carried by plain errors, non-errors, or a look-alike with another value", () => {
    expect(isUserFacing(new Error("internal"))).toBe(false);
    expect(isUserFacing(new TypeError("x is undefined"))).toBe(false);
    expect(isUserFacing({ message: "Bad.", userFacing: "invalid" })).toBe(false);
    expect(isUserFacing("Bad.")).toBe(false);
    expect(isUserFacing(undefined)).toBe(false);
    expect(isUserFacing(Object.assign(new Error("x"), { userFacing: true }))).toBe(false);
  });

  it("names the HTTP status: 422 for invalid input, 409 for a conflict", () => {
    expect(userErrorStatus(new UserError("Bad."))).toBe(422);
    expect(userErrorStatus(new MarkedError("Taken.", "conflict"))).toBe(409);
  });
});
