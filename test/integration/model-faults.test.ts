// The model-faults reliability suite (docs/reliability.md): every fault the mock model can inject (test/mock-llm/
// faults.ts), through Fawn's real run path (the Gateway, the OpenAI-compatible provider, the agent) over HTTP. Each
// case saves a turn, sends the faulty message and checks what the user would: the run retries and the whole reply
// arrives, or it ends with its one sentence; what was saved before is all there; no half reply shows, live or saved;
// the next message works. Quick: every fault once; FAWN_RELIABILITY=full: every fault at 20 seeded cut points.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import type { RunEvent, ThreadEntry } from "../../src/protocol/index.ts";
import { BrowserSandbox } from "../../src/sandbox/browser/browser-sandbox.ts";
import { applyRunEvents, liveMessages, startRunView } from "../../src/ui/state/run-view.ts";
import { FAULT_REPLY_TEXT, HUGE_REPLY_CHARS, MISSING_TOOL } from "../mock-llm/faults.ts";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";
import { firstSeed, FULL_RELIABILITY, recordCase, seededRandom } from "../support/reliability.ts";
import { modelSettings, openTestGateway, runThread } from "./harness.ts";

/** The stall limit the cases run with (300 s in the app): a stalled stream ends well inside a test's time. */
const STALL_MS = 800;

const SENTENCES = {
  dropped: "The connection to the model endpoint dropped in the middle of its reply; try again in a moment.",
  malformed:
    "The model endpoint sent a reply Fawn could not read (malformed JSON in its stream); try again, and if it keeps happening check the endpoint or the proxy in front of it.",
  empty:
    "The model endpoint sent an empty reply, with no text and no tool call; try again, and if it keeps happening check the model in Settings → Models.",
  stalled: "The model endpoint sent nothing for 0.8 s, so Fawn stopped waiting for its reply; try again in a moment.",
  "http-429":
    "The model endpoint is rate limiting requests (429): Rate limit reached for requests (fault). Wait a little, or check the plan and quota of this API key.",
  "http-500": "The model endpoint had a server error (500): The upstream answered 500 (fault).",
  "http-503":
    "The model provider is unavailable right now (503): The upstream answered 503 (fault). Try again in a moment.",
} as const;

/** How a case must end: the whole reply after retries, one sentence, or a reply of its own. */
type Outcome = { recovers: true } | { sentence: string } | { check: (entries: ThreadEntry[]) => void };

interface FaultCase {
  name: string;
  /** The fault and its parameters as the mock reads them (`fault:NAME at=… times=… retry-after=…`). */
  trigger: string;
  outcome: Outcome;
  /** Faulty answers before the reply comes whole (0: none; Infinity: every try fails). */
  strikes: number;
}

/** Each fault: how it ends when it strikes a few times, and when it never stops. */
const FAULTS: { fault: string; cut: boolean; retryAfter?: boolean; persists?: string }[] = [
  { fault: "http-429", cut: false, retryAfter: true, persists: SENTENCES["http-429"] },
  { fault: "http-500", cut: false, retryAfter: true, persists: SENTENCES["http-500"] },
  { fault: "http-503", cut: false, retryAfter: true, persists: SENTENCES["http-503"] },
  { fault: "cut-token", cut: true, persists: SENTENCES.dropped },
  { fault: "cut-tool-json", cut: true, persists: SENTENCES.dropped },
  { fault: "end-early", cut: true, persists: SENTENCES.dropped },
  { fault: "malformed-json", cut: true, persists: SENTENCES.malformed },
  { fault: "empty-choices", cut: false, persists: SENTENCES.empty },
  { fault: "stall", cut: true, persists: SENTENCES.stalled },
];

/** The cases of one seed: each fault striking 1–3 times (then recovering) and, for every other seed, for good. */
function casesFor(seed: number, round: number): FaultCase[] {
  const random = seededRandom(seed);
  const cases: FaultCase[] = [];
  for (const { fault, cut, retryAfter, persists } of FAULTS) {
    const at = cut ? ` at=${1 + Math.floor(random() * 998)}` : "";
    const wait = retryAfter && random() < 0.5 ? ` retry-after=${1 + Math.floor(random() * 5)}` : "";
    const times = round === 0 ? 1 : 1 + Math.floor(random() * 3);
    const trigger = `fault:${fault}${at}${wait}`;
    cases.push({
      name: `seed ${seed}, ${trigger} times=${times}`,
      trigger: `${trigger} times=${times}`,
      outcome: { recovers: true },
      strikes: times,
    });
    if (persists && (round % 2 === 0 || !FULL_RELIABILITY)) {
      const always = `${trigger} times=always`;
      cases.push({
        name: `seed ${seed}, ${always}`,
        trigger: always,
        outcome: { sentence: persists },
        strikes: Infinity,
      });
    }
  }
  const at = 1 + Math.floor(random() * 998);
  const badUtf8 = FAULT_REPLY_TEXT.slice(0, Math.floor((at / 1000) * FAULT_REPLY_TEXT.length));
  cases.push({
    name: `seed ${seed}, fault:bad-utf8 at=${at}`,
    trigger: `fault:bad-utf8 at=${at}`,
    strikes: 0,
    outcome: {
      // Bytes that are not UTF-8 read as U+FFFD, and the reply around them arrives whole.
      check: (entries) =>
        expect(lastContent(entries)).toBe(`${badUtf8}\uFFFD\uFFFD\uFFFD${FAULT_REPLY_TEXT.slice(badUtf8.length)}`),
    },
  });
  cases.push({
    name: `seed ${seed}, fault:unknown-tool`,
    trigger: "fault:unknown-tool",
    strikes: 0,
    outcome: {
      // The call fails as a tool step that says so, and the model answers on from it.
      check: (entries) => {
        const tool = entries.find((entry) => entry.kind === "message" && entry.message.type === "tool");
        const said = tool?.kind === "message" ? String(tool.message.content) : "";
        expect(said).toMatch(new RegExp(`^Error: ${MISSING_TOOL} is not a valid tool, try one of \\[bash, `));
        expect(lastContent(entries)).toBe(`The tool returned: ${said.slice(0, 200)}`);
      },
    },
  });
  if (round < 3) {
    cases.push({
      name: `seed ${seed}, fault:huge-reply (10 MB)`,
      trigger: "fault:huge-reply",
      strikes: 0,
      outcome: { check: (entries) => expect(lastContent(entries)).toHaveLength(HUGE_REPLY_CHARS) },
    });
  }
  return cases;
}

