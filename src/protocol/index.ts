// The protocol layer's public surface.
export * from "./messages.ts";
export * from "./run-events.ts";
export * from "./gateway.ts";
export * from "./changes.ts";
export * from "./web-tools.ts";
export * from "./human-input.ts";
export * from "./uploads.ts";
export * from "./memory.ts";
export * from "./skills.ts";
export * from "./subagents.ts";
export * from "./thread-import.ts";
export * from "./data-backup.ts";
export * from "./pending-tool-calls.ts";
export * from "./thread-share.ts";
export * from "./mcp.ts";
export * from "./mcp-tool-names.ts";
export * from "./model-providers.ts";
