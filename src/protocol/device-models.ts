// On this device (Settings → Models): GGUF model files kept in this browser's storage and run by llama.cpp in a worker
// of their own (docs/architecture.md#d6-models-and-keys).

/** A model file kept in the browser (the origin private file system). */
export interface DeviceModelFile {
  /** How the endpoint's model entry names it: the file's name, lowercased, with only letters, digits, `.`, `-`, `_`. */
  id: string;
  /** The file's name as it was chosen or downloaded. */
  name: string;
  /** Bytes. */
  size: number;
  /** The address it was downloaded from; absent for a file chosen from disk. */
  source?: string;
  /** The context length the model was trained for, from the file's metadata, when it says. */
  contextLength?: number;
  /** When it was kept (ISO 8601). */
  addedAt: string;
}

/** How far a model file's copy or download has come: bytes so far and, when known, in all. */
export type DeviceModelProgress = (received: number, total: number | undefined) => void;

/** A small instruct model worth suggesting, with what it can honestly do. */
export interface RecommendedDeviceModel {
  name: string;
  /** A direct address of its GGUF file (Hugging Face's `resolve` form). */
  url: string;
  /** About how many bytes the file has (shown rounded). */
  size: number;
  /** One sentence: what it is good for and where it falls short. */
  note: string;
  /** The context window Fawn sets for it (tokens). */
  contextWindow: number;
}

/**
 * The suggestions: instruct models with a chat template for tools, quantized to 4 bits. Small models follow Fawn's
 * long system prompt loosely; the larger the model, the better its tool calls.
 */
export const RECOMMENDED_DEVICE_MODELS: readonly RecommendedDeviceModel[] = [
  {
    name: "Qwen2.5 0.5B Instruct (Q4_K_M)",
    url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf",
    size: 491_000_000,
    note: "Fast on any laptop; short answers and simple commands, often wrong on anything with several steps.",
    contextWindow: 16_384,
  },
  {
    name: "Qwen2.5 1.5B Instruct (Q4_K_M)",
    url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
    size: 1_120_000_000,
    note: "A fair balance: follows instructions and calls tools reliably for one or two steps.",
    contextWindow: 16_384,
  },
  {
    name: "Qwen2.5 3B Instruct (Q4_K_M)",
    url: "https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf",
    size: 2_100_000_000,
    note: "The most capable here: better plans and code, but slow on a CPU (a few tokens a second) and needs 3 GB free.",
    contextWindow: 16_384,
  },
];

/**
 * The context window an on-device model gets unless the user sets another in Settings → Models: at most this (its
 * memory grows with it), and no more than the model was trained for.
 */
export const DEVICE_CONTEXT_WINDOW = 16_384;

/** The context window a newly kept file starts with. */
export function deviceContextWindow(file: Pick<DeviceModelFile, "contextLength">): number {
  return Math.min(file.contextLength ?? DEVICE_CONTEXT_WINDOW, DEVICE_CONTEXT_WINDOW);
}

/**
 * A Hugging Face page's address of a file (`…/blob/main/x.gguf`) as its download address (`…/resolve/main/x.gguf`);
 * other addresses as they are.
 */
export function deviceModelDownloadUrl(address: string): string {
  const url = new URL(address.trim());
  if (/^(?:www\.)?(?:huggingface\.co|hf\.co)$/.test(url.hostname)) {
    url.pathname = url.pathname.replace(/^(\/[^/]+\/[^/]+)\/blob\//, "$1/resolve/");
  }
  return url.href;
}

/** A model file's id from its name: lowercased, other characters than letters, digits, `.`, `-`, `_` made `-`. */
export function deviceModelId(name: string): string {
  const id = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "")
    .slice(0, 120);
  return id || "model.gguf";
}
