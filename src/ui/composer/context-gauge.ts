// The context gauge's arithmetic: the share of the model's window a thread uses, written short ("12%", "0.4%") and
// the window written as people say it ("128k", "1M"), and how full it looks.

/** The share of `window` that `tokens` take, in percent, with one decimal; 0 for an unknown (non-positive) window. */
export function contextPercent(tokens: number, window: number): number {
  if (!(window > 0) || !(tokens > 0)) return 0;
  return Math.round((tokens / window) * 1000) / 10;
}

/** A percentage as the gauge writes it: whole from 1% up, one decimal below, "<0.1" for a sliver that is not 0. */
export function formatPercent(percent: number): string {
  if (percent <= 0) return "0";
  if (percent < 0.1) return "<0.1";
  if (percent < 1) return percent.toFixed(1);
  return String(Math.round(percent));
}

/** A window size as people say it: 128000 → "128k", 1048576 → "1M", 200000 → "200k", 512 → "512". */
export function formatWindow(window: number): string {
  if (window >= 1_000_000) {
    const millions = window / 1_000_000;
    return `${Number.isInteger(Math.round(millions * 10) / 10) ? Math.round(millions) : millions.toFixed(1)}M`;
  }
  if (window >= 1_000) return `${Math.round(window / 1_000)}k`;
  return String(Math.round(window));
}

/** How full the window looks: "high" from 70%, "full" from 90% (the user should /compact soon), else "ok". */
export function gaugeLevel(percent: number): "ok" | "high" | "full" {
  if (percent >= 90) return "full";
  if (percent >= 70) return "high";
  return "ok";
}
