// The server's runs: the queue over Postgres every replica shares, and the types the routes use.
export { RunQueue } from "./run-queue.ts";
export {
  RunConflictError,
  RunInputError,
  type CancelAction,
  type CreateRunOptions,
  type ListRunsOptions,
  type MultitaskStrategy,
  type RunGateways,
  type RunKwargs,
  type RunQueueOptions,
  type RunStatus,
  type ServerRun,
  type StoredRunEvent,
} from "./run-types.ts";
