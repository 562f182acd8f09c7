// GGUF models with random weights in the shapes of real small instruct models (Qwen2.5 0.5B, 1.5B and 3B, as llama
// architecture with tied embeddings), quantized to Q4_0: they cost llama.cpp what real ones of that size cost, and say
// nothing sensible. For `npm run bench:on-device`; written to disk a chunk at a time.
import { randomFillSync } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { GGML_TYPE, ggufChunks, tensorBytes, type GgufTensor, type GgufValue } from "./gguf-writer.ts";

export interface ModelShape {
  /** What the shape is taken from, e.g. "Qwen2.5 0.5B". */
  name: string;
  embedding: number;
  layers: number;
  heads: number;
  kvHeads: number;
  feedForward: number;
  vocab: number;
}

/** Qwen2.5's published shapes (config.json of each model). */
export const MODEL_SHAPES: readonly ModelShape[] = [
  { name: "0.5B", embedding: 896, layers: 24, heads: 14, kvHeads: 2, feedForward: 4864, vocab: 151_936 },
  { name: "1.5B", embedding: 1536, layers: 28, heads: 12, kvHeads: 2, feedForward: 8960, vocab: 151_936 },
  { name: "3B", embedding: 2048, layers: 36, heads: 16, kvHeads: 2, feedForward: 11_008, vocab: 151_936 },
];

/** Parameters of the shape (the embeddings counted once: they are tied to the output). */
export function parameterCount(shape: ModelShape): number {
  const kv = (shape.embedding / shape.heads) * shape.kvHeads;
  const perLayer =
    2 * shape.embedding * shape.embedding + 2 * shape.embedding * kv + 3 * shape.embedding * shape.feedForward;
  return shape.vocab * shape.embedding + shape.layers * (perLayer + 2 * shape.embedding) + shape.embedding;
}

/** Q4_0 blocks of random 4-bit weights, each scaled by about 0.01 (f16 0x211f), in chunks of about 1 MB. */
function* randomQ4(dims: readonly number[]): Generator<Uint8Array> {
  const total = tensorBytes(GGML_TYPE.Q4_0, dims);
  const blocksPerChunk = 58_254; // 18 bytes each: about 1 MB
  for (let done = 0; done < total;) {
    const bytes = Math.min(blocksPerChunk * 18, total - done);
    const chunk = randomFillSync(new Uint8Array(bytes));
    for (let at = 0; at < bytes; at += 18) {
      chunk[at] = 0x1f;
      chunk[at + 1] = 0x21;
    }
    done += bytes;
    yield chunk;
  }
}

function onesTensor(name: string, length: number): GgufTensor {
  return {
    name,
    dims: [length],
    type: GGML_TYPE.F32,
    data: () => [new Uint8Array(new Float32Array(length).fill(1).buffer)],
  };
}

function q4Tensor(name: string, dims: number[]): GgufTensor {
  return { name, dims, type: GGML_TYPE.Q4_0, data: () => randomQ4(dims) };
}

/** Writes a random model of `shape` to `path`; resolves to its size in bytes. */
export async function writeRandomModel(shape: ModelShape, path: string): Promise<number> {
  const { embedding: d, feedForward: ff, vocab } = shape;
  const kv = (d / shape.heads) * shape.kvHeads;
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [2, 3, 3];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  while (tokens.length < vocab) {
    tokens.push(`t${tokens.length}`);
    types.push(1);
  }
  const metadata: Record<string, GgufValue> = {
    "general.architecture": { type: "string", value: "llama" },
    "general.name": { type: "string", value: `Random weights shaped like Qwen2.5 ${shape.name}` },
    "llama.context_length": { type: "u32", value: 32_768 },
    "llama.embedding_length": { type: "u32", value: d },
    "llama.block_count": { type: "u32", value: shape.layers },
    "llama.feed_forward_length": { type: "u32", value: ff },
    "llama.attention.head_count": { type: "u32", value: shape.heads },
    "llama.attention.head_count_kv": { type: "u32", value: shape.kvHeads },
    "llama.attention.layer_norm_rms_epsilon": { type: "f32", value: 1e-6 },
    "llama.rope.freq_base": { type: "f32", value: 1_000_000 },
    "tokenizer.ggml.model": { type: "string", value: "llama" },
    "tokenizer.ggml.tokens": { type: "string[]", value: tokens },
    "tokenizer.ggml.scores": { type: "f32[]", value: new Float32Array(vocab) },
    "tokenizer.ggml.token_type": { type: "i32[]", value: types },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: 1 },
    "tokenizer.ggml.eos_token_id": { type: "u32", value: 2 },
    "tokenizer.ggml.unknown_token_id": { type: "u32", value: 0 },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: true },
  };
  const tensors: GgufTensor[] = [q4Tensor("token_embd.weight", [d, vocab]), onesTensor("output_norm.weight", d)];
  for (let layer = 0; layer < shape.layers; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      onesTensor(`${blk}.attn_norm.weight`, d),
      q4Tensor(`${blk}.attn_q.weight`, [d, d]),
      q4Tensor(`${blk}.attn_k.weight`, [d, kv]),
      q4Tensor(`${blk}.attn_v.weight`, [d, kv]),
      q4Tensor(`${blk}.attn_output.weight`, [d, d]),
      onesTensor(`${blk}.ffn_norm.weight`, d),
      q4Tensor(`${blk}.ffn_gate.weight`, [d, ff]),
      q4Tensor(`${blk}.ffn_up.weight`, [d, ff]),
      q4Tensor(`${blk}.ffn_down.weight`, [ff, d]),
    );
  }
  const out = createWriteStream(path);
  let size = 0;
  for (const chunk of ggufChunks(metadata, tensors)) {
    size += chunk.length;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return size;
}
