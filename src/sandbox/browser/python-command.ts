// just-bash commands `python3` and `python`: each run hands the shell's files under /mnt/user-data and /mnt/skills to a
// PythonRunner, then writes back what the program changed under /mnt/user-data, so redirections, pipes and the next
// command see it as they would on a real machine.
import {
  defineCommand,
  type Command,
  type ExecResult,
  type IFileSystem,
  type ResolvedCommandContext,
} from "just-bash/browser";
import { DEFAULT_COMMAND_TIMEOUT_MS, SKILLS_ROOT, USER_DATA_ROOT } from "../sandbox.ts";
import type { PythonRunner, PythonRunResult } from "../python/python-runner.ts";

export interface PythonCommandOptions {
  /** How long one program may run (default DEFAULT_COMMAND_TIMEOUT_MS, never beyond the shell's own time limit). */
  timeoutMs?: number;
}

/** `python3` and `python`, both running their programs on `runner`; pass them to just-bash as custom commands. */
export function createPythonCommands(runner: PythonRunner, options: PythonCommandOptions = {}): Command[] {
  const execute = async (args: string[], ctx: ResolvedCommandContext): Promise<ExecResult> => {
    const { files, directories } = await snapshot(ctx.fs, [USER_DATA_ROOT, SKILLS_ROOT]);
    const result = await runner.run(
      {
        argv: args,
        stdin: decodeStdin(ctx.stdin),
        cwd: ctx.cwd,
        files,
        directories,
        env: ctx.exportedEnv ?? Object.fromEntries(ctx.env),
        timeoutMs: Math.min(options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, ctx.limits.maxExecutionTimeMs),
      },
      ctx.signal,
    );
    const problems = await applyChanges(ctx.fs, result);
    return { stdout: result.stdout, stderr: result.stderr + problems.join(""), exitCode: result.exitCode };
  };
  return [defineCommand("python3", execute), defineCommand("python", execute)];
}

/** Every file (with its bytes) and directory under `roots`; a symbolic link counts as what it points to. */
async function snapshot(
  fs: IFileSystem,
  roots: string[],
): Promise<{ files: Record<string, Uint8Array>; directories: string[] }> {
  const files: Record<string, Uint8Array> = {};
  const directories: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const name of await fs.readdir(dir)) {
      const path = `${dir}/${name}`;
      const stat = await fs.stat(path).catch(() => undefined);
      if (stat?.isFile) {
        files[path] = await fs.readFileBuffer(path);
      } else if (stat?.isDirectory && !stat.isSymbolicLink) {
        directories.push(path);
        await visit(path);
      }
    }
  };
  for (const root of roots) if (await fs.exists(root)) await visit(root);
  return { files, directories };
}

/**
 * Writes the program's changes into the shell's file system (deletions first, so a file may replace a directory and
 * the other way round). Returns a stderr line for each change that could not be made.
 */
async function applyChanges(fs: IFileSystem, result: PythonRunResult): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (path: string, change: () => Promise<void>) => {
    if (!path.startsWith(`${USER_DATA_ROOT}/`)) return;
    await change().catch((error: unknown) =>
      problems.push(
        `python3: could not keep the change to ${path}: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
    );
  };
  for (const path of result.deleted) await attempt(path, () => fs.rm(path, { force: true }));
  for (const path of result.deletedDirectories ?? [])
    await attempt(path, () => fs.rm(path, { recursive: true, force: true }));
  for (const path of result.createdDirectories ?? []) await attempt(path, () => fs.mkdir(path, { recursive: true }));
  for (const [path, bytes] of Object.entries(result.written)) {
    await attempt(path, async () => {
      if ((await fs.stat(path).catch(() => undefined))?.isDirectory)
        await fs.rm(path, { recursive: true, force: true });
      await fs.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await fs.writeFile(path, bytes);
    });
  }
  return problems;
}

/**
 * Decodes stdin as UTF-8 text. just-bash hands it over as a latin1 "byte string" (one char per byte); its decoding
 * helper is not exported by the browser build, hence the cast.
 */
function decodeStdin(stdin: ResolvedCommandContext["stdin"]): string {
  const latin1 = stdin as unknown as string;
  return new TextDecoder().decode(Uint8Array.from(latin1, (char) => char.charCodeAt(0)));
}
