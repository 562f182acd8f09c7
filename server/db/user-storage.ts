// A user's Fawn storage on the server: the same repositories as the browser's memory store (src/storage/tables/),
// over that user's rows in Postgres. Every user — the admin is "admin" — sees only their own threads, files,
// settings, secrets, skills and checkpoints.
import { tableStorage, type FawnStorage } from "../../src/storage/index.ts";
import type { Database } from "./database.ts";
import { PostgresTables } from "./postgres-tables.ts";

/** `owner`'s storage in `db` (their user id). Cheap: holds no connection of its own, so one per request is fine. */
export function userStorage(db: Database, owner: string): FawnStorage {
  return tableStorage(new PostgresTables(db, owner));
}
