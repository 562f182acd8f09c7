// The storage layer's public surface.
export { openFawnDb, DB_VERSION, type FawnDb, type FawnDbSchema } from "./fawn-db.ts";
export { ThreadRepository, type ThreadPatch } from "./thread-repository.ts";
export { SettingsRepository } from "./settings-repository.ts";
export {
  IndexedDbCheckpointSaver,
  type IndexedDbCheckpointSaverOptions,
  type CheckpointWriteStat,
  type CheckpointStoreName,
} from "./indexeddb-checkpoint-saver.ts";
