// DeerFlow's output limits for sandbox tools: bash keeps the head and tail of a long output, file reads keep the head.
// The truncation helpers live in shared/ so the MCP layer caps its tools' output the same way.
export { truncateHead, truncateMiddle } from "../../shared/text.ts";

export const BASH_OUTPUT_MAX_CHARS = 20_000;
export const READ_FILE_OUTPUT_MAX_CHARS = 50_000;
export const LS_OUTPUT_MAX_CHARS = 20_000;
