// Registers Fawn's WebMCP tools with the browser (`document.modelContext`, Chromium with WebMCP on), so an agent in the
// browser lists and calls them. main.tsx loads this chunk only where the browser offers WebMCP.
import type { Stores } from "../state/stores.tsx";
import { createFawnTools, type ToolResult } from "./fawn-tools.ts";
import { FAWN_TOOL_DEFINITIONS, inputJsonSchema } from "./tool-definitions.ts";

/** The part of WebMCP's `ModelContext` Fawn uses (https://webmachinelearning.github.io/webmcp/). */
interface ModelContext {
  registerTool(
    tool: {
      name: string;
      description: string;
      inputSchema: Record<string, unknown>;
      annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean };
      execute: (input: unknown) => Promise<ToolResult>;
    },
    options?: { signal?: AbortSignal },
  ): unknown;
}

/** The browser's WebMCP entry point, where it has one. */
export function modelContext(): ModelContext | undefined {
  const holder = document as Document & { modelContext?: ModelContext };
  const nav = navigator as Navigator & { modelContext?: ModelContext };
  return holder.modelContext ?? nav.modelContext;
}

/**
 * Registers every tool over the page's current stores (`stores()`: the shown workspace's, looked up at each call);
 * aborting `signal` unregisters them. Resolves once the browser has taken them all.
 */
export async function registerFawnTools(stores: () => Stores | undefined, signal?: AbortSignal): Promise<void> {
  const context = modelContext();
  if (!context) return;
  const call = createFawnTools(stores);
  await Promise.all(
    FAWN_TOOL_DEFINITIONS.map((definition) =>
      context.registerTool(
        {
          name: definition.name,
          description: definition.description,
          inputSchema: inputJsonSchema(definition),
          annotations: { readOnlyHint: definition.readOnly, untrustedContentHint: definition.untrustedContent },
          execute: (input) => call(definition, input),
        },
        signal && { signal },
      ),
    ),
  );
}
