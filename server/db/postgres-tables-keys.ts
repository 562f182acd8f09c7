// Fawn's keys as bytes whose order is IndexedDB's order of the keys (numbers < strings < arrays, strings by UTF-16
// code unit, arrays element by element), so Postgres sorts and ranges them as `bytea`: `ORDER BY sort_key` is key
// order and the keys an array prefix or a string prefix covers are one range of bytes. A tuple encoding, as
// FoundationDB's: each part self-delimiting, so one key's bytes never start another's but for a real prefix.
//   number: 0x10, then the float64's 8 bytes big-endian, sign flipped (all bits flipped when negative)
//   string: 0x20, then each code unit (1 to 3 bytes, order-preserving, never starting with 0x00), then 0x00
//   array:  0x30, then each element, then 0x00
import { assertKey, type Key, type KeyMatch } from "../../src/storage/index.ts";

const NUMBER = 0x10;
const STRING = 0x20;
const ARRAY = 0x30;
const END = 0x00;

function pushNumber(out: number[], value: number): void {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value === 0 ? 0 : value); // -0 is the same key as 0
  const bytes = new Uint8Array(view.buffer);
  const negative = (bytes[0]! & 0x80) !== 0;
  out.push(NUMBER);
  for (const byte of bytes) out.push(negative ? ~byte & 0xff : byte);
  if (!negative) out[out.length - 8]! ^= 0x80;
}

/** A code unit's bytes: 0x0000–0x007E as one byte (0x01–0x7F), then two (0x80–0xBF, …), then three (0xC0, …, …). */
function pushCodeUnits(out: number[], text: string): void {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x7f) out.push(unit + 1);
    else if (unit < 0x7f + 0x4000) {
      const rest = unit - 0x7f;
      out.push(0x80 + (rest >> 8), rest & 0xff);
    } else {
      const rest = unit - 0x407f;
      out.push(0xc0, rest >> 8, rest & 0xff);
    }
  }
}

function pushKey(out: number[], key: Key): void {
  if (typeof key === "number") pushNumber(out, key);
  else if (typeof key === "string") {
    out.push(STRING);
    pushCodeUnits(out, key);
    out.push(END);
  } else {
    out.push(ARRAY);
    for (const part of key) pushKey(out, part);
    out.push(END);
  }
}

/** A key's bytes; IndexedDB's DataError when it is no valid key. */
export function encodeKey(key: Key): Buffer {
  assertKey(key);
  const out: number[] = [];
  pushKey(out, key);
  return Buffer.from(out);
}

/** The bytes every key `match` covers starts with (and only those keys). */
export function matchPrefix(match: KeyMatch): Buffer {
  const out: number[] = [];
  const within = Array.isArray(match) ? (match as readonly Key[]) : (match as { within?: readonly Key[] }).within;
  if (within !== undefined) {
    assertKey(within as Key[]);
    out.push(ARRAY);
    for (const part of within) pushKey(out, part);
  }
  if (!Array.isArray(match)) {
    out.push(STRING);
    pushCodeUnits(out, (match as { startsWith: string }).startsWith);
  }
  return Buffer.from(out);
}

/** The first byte string after every one that starts with `prefix` (undefined when there is none). */
export function prefixEnd(prefix: Uint8Array): Buffer | undefined {
  const end = Buffer.from(prefix);
  for (let index = end.length - 1; index >= 0; index--) {
    if (end[index]! < 0xff) {
      end[index]! += 1;
      return end.subarray(0, index + 1);
    }
  }
  return undefined;
}
