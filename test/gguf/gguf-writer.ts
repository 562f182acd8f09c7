// A GGUF (version 3) writer for test and benchmark models: metadata, tensor infos, aligned tensor data, as llama.cpp
// reads them (ggml/docs/gguf.md). Tensors are produced chunk by chunk, so a benchmark model of gigabytes is written to
// disk without holding it in memory. Only the types Fawn's models use: F32, F16 and Q4_0.

/** A metadata value with its GGUF type. Arrays hold one element type. */
export type GgufValue =
  | { type: "u32"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "f32[]"; value: ArrayLike<number> }
  | { type: "i32[]"; value: ArrayLike<number> };

/** ggml's tensor types that this writer makes. */
export const GGML_TYPE = { F32: 0, F16: 1, Q4_0: 2 } as const;
export type GgmlType = (typeof GGML_TYPE)[keyof typeof GGML_TYPE];

export interface GgufTensor {
  name: string;
  /** ggml's order: dims[0] is the row length (the fastest-moving index). */
  dims: readonly number[];
  type: GgmlType;
  /** The tensor's bytes, in chunks, exactly `tensorBytes(type, dims)` in all. */
  data: () => Iterable<Uint8Array>;
}

const ALIGNMENT = 32;
const VALUE_TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
const encoder = new TextEncoder();

/** Bytes a tensor of `type` and `dims` takes (Q4_0: 18 bytes for each block of 32 weights). */
export function tensorBytes(type: GgmlType, dims: readonly number[]): number {
  const count = dims.reduce((product, dim) => product * dim, 1);
  if (type === GGML_TYPE.F32) return count * 4;
  if (type === GGML_TYPE.F16) return count * 2;
  if (dims[0]! % 32 !== 0) throw new Error(`Q4_0 rows must be a multiple of 32 long, not ${dims[0]}.`);
  return (count / 32) * 18;
}

/** Grows as it is written; `bytes()` is what was written. */
class ByteSink {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  u32(value: number): void {
    this.room(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }
  i32(value: number): void {
    this.room(4);
    this.view.setInt32(this.length, value, true);
    this.length += 4;
  }
  u64(value: number): void {
    this.room(8);
    this.view.setBigUint64(this.length, BigInt(value), true);
    this.length += 8;
  }
  f32(value: number): void {
    this.room(4);
    this.view.setFloat32(this.length, value, true);
    this.length += 4;
  }
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  string(value: string): void {
    const bytes = encoder.encode(value);
    this.u64(bytes.length);
    this.raw(bytes);
  }
  pad(): void {
    const padding = (ALIGNMENT - (this.length % ALIGNMENT)) % ALIGNMENT;
    this.raw(new Uint8Array(padding));
  }
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  switch (value.type) {
    case "u32":
      sink.u32(VALUE_TYPE.u32);
      return sink.u32(value.value);
    case "i32":
      sink.u32(VALUE_TYPE.i32);
      return sink.i32(value.value);
    case "f32":
      sink.u32(VALUE_TYPE.f32);
      return sink.f32(value.value);
    case "bool":
      sink.u32(VALUE_TYPE.bool);
      return sink.raw(new Uint8Array([value.value ? 1 : 0]));
    case "string":
      sink.u32(VALUE_TYPE.string);
      return sink.string(value.value);
    case "string[]":
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.string);
      sink.u64(value.value.length);
      for (const item of value.value) sink.string(item);
      return;
    case "f32[]":
    case "i32[]": {
      const f32 = value.type === "f32[]";
      sink.u32(VALUE_TYPE.array);
      sink.u32(f32 ? VALUE_TYPE.f32 : VALUE_TYPE.i32);
      sink.u64(value.value.length);
      for (let index = 0; index < value.value.length; index++) {
        if (f32) sink.f32(value.value[index]!);
        else sink.i32(value.value[index]!);
      }
      return;
    }
  }
}

/** The file's chunks: the header with metadata and tensor infos, then each tensor's data, aligned. */
export function* ggufChunks(
  metadata: Record<string, GgufValue>,
  tensors: readonly GgufTensor[],
): Generator<Uint8Array> {
  const header = new ByteSink();
  header.raw(encoder.encode("GGUF"));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  const sizes = tensors.map((tensor) => tensorBytes(tensor.type, tensor.dims));
  tensors.forEach((tensor, index) => {
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(tensor.type);
    header.u64(offset);
    offset += Math.ceil(sizes[index]! / ALIGNMENT) * ALIGNMENT;
  });
  header.pad();
  yield header.bytes();
  for (const [index, tensor] of tensors.entries()) {
    let written = 0;
    for (const chunk of tensor.data()) {
      written += chunk.length;
      yield chunk;
    }
    if (written !== sizes[index]) {
      throw new Error(`Tensor ${tensor.name}: ${written} bytes written, ${sizes[index]} expected.`);
    }
    const padding = (ALIGNMENT - (written % ALIGNMENT)) % ALIGNMENT;
    if (padding) yield new Uint8Array(padding);
  }
}

/** The whole file in memory (for small models). */
export function ggufBytes(metadata: Record<string, GgufValue>, tensors: readonly GgufTensor[]): Uint8Array {
  const chunks = [...ggufChunks(metadata, tensors)];
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** An F32 tensor from its values (ggml's order: row after row of dims[0] values). */
export function f32Tensor(name: string, dims: readonly number[], values: Float32Array): GgufTensor {
  return {
    name,
    dims,
    type: GGML_TYPE.F32,
    data: () => [new Uint8Array(values.buffer, values.byteOffset, values.byteLength)],
  };
}
