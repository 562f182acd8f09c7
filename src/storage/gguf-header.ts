// Reads what Fawn needs from the start of a GGUF file (ggml/docs/gguf.md): the context length the model was trained
// for, from its metadata, which comes before the tensors. Only the first bytes are needed; a header longer than what is
// given (a huge tokenizer before the key) gives undefined.

const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;
const decoder = new TextDecoder();

/** `<architecture>.context_length` from a GGUF file's first bytes (version 2 or 3), or undefined. */
export function ggufContextLength(head: Uint8Array): number | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let at = 0;
  const take = (bytes: number): number => {
    if (at + bytes > head.length) throw new RangeError("past the bytes given");
    const start = at;
    at += bytes;
    return start;
  };
  const u32 = () => view.getUint32(take(4), true);
  const u64 = () => Number(view.getBigUint64(take(8), true));
  const text = () => {
    const length = u64();
    const start = take(length);
    return decoder.decode(head.subarray(start, start + length));
  };
  const scalar = (type: number): number | undefined => {
    const size = SCALAR_BYTES[type];
    if (size === undefined) throw new RangeError(`unknown value type ${type}`);
    const start = take(size);
    if (type === 4) return view.getUint32(start, true);
    if (type === 5) return view.getInt32(start, true);
    if (type === 10) return Number(view.getBigUint64(start, true));
    if (type === 11) return Number(view.getBigInt64(start, true));
    return undefined;
  };
  const skipValue = (type: number): void => {
    if (type === STRING) {
      take(u64());
    } else if (type === ARRAY) {
      const itemType = u32();
      const count = u64();
      if (itemType === STRING || itemType === ARRAY) for (let index = 0; index < count; index++) skipValue(itemType);
      else take((SCALAR_BYTES[itemType] ?? Infinity) * count);
    } else {
      scalar(type);
    }
  };
  try {
    if (decoder.decode(head.subarray(0, 4)) !== "GGUF") return undefined;
    take(4);
    if (u32() < 2) return undefined;
    u64(); // tensors
    const pairs = u64();
    let architecture: string | undefined;
    let found: number | undefined;
    for (let index = 0; index < pairs; index++) {
      const key = text();
      const type = u32();
      if (key === "general.architecture" && type === STRING) {
        architecture = text();
      } else if (key.endsWith(".context_length") && type !== STRING && type !== ARRAY) {
        const value = scalar(type);
        if (architecture !== undefined && key === `${architecture}.context_length`) return value;
        found = value;
      } else {
        skipValue(type);
      }
    }
    return found;
  } catch {
    return undefined;
  }
}
