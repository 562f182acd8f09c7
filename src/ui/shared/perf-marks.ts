// Names of the performance marks the app sets for its benchmarks (bench/app-load.ts reads them in Chromium).

/** Set when the agent worker first answers (state/stores.tsx `init`): from then on a message can be sent. */
export const GATEWAY_READY_MARK = "fawn:gateway-ready";
