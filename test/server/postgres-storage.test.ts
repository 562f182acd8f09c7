// userStorage over Debian's Postgres (a throwaway cluster from test/support/postgres.ts, through node-postgres): the
// storage contract, LangGraph's checkpoint validation, owners kept apart and one owner's writes taking turns across
// connections (server/db/user-storage-suite.ts; the same suite runs on PGlite in server/db/user-storage.test.ts).
import { describe } from "vitest";
import { openDatabase } from "../../server/db/database.ts";
import { describeUserStorage } from "../../server/db/user-storage-suite.ts";
import { hasDebianPostgres, startPostgres } from "../support/postgres.ts";

describe.skipIf(!hasDebianPostgres())("userStorage on Debian's Postgres", () => {
  describeUserStorage("Debian's Postgres", async () => {
    const postgres = await startPostgres();
    try {
      const db = await openDatabase({ url: postgres.url });
      return {
        db,
        stop: async () => {
          await db.close();
          await postgres.stop();
        },
      };
    } catch (error) {
      await postgres.stop();
      throw error;
    }
  });
});
