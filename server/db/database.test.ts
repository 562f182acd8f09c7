// openDatabase's refusals: a DATABASE_URL whose Postgres cannot be reached is one sentence naming it, not a stack.
import { describe, expect, it } from "vitest";
import { DatabaseUnreachableError, openDatabase } from "./database.ts";

describe("openDatabase at a DATABASE_URL", () => {
  it("says in one sentence that a Postgres nobody listens for could not be reached", async () => {
    const opening = openDatabase({ url: "postgres://postgres@127.0.0.1:1/postgres" });
    await expect(opening).rejects.toBeInstanceOf(DatabaseUnreachableError);
    await expect(opening).rejects.toThrow(
      /^The Postgres at DATABASE_URL could not be reached \(connect ECONNREFUSED 127\.0\.0\.1:1\)\.$/,
    );
  });
});
