// Every checkpoint decoded (CheckpointCodec.toTuple: its record, channel values and messages revived by the serde) is
// a User Timing measure named CHECKPOINT_DECODE_MEASURE in the context that decoded it: the agent worker in the
// browser. Tests and bench/long-thread.ts count them to check that opening a thread decodes its checkpoint once, and
// sum their durations. A debugging signal, not an API: only the latest MEASURES_KEPT are kept.
export const CHECKPOINT_DECODE_MEASURE = "fawn:checkpoint-decode";

/** What a decode measure's `detail` says. */
export interface CheckpointDecodeDetail {
  thread_id: string;
  checkpoint_id: string;
  /** The messages revived (all message lists of the checkpoint). */
  messages: number;
}

/** Past this many measures, the older ones go (a long-lived server decodes without end). */
const MEASURES_KEPT = 500;

/** Records a decode that began at `start` (performance.now()) and ends now. */
export function recordCheckpointDecode(start: number, detail: CheckpointDecodeDetail): void {
  const perf = globalThis.performance as Performance | undefined;
  if (typeof perf?.measure !== "function") return;
  if (perf.getEntriesByName(CHECKPOINT_DECODE_MEASURE, "measure").length >= MEASURES_KEPT) {
    perf.clearMeasures(CHECKPOINT_DECODE_MEASURE);
  }
  perf.measure(CHECKPOINT_DECODE_MEASURE, { start, end: perf.now(), detail });
}

/** The decodes recorded in this context since `since` (performance.now()), oldest first. */
export function checkpointDecodes(since = 0): { duration: number; detail: CheckpointDecodeDetail }[] {
  const perf = globalThis.performance as Performance | undefined;
  if (typeof perf?.getEntriesByName !== "function") return [];
  return perf
    .getEntriesByName(CHECKPOINT_DECODE_MEASURE, "measure")
    .filter((entry) => entry.startTime >= since)
    .map((entry) => ({
      duration: entry.duration,
      detail: (entry as PerformanceMeasure).detail as CheckpointDecodeDetail,
    }));
}
