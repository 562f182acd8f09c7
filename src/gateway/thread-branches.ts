// Branches of a thread (edit, regenerate, resume): which versions each turn has, where a new version forks, which
// checkpoint a chosen version shows, and whether a cut-off run can go on. Pure functions over the run records: a
// run's `base` (the checkpoint it started from) groups the versions of one turn, its `end` links it to the turns
// that followed it.
import type { RunErrorCode, TurnVersions, VersionChoice, WireMessage } from "../protocol/index.ts";
import type { RunRecord } from "../storage/index.ts";

/** Errors after which "Continue" makes sense: the cause may be gone (network back, key fixed, limit over). */
const RESUMABLE_ERRORS: ReadonlySet<RunErrorCode> = new Set<RunErrorCode>([
  "authentication",
  "not_found",
  "rate_limited",
  "unreachable",
  "proxy_refused",
  "server_error",
  "storage_full",
  "unknown",
]);

/** Runs that made a version of a turn (a resumption only goes on with its run's version). */
function turnRuns(runs: readonly RunRecord[]): RunRecord[] {
  return runs
    .filter((run) => run.kind !== undefined && run.kind !== "resume" && run.user_message_id !== undefined)
    .sort((a, b) => a.created_at - b.created_at);
}

function choice(versions: readonly RunRecord[], current: RunRecord): VersionChoice | undefined {
  const index = versions.indexOf(current);
  if (versions.length < 2 || index < 0) return undefined;
  const previous = versions[index - 1]?.run_id;
  const next = versions[index + 1]?.run_id;
  return { index: index + 1, count: versions.length, ...(previous && { previous }), ...(next && { next }) };
}

/** The run whose user message a reply of `run` answers (a regeneration's first version; else the run itself). */
function promptRun(turns: readonly RunRecord[], run: RunRecord): RunRecord {
  if (run.kind !== "regenerate") return run;
  return turns.find((other) => other.run_id === run.regenerates) ?? run;
}

/**
 * The versions of each turn shown, by its user message's id: the user message's versions (runs from the same base
 * that sent or edited it) and the reply's (the first version of the message and its regenerations). `path`, the
 * checkpoints back from the shown head, tells which of the versions sharing one user message is shown.
 */
export function turnVersions(
  runs: readonly RunRecord[],
  shown: readonly WireMessage[],
  path?: ReadonlySet<string>,
): Record<string, TurnVersions> {
  const turns = turnRuns(runs);
  const shownIds = new Set(shown.map((message) => message.id));
  const versions: Record<string, TurnVersions> = {};
  // Versions with the same user message (a LangGraph client's regenerations keep its id): the one whose end is on
  // the shown `path` (the checkpoints back from the head) is taken last, so it is the one described.
  const onPath = (run: RunRecord): number => (run.end !== undefined && path?.has(run.end) === true ? 1 : 0);
  const ordered = path ? [...turns].sort((a, b) => onPath(a) - onPath(b)) : turns;
  for (const run of ordered) {
    const messageId = run.user_message_id as string;
    if (!shownIds.has(messageId)) continue;
    const prompt = promptRun(turns, run);
    const prompts = turns.filter(
      (other) => other.base === run.base && (other.kind === "send" || other.kind === "edit"),
    );
    const replies = turns.filter(
      (other) => other === prompt || (other.kind === "regenerate" && other.regenerates === prompt.run_id),
    );
    const promptChoice = choice(prompts, prompt);
    const replyChoice = choice(replies, run);
    if (promptChoice || replyChoice) {
      versions[messageId] = {
        ...(promptChoice && { prompt: promptChoice }),
        ...(replyChoice && { reply: replyChoice }),
      };
    }
  }
  return versions;
}

/**
 * The checkpoint that showing `runId` means: the end of its version, followed through the turns that came after it
 * (the latest one at each step). Undefined when the run has no saved end.
 */
export function versionHead(runs: readonly RunRecord[], runId: string): string | undefined {
  const turns = turnRuns(runs);
  let current = turns.find((run) => run.run_id === runId);
  const seen = new Set<string>();
  while (current?.end !== undefined && !seen.has(current.run_id)) {
    seen.add(current.run_id);
    const end: string = current.end;
    const after = turns.filter((run) => run.base === end);
    if (after.length === 0) return end;
    current = after.reduce((latest, run) => (run.created_at > latest.created_at ? run : latest));
  }
  return current?.end;
}

/** Whether the message list stops mid-turn: the model has not answered the last message yet. */
function unanswered(messages: readonly WireMessage[]): boolean {
  const last = messages.at(-1);
  if (!last) return false;
  if (last.type === "human" || last.type === "tool") return true;
  return last.type === "ai" && (last.tool_calls?.length ?? 0) > 0;
}

/**
 * The newest run when a page closed between saving a step and recording it (the recorder writes the run's end just
 * after each step): its record still says running and ends behind `head`, so no run ends at `head`. `since` is where
 * its record ends (its end, else its base; undefined: the thread's start); the caller checks that `head` descends
 * from it before treating `head` as that run's end.
 */
export function laggingRun(
  runs: readonly RunRecord[],
  head: string | undefined,
): { run: RunRecord; since: string | undefined } | undefined {
  if (head === undefined || runs.some((run) => run.end === head)) return undefined;
  const newest = [...runs].sort((a, b) => b.created_at - a.created_at)[0];
  if (!newest || newest.status !== "running" || newest.imported === true) return undefined;
  return { run: newest, since: newest.end ?? newest.base };
}

/**
 * The run "Continue" would resume, if any: the latest run that ended at `head` without finishing its turn, because
 * the page closed (still marked running) or a fixable error stopped it, and whose messages still await an answer.
 * Never a run that came in an imported thread: its calls were another model's.
 */
export function resumableRun(
  runs: readonly RunRecord[],
  head: string | undefined,
  messages: readonly WireMessage[],
): RunRecord | undefined {
  if (head === undefined || !unanswered(messages)) return undefined;
  // A run whose record lags behind `head` (cut off before recording its step, even its first) is laggingRun's, which
  // the caller resolves to end at `head` first.
  const last = [...runs].sort((a, b) => b.created_at - a.created_at).find((run) => run.end === head);
  if (!last || last.imported === true) return undefined;
  const cutOff =
    last.status === "running" || (last.status === "error" && RESUMABLE_ERRORS.has(last.error?.error ?? "unknown"));
  if (!cutOff) return undefined;
  // A resumption goes on with the run it continued.
  const continued = last.kind === "resume" ? (runs.find((run) => run.run_id === last.continues) ?? last) : last;
  return continued.imported === true ? undefined : continued;
}
