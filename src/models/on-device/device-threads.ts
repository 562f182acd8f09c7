// How many threads llama.cpp gets for an on-device model. wllama's default is half the cores, one on a 2-core machine;
// measured there (npm run bench:on-device), two threads read a prompt 1.8 times faster (8.1 against 4.5 tokens/s for
// the 0.5B shape) and generate 2.2 times faster. One core is left for the page where there are four or more.

/** Threads for `cores` logical cores: all of them up to 2, else all but two, at most 8. */
export function deviceThreads(cores: number): number {
  if (cores <= 2) return Math.max(1, cores);
  return Math.min(8, Math.max(2, cores - 2));
}

/**
 * Tokens llama.cpp reads per step of a prompt (n_batch = n_ubatch): it reports its progress after each step, so steps
 * of 128 tell the user how far a long prompt has come every few seconds on a CPU. Larger steps read no faster here:
 * 7.0 tokens/s with steps of 512 against 7.6 with 128 (npm run bench:on-device, 0.5B shape, a 515-token prompt).
 */
export const DEVICE_PROMPT_STEP = 128;
