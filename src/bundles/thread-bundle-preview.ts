// What a `.fawn` bundle holds, as the page shows it before an import (a share link, a file opened or shared to the
// app): its title, how many messages, its files. Read from the bundle's records alone, so nothing is written.
import type { ThreadBundlePreview } from "../protocol/index.ts";
import type { ChannelVersionKey, MessageListBlob } from "../storage/index.ts";
import { refsOfChain } from "../storage/index.ts";
import type { BundledThread } from "./thread-bundle.ts";

/** The LangChain classes (the last part of a serialized message's `id`) the page shows as messages. */
const SHOWN = /^(HumanMessage|AIMessage|AIMessageChunk)$/;

/** The bundle's title, its user and assistant messages as of its latest checkpoint, and its files with their sizes. */
export function previewThreadBundle({ records, files }: BundledThread): ThreadBundlePreview {
  return {
    title: records.thread.title,
    message_count: shownMessageCount(records),
    files: files.map((file) => ({ path: file.path, size: file.bytes.byteLength })),
  };
}

/**
 * The user and assistant messages the thread's latest top-level checkpoint lists, or its entries hold (threads from
 * before checkpoints). A message that cannot be read counts: the page would show something for it.
 */
function shownMessageCount(records: BundledThread["records"]): number {
  const latest = records.checkpoints
    .filter((checkpoint) => checkpoint.checkpoint_ns === "")
    .reduce<(typeof records.checkpoints)[number] | undefined>(
      (last, next) => (!last || next.checkpoint_id > last.checkpoint_id ? next : last),
      undefined,
    );
  const version = latest?.channel_versions.messages;
  if (version === undefined) {
    return records.entries.filter(
      ({ entry }) => entry.kind === "message" && (entry.message.type === "human" || entry.message.type === "ai"),
    ).length;
  }
  // The list's chain of records, tip first, as the checkpointer reads it (indexeddb-checkpoint-saver.ts).
  const blobs = records.checkpoint_blobs.filter((blob) => blob.checkpoint_ns === "" && blob.channel === "messages");
  const chain: MessageListBlob[] = [];
  for (let next: ChannelVersionKey | undefined = version; next !== undefined && chain.length < 64;) {
    const blob = blobs.find((candidate) => candidate.version === next);
    if (!blob || blob.kind !== "messages") break;
    chain.push(blob);
    next = blob.seq === 0 ? undefined : blob.base;
  }
  const messages = new Map(
    records.checkpoint_messages.map((message) => [refKey(message.message_id, message.hash), message]),
  );
  return refsOfChain(chain).filter(([id, hash]) => isShown(messages.get(refKey(id, hash))?.bytes)).length;
}

function refKey(messageId: string, hash: string): string {
  return `${messageId}\u0000${hash}`;
}

/** Whether a message serialized by LangChain (`{"lc":1,"type":"constructor","id":[…,"HumanMessage"],…}`) is shown. */
function isShown(bytes: Uint8Array | undefined): boolean {
  if (!bytes) return true;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { id?: unknown };
    const name = Array.isArray(parsed.id) ? parsed.id.at(-1) : undefined;
    return typeof name !== "string" || SHOWN.test(name);
  } catch {
    return true;
  }
}
