// A tiny HTTP server that replays recorded provider streams (test/fixtures/provider-streams/) byte for byte: each model
// request gets the next recording of the queue, written in the chunks a `Chunking` cuts it into (whole, one SSE event
// per write, or small pieces split inside UTF-8 characters and CRLFs), so a client's stream parser meets the bytes as a
// real network could deliver them. Node only (the integration tests).
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { seededRandom } from "./reliability.ts";

/** The folder of the recordings; SOURCES.md there names where each one comes from. */
export const PROVIDER_STREAMS_DIR = resolve(import.meta.dirname, "../fixtures/provider-streams");

/** The bytes of a recording, as the provider sent them. */
export function readRecording(file: string): Buffer {
  return readFileSync(resolve(PROVIDER_STREAMS_DIR, file));
}

/**
 * How a recording is cut into writes: `whole` in one write, `by-event` at each blank line that ends an SSE event,
 * `awkward` into seeded pieces of 1 to 40 bytes that also split every multi-byte UTF-8 character and every CRLF.
 */
export type Chunking = "whole" | "by-event" | "awkward";
export const CHUNKINGS: readonly Chunking[] = ["whole", "by-event", "awkward"];

/** The pieces `chunking` cuts `bytes` into; joined again they are `bytes`, exactly. */
export function chunksOf(bytes: Buffer, chunking: Chunking, seed = 1): Buffer[] {
  const cuts = new Set<number>();
  if (chunking === "by-event") {
    for (let at = 0; at < bytes.length - 1; at++) {
      if (bytes[at] === 0x0a && bytes[at + 1] === 0x0a) cuts.add(at + 2);
      if (bytes[at] === 0x0a && bytes[at + 1] === 0x0d && bytes[at + 2] === 0x0a) cuts.add(at + 3);
    }
  }
  if (chunking === "awkward") {
    const random = seededRandom(seed);
    for (let at = 1 + Math.floor(random() * 40); at < bytes.length; at += 1 + Math.floor(random() * 40)) cuts.add(at);
    for (let at = 1; at < bytes.length; at++) {
      const byte = bytes[at]!;
      // Inside a multi-byte character (a continuation byte) or between CR and LF.
      if ((byte & 0xc0) === 0x80 || (byte === 0x0a && bytes[at - 1] === 0x0d)) cuts.add(at);
    }
  }
  const points = [...cuts].filter((at) => at > 0 && at < bytes.length).sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const at of points) {
    pieces.push(bytes.subarray(start, at));
    start = at;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** One reply of the queue: a recording and the content type it is served with. */
export interface ReplayReply {
  file: string;
  contentType?: string;
}

export interface ReplayedRequest {
  method: string;
  path: string;
  body: unknown;
  /** The recording that answered, or undefined when the queue was empty (answered 500). */
  file?: string;
}

export interface ProviderReplay {
  /** http://127.0.0.1:PORT (no path: each case adds its provider's). */
  origin: string;
  requests: ReplayedRequest[];
  /** Serves `replies` in order, one per model request, cut by `chunking`; forgets earlier requests. */
  load(replies: ReplayReply[], chunking: Chunking, seed?: number): void;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Writes each piece as its own write, a macrotask apart, so the client reads them apart too. */
async function writePieces(response: ServerResponse, pieces: Buffer[]): Promise<void> {
  for (const piece of pieces) {
    if (response.destroyed) return;
    response.write(piece);
    if (pieces.length > 1) await new Promise((done) => setImmediate(done));
  }
  response.end();
}

export async function startProviderReplay(): Promise<ProviderReplay> {
  let queue: ReplayReply[] = [];
  let chunking: Chunking = "whole";
  let seed = 1;
  const requests: ReplayedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = request.url ?? "/";
      const reply = request.method === "POST" ? queue.shift() : undefined;
      requests.push({ method: request.method ?? "GET", path, body, ...(reply && { file: reply.file }) });
      if (!reply) {
        response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `No recording left for ${request.method} ${path}` } }));
        return;
      }
      const bytes = readRecording(reply.file);
      response.socket?.setNoDelay(true);
      response.writeHead(200, {
        "content-type": reply.contentType ?? "text/event-stream",
        "cache-control": "no-cache",
      });
      await writePieces(response, chunksOf(bytes, chunking, seed++));
    })();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    load(replies, how, firstSeed = 1) {
      queue = [...replies];
      chunking = how;
      seed = firstSeed;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
