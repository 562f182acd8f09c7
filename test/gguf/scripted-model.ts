// A tiny GGUF model whose replies are known in advance, for tests of the on-device provider: a real llama
// architecture run by llama.cpp (wllama), a real SentencePiece-style tokenizer (byte fallback), a real chat template
// in the Hermes/Qwen style with tools, and weights chosen so that the next token depends only on the last one.
//
// How: every layer's attention and feed-forward output weights are zero, so the hidden state is the last token's
// embedding. The tokens of the scripts have one-hot embeddings, and the output matrix maps each to its successor with a
// margin no sampler setting overturns. The chat template ends the prompt with a cue token chosen from the conversation,
// and each cue starts one script:
// - `tool`: the user's turn asks for nothing special and tools are offered: a call of the bash tool
//   (TOOL_CALL_COMMAND, whose output the model cannot know without running it), then the end of the turn. For the
//   call's arguments the model's first choice is not JSON (MALFORMED_ARGUMENTS): the call comes out valid only
//   because llama.cpp holds it to the tool's JSON schema with a grammar;
// - `answer`: the last message other than the user's is a tool's result: ANSWER_TEXT;
// - `stream`: the user's message contains "stream": " la la la…" without end (for Stop and streaming);
// - `text`: no tools offered (titles, suggestions, memory): TEXT_REPLY;
// - `think`: as `tool`, when the request's chat template arguments switch thinking on (`enable_thinking`, Qwen 3's
//   switch): THINKING_TEXT inside `<think>` first, then the same call.
import { ggufBytes, f32Tensor, type GgufTensor, type GgufValue } from "./gguf-writer.ts";

export const TOOL_CALL_COMMAND = "echo tiny-model-ran-$((6*7))";
export const TOOL_CALL_OUTPUT = "tiny-model-ran-42";
export const ANSWER_TEXT = "The sandbox ran the command for me.";
export const TEXT_REPLY = "Scripted reply";
export const THINKING_TEXT = "The scripted command needs the sandbox.";

const N_EMBD = 64;
const N_HEAD = 4;
const N_FF = 128;
const N_LAYER = 1;
/** The context the model was "trained" for, and what tests set as its context window. */
export const SCRIPTED_CONTEXT = 32_768;
/** The logit of a script's next token: far above every other's (0), whatever the temperature or top-k. */
const MARGIN = 6;

/** Token types in tokenizer.ggml.token_type (llama.cpp's llama_token_type). */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const BYTE = 6;

/** What the `malformed` script would say, were its call not held to the tool's JSON schema by llama.cpp's grammar. */
export const MALFORMED_ARGUMENTS = "{command: echo unchecked}";

interface Script {
  cue: string;
  /** What the model says after the cue, one token each, then the end of its turn (or the first piece again). */
  pieces: string[];
  loop?: boolean;
  /** Where the model's first choice is `piece` instead (its second is the script's): a grammar must refuse it. */
  preferred?: { at: number; piece: string };
}

/** The scripts: a cue token, then the pieces the model says after it. */
function scripts(): Script[] {
  const args = JSON.stringify({ description: "Run the scripted command", command: TOOL_CALL_COMMAND });
  const call = ["<tool_call>", '\n{"name": "bash", "arguments": ', args, "}\n", "</tool_call>"];
  return [
    // The model would rather write arguments that are not JSON (unquoted keys and text): only the grammar llama.cpp
    // derives from the tools' schemas, once "<tool_call>" has started a call, keeps it to its second choice.
    {
      cue: "<|cue_tool|>",
      pieces: call,
      preferred: { at: 2, piece: MALFORMED_ARGUMENTS },
    },
    {
      cue: "<|cue_think|>",
      pieces: ["<think>", `\n${THINKING_TEXT}\n`, "</think>", "\n\n", ...call],
      preferred: { at: 6, piece: MALFORMED_ARGUMENTS },
    },
    { cue: "<|cue_answer|>", pieces: ANSWER_TEXT.match(/\S+\s?/g)! },
    { cue: "<|cue_stream|>", pieces: [" la"], loop: true },
    { cue: "<|cue_text|>", pieces: ["Scripted", " reply"] },
  ];
}

