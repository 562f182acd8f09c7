// The branches domain's contract (`gateway.branches`): moving a thread between the versions edits and
// regenerations made.

export interface BranchesApi {
  /** Shows the version a run made (VersionChoice's previous/next), with its latest continuation, files included. */
  showVersion(threadId: string, runId: string): Promise<void>;
}
