// Token usage as the model reported it (`usage_metadata` of AI messages), per message and summed per thread.
import type { ThreadEntry, UsageMetadata, WireMessage } from "../../protocol/index.ts";
import { formatNumber, t, tn } from "../i18n/index.ts";

const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/**
 * What one message cost: its `usage_metadata` with the total derived when the provider left it out. Undefined for
 * messages that are not the model's, and for AI messages whose provider reported nothing.
 */
export function messageUsage(message: WireMessage): UsageMetadata | undefined {
  if (message.type !== "ai" || !message.usage_metadata) return undefined;
  const input = count(message.usage_metadata.input_tokens);
  const output = count(message.usage_metadata.output_tokens);
  const total = count(message.usage_metadata.total_tokens) || input + output;
  return { input_tokens: input, output_tokens: output, total_tokens: total };
}

/** The sum over `messages`; undefined when none of them reports usage (so "0 tokens" never shows for unknown). */
export function sumUsage(messages: Iterable<WireMessage>): UsageMetadata | undefined {
  let sum: UsageMetadata | undefined;
  for (const message of messages) {
    const usage = messageUsage(message);
    if (!usage) continue;
    sum = {
      input_tokens: (sum?.input_tokens ?? 0) + usage.input_tokens,
      output_tokens: (sum?.output_tokens ?? 0) + usage.output_tokens,
      total_tokens: (sum?.total_tokens ?? 0) + usage.total_tokens,
    };
  }
  return sum;
}

/**
 * A thread's usage: its saved messages plus what the live run has completed so far (`live`, the run's messages
 * after the saved history, as `liveMessages` gives them), so the total grows during a run without counting twice.
 */
export function threadUsage(
  entries: readonly ThreadEntry[],
  live: readonly WireMessage[] = [],
): UsageMetadata | undefined {
  function* messages(): Generator<WireMessage> {
    for (const entry of entries) if (entry.kind === "message") yield entry.message;
    yield* live;
  }
  return sumUsage(messages());
}

/** "12,345", as the active locale writes it. */
export function formatCount(count: number): string {
  return formatNumber(count);
}

/** "1,234 tokens" (one token: "1 token"), in the active language. */
export function formatTokens(total: number): string {
  return tn("tokens.count", total);
}

/** The split, for a tooltip: "1,000 in · 234 out". */
export function usageDetail(usage: UsageMetadata): string {
  return t("tokens.detail", { input: formatCount(usage.input_tokens), output: formatCount(usage.output_tokens) });
}