/**
 * The chat template (Jinja, as llama.cpp renders it): ChatML turns, tools listed in the system turn, calls in
 * `<tool_call>` tags, results as `<tool_response>` in a user turn (Qwen 2.5's conventions), and the cue last.
 */
const CHAT_TEMPLATE = `{%- if tools %}<|im_start|>system
{%- if messages[0].role == 'system' %}
{{ messages[0].content }}
{%- endif %}

# Tools
<tools>
{%- for tool in tools %}
{{ tool | tojson }}
{%- endfor %}
</tools>
Call a tool with <tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' %}<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{%- if message.reasoning_content is defined and message.reasoning_content %}
<think>
{{ message.reasoning_content }}
</think>
{%- endif %}
{%- if message.content %}
{{ message.content }}
{%- endif %}
{%- if message.tool_calls %}
{%- for tool_call in message.tool_calls %}
{%- set call = tool_call.function if tool_call.function is defined else tool_call %}
<tool_call>
{"name": "{{ call.name }}", "arguments": {{ call.arguments if call.arguments is string else call.arguments | tojson }}}
</tool_call>
{%- endfor %}
{%- endif %}<|im_end|>
{% elif message.role == 'tool' %}<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{% endif %}
{%- endfor %}
{%- set ns = namespace(last_other='') %}
{%- for message in messages %}{% if message.role != 'user' %}{% set ns.last_other = message.role %}{% endif %}{% endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% if not tools %}<|cue_text|>{% elif ns.last_other == 'tool' %}<|cue_answer|>{% elif messages[-1].content is string and 'stream' in messages[-1].content %}<|cue_stream|>{% elif enable_thinking is defined and enable_thinking %}<|cue_think|>{% elif enable_thinking is defined %}<think>\n\n</think>\n\n{% else %}<|cue_tool|>{% endif %}
{%- endif %}`;

