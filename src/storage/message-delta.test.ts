import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import type { ChannelVersionKey, MessageListBlob, MessageRef } from "./fawn-db.ts";
import {
  baseSeq,
  hashBytes,
  isCompleteChain,
  isIdentifiedMessageList,
  planMessageList,
  refsOfChain,
  type MessageListLink,
} from "./message-delta.ts";

const encode = (text: string) => new TextEncoder().encode(text);

/** Stores list records by version, as the saver does, and reads chains back. */
class ListStore {
  readonly records = new Map<ChannelVersionKey, MessageListBlob>();
  chain(version: ChannelVersionKey): MessageListLink[] {
    const chain: MessageListLink[] = [];
    let next: ChannelVersionKey | undefined = version;
    while (next !== undefined) {
      const record = this.records.get(next);
      if (!record) throw new Error(`missing ${next}`);
      chain.push({ ...record, version: next });
      next = record.seq === 0 ? undefined : record.base;
    }
    return chain;
  }
}

describe("isIdentifiedMessageList", () => {
  it("accepts non-empty lists of messages that all have ids", () => {
    expect(isIdentifiedMessageList([new HumanMessage({ content: "hi", id: "1" })])).toBe(true);
  });
  it("rejects everything else", () => {
    expect(isIdentifiedMessageList([])).toBe(false);
    expect(isIdentifiedMessageList([new HumanMessage("no id")])).toBe(false);
    expect(isIdentifiedMessageList([new HumanMessage({ content: "a", id: "1" }), new AIMessage("b")])).toBe(false);
    expect(isIdentifiedMessageList([{ id: "1", content: "plain object" }])).toBe(false);
    expect(isIdentifiedMessageList("messages")).toBe(false);
    expect(isIdentifiedMessageList(undefined)).toBe(false);
  });
});

describe("hashBytes", () => {
  it("is stable and tells different bytes apart", () => {
    expect(hashBytes(encode("hello"))).toBe(hashBytes(encode("hello")));
    expect(hashBytes(encode("hello"))).not.toBe(hashBytes(encode("hellp")));
    expect(hashBytes(encode("ab"))).not.toBe(hashBytes(encode("ba")));
    expect(hashBytes(new Uint8Array())).toMatch(/^0\.[0-9a-f]{16}$/);
  });
});

describe("planMessageList", () => {
  const refs = (n: number, from = 0): MessageRef[] =>
    Array.from({ length: n }, (_, i) => [`m${from + i}`, `h${from + i}`] as MessageRef);

  it("starts a chain with a root holding every ref when there is no parent list", () => {
    const plan = planMessageList(refs(3));
    expect(plan.record).toEqual({ kind: "messages", seq: 0, len: 3, refs: refs(3) });
    expect(plan.unstoredFrom).toBe(0);
  });

  it("stores only appended refs and keeps chains logarithmic over 1,000 appends", () => {
    const store = new ListStore();
    store.records.set(0, planMessageList(refs(2)).record);
    let totalRefs = 0;
    for (let version = 1; version <= 1000; version++) {
      const list = refs(2 * (version + 1));
      const plan = planMessageList(list, store.chain(version - 1));
      expect(list.slice(plan.unstoredFrom)).toEqual(list.slice(-2));
      expect(plan.record.seq).toBe(version);
      totalRefs += plan.record.refs.length;
      store.records.set(version, plan.record);
      const chain = store.chain(version);
      expect(isCompleteChain(chain)).toBe(true);
      expect(chain.length).toBeLessThanOrEqual(Math.floor(Math.log2(version)) + 2);
      expect(refsOfChain(chain)).toEqual(list);
    }
    // Fenwick-style records: about log2(n)/2 steps' worth of refs per step on average.
    expect(totalRefs / 1000).toBeLessThan(2 * 8);
    expect(baseSeq(1000)).toBe(992);
  });

  it("starts a new root when a message was removed, reordered or edited", () => {
    const store = new ListStore();
    store.records.set(1, planMessageList(refs(4)).record);
    const parent = store.chain(1);
    const removed = refs(4).filter((_, i) => i !== 1);
    const reordered = [refs(4)[1], refs(4)[0], ...refs(2, 2)] as MessageRef[];
    const edited = refs(5).map((ref, i): MessageRef => (i === 2 ? [ref[0], "other"] : ref));
    for (const list of [removed, reordered, edited, refs(3)]) {
      const plan = planMessageList(list, parent);
      expect(plan.record.seq).toBe(0);
      expect(plan.record.refs).toEqual(list);
    }
  });

  it("distrusts an incomplete chain", () => {
    const broken: MessageListLink[] = [{ kind: "messages", seq: 3, len: 4, base: 2, refs: refs(1, 3), version: 3 }];
    expect(isCompleteChain(broken)).toBe(false);
    expect(planMessageList(refs(5), broken).record.seq).toBe(0);
  });
});