function lastContent(entries: ThreadEntry[]): string {
  const last = entries.at(-1);
  return last?.kind === "message" ? String(last.message.content) : `(${last?.kind ?? "nothing"})`;
}

/** A reply that is a piece of the fault's reply but not all of it: a half reply shown or saved as if whole. */
function isHalfReply(content: unknown): boolean {
  const text = String(content ?? "");
  return text !== "" && text !== FAULT_REPLY_TEXT && FAULT_REPLY_TEXT.startsWith(text);
}

let mock: MockLlm;
let gateways = 0;

async function newGateway(stallMs: number): Promise<Gateway> {
  const gateway = await openTestGateway(`model-faults-${gateways++}`, {
    openSandbox: async (threadId, files, skills) => BrowserSandbox.open({ threadId, files, skills: await skills() }),
    retry: { initialDelayMs: 10, maxDelayMs: 50 },
    modelStallMs: stallMs,
  });
  await gateway.settings.saveModels(modelSettings({ baseUrl: mock.url, apiKey: "sk-test", model: "mock-model" }));
  return gateway;
}

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});
afterAll(() => mock.close());

const seed = firstSeed();
const rounds = FULL_RELIABILITY ? 20 : 1;
const all = Array.from({ length: rounds }, (_, round) => casesFor(seed + round, round)).flat();

describe("faults from the model", () => {
  it.each(all.map((faultCase) => [faultCase.name, faultCase] as const))(
    "%s",
    async (_name, faultCase) => {
      // A short stall limit only where the stall is the fault: elsewhere a busy machine's pause is no fault.
      mock.reset();
      const gateway = await newGateway(faultCase.trigger.startsWith("fault:stall") ? STALL_MS : 30_000);
      const thread = await gateway.threads.create();
      await runThread(gateway, thread.thread_id, "keep this: 7");
      const saved = (await gateway.threads.get(thread.thread_id))?.entries ?? [];
      expect(lastContent(saved)).toBe("You said: keep this: 7");

      const started = Date.now();
      const text = `please ${faultCase.trigger}`;
      const events: RunEvent[] = await runThread(gateway, thread.thread_id, text);
      const recoveryMs = Date.now() - started;
      const entries = (await gateway.threads.get(thread.thread_id))?.entries ?? [];
      const problems: string[] = [];
      const lost = saved.filter((entry, index) => JSON.stringify(entries[index]) !== JSON.stringify(entry)).length;
      if (lost > 0) problems.push(`${lost} saved entries changed or went`);
      // What the user sees live (the run's view) and after (the saved thread): never a half reply.
      const live = liveMessages(applyRunEvents(startRunView("run", thread.thread_id, text, saved.length), events));
      if (live.some((message) => isHalfReply(message.content))) problems.push("a half reply shows live");
      if (entries.some((entry) => entry.kind === "message" && isHalfReply(entry.message.content)))
        problems.push("a half reply was saved");
      try {
        const outcome = faultCase.outcome;
        const retries = events.filter((event) => event.event === "custom").length;
        if ("recovers" in outcome) {
          expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
          expect(lastContent(entries)).toBe(FAULT_REPLY_TEXT);
          // A stall case may also time out a reply that only paused (a busy machine): more tries, never fewer.
          if (faultCase.trigger.startsWith("fault:stall")) expect(retries).toBeGreaterThanOrEqual(faultCase.strikes);
          else expect(retries).toBe(faultCase.strikes);
        } else if ("sentence" in outcome) {
          expect(events.find((event) => event.event === "error")?.data).toMatchObject({ message: outcome.sentence });
          const last = entries.at(-1);
          expect(last?.kind === "error" && last.error.message).toBe(outcome.sentence);
          expect(retries).toBe(3);
        } else {
          expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
          outcome.check(entries);
        }
        // The next message works.
        const next = await runThread(gateway, thread.thread_id, "keep this too: 8");
        expect(next.at(-1)).toEqual({ event: "end", data: { status: "success" } });
        const after = (await gateway.threads.get(thread.thread_id))?.entries ?? [];
        expect(lastContent(after)).toBe("You said: keep this too: 8");
      } catch (error) {
        problems.push(error instanceof Error ? error.message.split("\n")[0]! : String(error));
      }
      recordCase("model-faults", {
        case: faultCase.name,
        survived: problems.length === 0,
        lost,
        recoveryMs,
        ...(problems.length > 0 && { detail: problems.join("; ") }),
      });
      expect(problems).toEqual([]);
    },
    60_000,
  );
});
