// userStorage over an embedded Postgres (PGlite in memory): the storage contract, LangGraph's checkpoint validation,
// owners kept apart (user-storage-suite.ts). test/server/postgres-storage.test.ts runs the same on Debian's Postgres.
import { openDatabase } from "./database.ts";
import { describeUserStorage } from "./user-storage-suite.ts";

describeUserStorage("PGlite", async () => {
  const db = await openDatabase();
  return { db, stop: () => db.close() };
});
