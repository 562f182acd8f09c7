// The composer's check of chosen files against the upload limits, before anything is sent (the Gateway checks again).
import { UPLOAD_LIMITS, type UploadLimits } from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";

/** Why these files cannot be sent together, in a sentence; undefined when they can. */
export function uploadProblem(
  files: readonly { name: string; size: number }[],
  limits: UploadLimits = UPLOAD_LIMITS,
): string | undefined {
  if (files.length > limits.max_files) {
    return `You can attach at most ${limits.max_files} files to a message; you chose ${files.length}.`;
  }
  const big = files.find((file) => file.size > limits.max_file_size);
  if (big) {
    return `${big.name} is ${formatBytes(big.size)}; a file can be at most ${formatBytes(limits.max_file_size)}.`;
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > limits.max_total_size) {
    return `These files add up to ${formatBytes(total)}; a message can carry at most ${formatBytes(limits.max_total_size)}.`;
  }
  return undefined;
}
