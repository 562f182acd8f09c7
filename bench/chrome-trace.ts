// The Chromium trace events the benchmarks read (the Trace Event Format's complete, instant and metadata events), with
// `Args` the arguments a benchmark looks at.

export interface TraceEvent<Args = { name?: string; data?: unknown }> {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Start, µs on the trace's clock. */
  ts: number;
  /** Wall duration, µs (complete events). */
  dur?: number;
  /** Thread (CPU) duration, µs (complete events). */
  tdur?: number;
  args?: Args;
}
