import { describe, expect, it } from "vitest";
import type { RunError, WireMessage } from "../protocol/index.ts";
import type { StoredEntry } from "../storage/index.ts";
import { composeHistory } from "./thread-history.ts";

const human = (id: string): WireMessage => ({ type: "human", id, content: id });
const ai = (id: string): WireMessage => ({ type: "ai", id, content: id });
const failure: RunError = { error: "authentication", message: "bad key" };

describe("composeHistory", () => {
  it("shows a thread from before checkpoints exactly as stored", () => {
    const stored: StoredEntry[] = [
      { kind: "message", message: human("h1") },
      { kind: "error", id: "e1", error: failure, at: 1 },
    ];
    expect(composeHistory(stored, undefined)).toEqual(stored);
  });

  it("places errors after the messages that preceded them and marks stopped replies", () => {
    const stored: StoredEntry[] = [
      { kind: "run-error", id: "e1", error: failure, at: 1, after: 1 },
      { kind: "stopped", id: "s1", message_id: "a2" },
      { kind: "run-error", id: "e2", error: failure, at: 2, after: 4 },
    ];
    const history = composeHistory(stored, [human("h1"), human("h2"), ai("a2"), human("h3")]);
    expect(history.map((entry) => (entry.kind === "error" ? entry.id : entry.message.id))).toEqual([
      "h1",
      "e1",
      "h2",
      "a2",
      "h3",
      "e2",
    ]);
    expect(history[3]).toMatchObject({ kind: "message", stopped: true });
  });

  it("keeps the errors and stopped marks of messages stored before the thread had checkpoints", () => {
    const stored: StoredEntry[] = [
      { kind: "message", message: human("h1") },
      { kind: "error", id: "old", error: failure, at: 1 },
      { kind: "message", message: human("h2") },
      { kind: "message", message: ai("a2"), stopped: true },
    ];
    const history = composeHistory(stored, [human("h1"), human("h2"), ai("a2"), human("h3"), ai("a3")]);
    expect(history.map((entry) => (entry.kind === "error" ? entry.id : entry.message.id))).toEqual([
      "h1",
      "old",
      "h2",
      "a2",
      "h3",
      "a3",
    ]);
    expect(history[3]).toMatchObject({ stopped: true });
  });
});
