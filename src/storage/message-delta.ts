// Message lists (the "messages" channel) stored so that a step writes bytes in proportion to what changed
// (docs/architecture.md#d2-storage), not to the thread's length.
//
// Each message is one record, content-addressed by [thread, message id, hash of its serialized bytes]: a message
// is written once, and an edited message (same id, other bytes) is simply another record. A version of the list
// is a small record of `[id, hash]` refs. Versions form chains like a Fenwick tree: the record with sequence
// number k holds the refs appended since the record with sequence k - lowbit(k) (its `base`), which is always on
// the parent version's chain. So rebuilding any version reads at most log2(k) + 1 list records, and a step that
// appends m messages writes m message records plus, on average, about m·log2(k)/2 refs. A list that is not the
// parent's list plus appended messages (removed, reordered or edited messages, or no parent) starts a new chain
// with a root record (sequence 0) holding every ref; its messages already stored are not written again.
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChannelVersionKey, MessageListBlob, MessageRef } from "./fawn-db.ts";

/** A list record together with the version it is stored under. */
export type MessageListLink = MessageListBlob & { version: ChannelVersionKey };

/** True for a LangChain message that carries a non-empty string id. */
export function isIdentifiedMessage(item: unknown): item is BaseMessage & { id: string } {
  return isBaseMessage(item) && typeof item.id === "string" && item.id !== "";
}

/** True for a non-empty array of LangChain messages that all carry a non-empty string id. */
export function isIdentifiedMessageList(value: unknown): value is (BaseMessage & { id: string })[] {
  return Array.isArray(value) && value.length > 0 && value.every(isIdentifiedMessage);
}

/**
 * A 64-bit hash of `bytes` (two independent 32-bit multiply-xor lanes, as in cyrb53) prefixed with the length:
 * it tells an edited message from the stored one; it is not meant to resist deliberate collisions.
 */
export function hashBytes(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    h1 = Math.imul(h1 ^ byte, 2654435761);
    h2 = Math.imul(h2 ^ byte, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return `${bytes.length.toString(36)}.${hex(h1)}${hex(h2)}`;
}

/** The lowest set bit of a positive integer. */
function lowbit(k: number): number {
  return k & -k;
}

/** The sequence number of the record a record with sequence `seq` is based on. */
export function baseSeq(seq: number): number {
  return seq - lowbit(seq);
}

/** All refs of the list whose chain is `chain` (tip first, down to a root record). */
export function refsOfChain(chain: readonly MessageListBlob[]): MessageRef[] {
  const refs: MessageRef[] = [];
  for (let i = chain.length - 1; i >= 0; i--) refs.push(...(chain[i] as MessageListBlob).refs);
  return refs;
}

/** Checks that a chain read from storage is complete and consistent; a broken chain must not be trusted. */
export function isCompleteChain(chain: readonly MessageListBlob[]): boolean {
  if (chain.length === 0) return false;
  for (let i = 0; i < chain.length; i++) {
    const link = chain[i] as MessageListBlob;
    const next = chain[i + 1];
    if (next === undefined) return link.seq === 0 && link.refs.length === link.len;
    if (next.seq !== baseSeq(link.seq) || link.len - link.refs.length !== next.len) return false;
  }
  return false;
}

function sameRef(a: MessageRef, b: MessageRef): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

export interface MessageListPlan {
  /** The list record to store under the new version. */
  record: MessageListBlob;
  /**
   * Where the refs whose message records may not be stored yet start in `refs`: after the parent's, or 0 for a new
   * root (`refs.slice(unstoredFrom)`).
   */
  unstoredFrom: number;
}

/**
 * Plans the list record for a new version whose refs are `refs`, given the chain of the version it was derived
 * from (tip first), if that version was stored as a message list. `extendsParent`: the caller knows `refs` start with
 * the parent list's refs (it built the list from that very list), so they are not compared again.
 */
export function planMessageList(
  refs: readonly MessageRef[],
  parentChain?: readonly MessageListLink[],
  extendsParent = false,
): MessageListPlan {
  const root = (): MessageListPlan => ({
    record: { kind: "messages", seq: 0, len: refs.length, refs: [...refs] },
    unstoredFrom: 0,
  });
  if (!parentChain || !isCompleteChain(parentChain)) return root();
  const tip = parentChain[0] as MessageListLink;
  const parentLength = tip.len;
  if (refs.length < parentLength) return root();
  if (!extendsParent) {
    const parentRefs = refsOfChain(parentChain);
    for (let i = 0; i < parentLength; i++)
      if (!sameRef(parentRefs[i] as MessageRef, refs[i] as MessageRef)) return root();
  }
  const seq = tip.seq + 1;
  const base = parentChain.find((link) => link.seq === baseSeq(seq));
  if (!base) return root();
  return {
    record: { kind: "messages", seq, len: refs.length, base: base.version, refs: refs.slice(base.len) },
    unstoredFrom: parentLength,
  };
}
