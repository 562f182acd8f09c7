// Artifacts: the files the agent hands the user. `present_files` adds paths under /mnt/user-data/outputs to the
// thread's `artifacts` state, deduplicated in order (DeerFlow's reducer), and the UI lists them for download.
import { ToolMessage } from "@langchain/core/messages";
import { Command, ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware, tool, type ToolRuntime } from "langchain";
import { z } from "zod";
import { OUTPUTS_DIR, resolveSandboxPath, type Sandbox } from "../../sandbox/sandbox.ts";

/** `current` then the paths of `next` it does not have yet, in order; either may be missing. */
export function mergeArtifacts(current: readonly string[] | undefined, next: readonly string[] | undefined): string[] {
  return [...new Set([...(current ?? []), ...(next ?? [])])];
}

/** The presentable form of a path, or a sentence saying why it is refused. */
export function presentablePath(path: string): { path: string } | { error: string } {
  try {
    const resolved = resolveSandboxPath(path, "read");
    if (resolved.startsWith(`${OUTPUTS_DIR}/`)) return { path: resolved };
  } catch {
    // Refused paths get the same answer as paths outside outputs.
  }
  return { error: `Error: Only files in ${OUTPUTS_DIR} can be presented: ${path}` };
}

const artifactsState = new StateSchema({
  // Optional rather than defaulted: createAgent refuses to start while a required field is missing from the input.
  artifacts: new ReducedValue(z.array(z.string()).optional(), {
    inputSchema: z.array(z.string()).optional(),
    reducer: mergeArtifacts,
  }),
});

function presentFilesTool(getSandbox: () => Promise<Sandbox>) {
  return tool(
    async ({ filepaths }, runtime: ToolRuntime) => {
      const reply = (content: string, artifacts: string[] = []) =>
        new Command({
          update: {
            ...(artifacts.length > 0 && { artifacts }),
            messages: [new ToolMessage({ content, tool_call_id: runtime.toolCallId, name: "present_files" })],
          },
        });
      const paths: string[] = [];
      for (const requested of filepaths) {
        const checked = presentablePath(requested);
        if ("error" in checked) return reply(checked.error);
        paths.push(checked.path);
      }
      const sandbox = await getSandbox();
      for (const path of paths) {
        const entry = await sandbox.stat(path).catch(() => undefined);
        if (entry?.type !== "file") return reply(`Error: No such file to present: ${path}`);
      }
      return reply("Successfully presented files", mergeArtifacts([], paths));
    },
    {
      name: "present_files",
      description:
        "Show finished files to the user in the Artifacts panel, where they can preview and download them. " +
        "Only files under /mnt/user-data/outputs can be presented; call this once the files are written.",
      schema: z.object({
        filepaths: z.array(z.string()).min(1).describe("Absolute paths of files under /mnt/user-data/outputs."),
      }),
    },
  );
}

/** Adds `artifacts` to the agent's state and the `present_files` tool. */
export function artifactsMiddleware(getSandbox: () => Promise<Sandbox>) {
  return createMiddleware({
    name: "ArtifactsMiddleware",
    stateSchema: artifactsState,
    tools: [presentFilesTool(getSandbox)],
  });
}