/** The model's tokenizer and weights; the file is small (about 150 KB). */
export function scriptedModelGguf(): Uint8Array {
  const tokens: string[] = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
  const types: number[] = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL];
  const EOS = 4;
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(BYTE);
  }
  tokens.push("\u2581");
  types.push(NORMAL);
  // One token for each script piece (the same text twice is one token) and each cue.
  const idOf = new Map<string, number>();
  const add = (text: string, type: number): number => {
    const known = idOf.get(text);
    if (known !== undefined) return known;
    idOf.set(text, tokens.length);
    tokens.push(text);
    types.push(type);
    return tokens.length - 1;
  };
  /** Each script token's successors: the first choice with the full margin, a second (if any) with half of it. */
  const next = new Map<number, number[]>();
  const follow = (from: number, to: number[]) => {
    const known = next.get(from);
    if (known && known.join() !== to.join()) throw new Error(`Token ${tokens[from]} has two different successors.`);
    next.set(from, to);
  };
  for (const script of scripts()) {
    let previous = add(script.cue, CONTROL);
    const ids = script.pieces.map((piece) => add(piece, USER_DEFINED));
    ids.forEach((id, index) => {
      if (script.preferred?.at === index) {
        const preferred = add(script.preferred.piece, USER_DEFINED);
        follow(previous, [preferred, id]);
        follow(preferred, [ids[index + 1] ?? EOS]);
      } else {
        follow(previous, [id]);
      }
      previous = id;
    });
    follow(previous, [script.loop ? ids[0]! : EOS]);
  }
  const vocab = tokens.length;
  const scripted = [...next.keys()];
  if (scripted.length > N_EMBD)
    throw new Error(`${scripted.length} script tokens need more than ${N_EMBD} dimensions.`);
  const slot = new Map(scripted.map((id, index) => [id, index]));

  const embeddings = new Float32Array(vocab * N_EMBD);
  const output = new Float32Array(vocab * N_EMBD);
  for (const [id, successors] of next) {
    const dim = slot.get(id)!;
    embeddings[id * N_EMBD + dim] = 1;
    // RMS norm turns the one-hot row into sqrt(N_EMBD) at `dim`; the first successor's logit is MARGIN times that, the
    // second's half as much: still far above every other token's 0.
    successors.forEach((successor, rank) => {
      output[successor * N_EMBD + dim] = rank === 0 ? MARGIN : MARGIN / 2;
    });
  }
  const ones = new Float32Array(N_EMBD).fill(1);
  const zeros = (count: number) => new Float32Array(count);
  const tensors: GgufTensor[] = [
    f32Tensor("token_embd.weight", [N_EMBD, vocab], embeddings),
    f32Tensor("output_norm.weight", [N_EMBD], ones),
    f32Tensor("output.weight", [N_EMBD, vocab], output),
  ];
  for (let layer = 0; layer < N_LAYER; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      f32Tensor(`${blk}.attn_norm.weight`, [N_EMBD], ones),
      f32Tensor(`${blk}.attn_q.weight`, [N_EMBD, N_EMBD], zeros(N_EMBD * N_EMBD)),
      f32Tensor(`${blk}.attn_k.weight`, [N_EMBD, N_EMBD], zeros(N_EMBD * N_EMBD)),
      f32Tensor(`${blk}.attn_v.weight`, [N_EMBD, N_EMBD], zeros(N_EMBD * N_EMBD)),
      f32Tensor(`${blk}.attn_output.weight`, [N_EMBD, N_EMBD], zeros(N_EMBD * N_EMBD)),
      f32Tensor(`${blk}.ffn_norm.weight`, [N_EMBD], ones),
      f32Tensor(`${blk}.ffn_gate.weight`, [N_EMBD, N_FF], zeros(N_EMBD * N_FF)),
      f32Tensor(`${blk}.ffn_up.weight`, [N_EMBD, N_FF], zeros(N_EMBD * N_FF)),
      f32Tensor(`${blk}.ffn_down.weight`, [N_FF, N_EMBD], zeros(N_FF * N_EMBD)),
    );
  }
  const metadata: Record<string, GgufValue> = {
    "general.architecture": { type: "string", value: "llama" },
    "general.name": { type: "string", value: "Fawn scripted test model" },
    "llama.context_length": { type: "u32", value: SCRIPTED_CONTEXT },
    "llama.embedding_length": { type: "u32", value: N_EMBD },
    "llama.block_count": { type: "u32", value: N_LAYER },
    "llama.feed_forward_length": { type: "u32", value: N_FF },
    "llama.attention.head_count": { type: "u32", value: N_HEAD },
    "llama.attention.head_count_kv": { type: "u32", value: N_HEAD },
    "llama.attention.layer_norm_rms_epsilon": { type: "f32", value: 1e-6 },
    "llama.rope.dimension_count": { type: "u32", value: N_EMBD / N_HEAD },
    "tokenizer.ggml.model": { type: "string", value: "llama" },
    "tokenizer.ggml.tokens": { type: "string[]", value: tokens },
    "tokenizer.ggml.scores": { type: "f32[]", value: new Float32Array(vocab) },
    "tokenizer.ggml.token_type": { type: "i32[]", value: types },
    "tokenizer.ggml.bos_token_id": { type: "u32", value: 1 },
    "tokenizer.ggml.eos_token_id": { type: "u32", value: EOS },
    "tokenizer.ggml.unknown_token_id": { type: "u32", value: 0 },
    "tokenizer.ggml.add_bos_token": { type: "bool", value: false },
    "tokenizer.chat_template": { type: "string", value: CHAT_TEMPLATE },
  };
  return ggufBytes(metadata, tensors);
}
