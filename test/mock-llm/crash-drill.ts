// The mock model's crash drill (test/e2e/crash.spec.ts): one turn of five steps, long enough (~5 s of the model's
// own) to be cut anywhere: a file written by `write_file` with its arguments streaming, a command that takes 1 s and
// writes a file, a second streamed `write_file`, `present_files`, and a closing reply streamed word by word.
import type { ChatRequest, Scenario, Script, ToolCallScript } from "./scenarios.ts";

/** The message that starts a drill; KEY (lowercase letters and digits) names its files and its closing reply. */
export const CRASH_DRILL_TRIGGER = /\bcrash drill ([a-z0-9]+)\b/;

/** The files a drill leaves in the thread's outputs, in the order its steps write them. */
export function crashDrillFiles(key: string): { path: string; content: string }[] {
  return [
    { path: `/mnt/user-data/outputs/drill-${key}-1.md`, content: drillText(key, 1) },
    // The command's `echo` adds the newline.
    { path: `/mnt/user-data/outputs/drill-${key}-2.txt`, content: `drill ${key}, file 2, written by a command\n` },
    { path: `/mnt/user-data/outputs/drill-${key}-3.md`, content: drillText(key, 3) },
  ];
}

/** The drill's closing reply: the turn is finished once it is saved whole. */
export function crashDrillDoneText(key: string): string {
  return `Drill ${key} is done: three files are written and two of them are presented, each in full, in order, with nothing left out and nothing written twice.`;
}

function drillText(key: string, file: number): string {
  return Array.from({ length: 40 }, (_, line) => `Drill ${key}, file ${file}, line ${line + 1} of 40.`).join("\n");
}

function chunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

function call(name: string, args: Record<string, unknown>): ToolCallScript {
  return { name, arguments: JSON.stringify(args) };
}

/** The script of the drill's next step: which one is known from how many replies the model gave since the user's message. */
function drillStep(key: string, request: ChatRequest): Script {
  const index = request.messages.map((m) => m.role).lastIndexOf("user");
  const round = request.messages.slice(index + 1).filter((m) => m.role === "assistant").length;
  const [first, second, third] = crashDrillFiles(key);
  switch (round) {
    case 0:
      return {
        kind: "tool_calls",
        calls: [call("write_file", { description: "Write the first notes", ...first })],
        delayMs: 50,
        argumentParts: 12,
      };
    case 1:
      return {
        kind: "tool_calls",
        calls: [
          call("bash", {
            description: "Write the second file",
            command: `sleep 1; echo "drill ${key}, file 2, written by a command" > ${second?.path}; echo written`,
          }),
        ],
        delayMs: 40,
      };
    case 2:
      return {
        kind: "tool_calls",
        calls: [call("write_file", { description: "Write the third notes", ...third })],
        delayMs: 50,
        argumentParts: 12,
      };
    case 3:
      return {
        kind: "tool_calls",
        calls: [call("present_files", { filepaths: [first?.path, third?.path] })],
        delayMs: 40,
      };
    default:
      return { kind: "text", chunks: chunks(crashDrillDoneText(key)), delayMs: 60 };
  }
}

export const crashDrill: Scenario = {
  name: "crash-drill",
  trigger: '"crash drill KEY" with write_file, bash and present_files available',
  reply:
    "write_file drill-KEY-1.md (streamed, ~0.6 s), bash writing drill-KEY-2.txt (1 s), write_file drill-KEY-3.md, present_files, then a sentence (~1.5 s)",
  matches: (request) => {
    const user = request.messages.findLast((m) => m.role === "user")?.text.toLowerCase() ?? "";
    return (
      CRASH_DRILL_TRIGGER.test(user) &&
      ["write_file", "bash", "present_files"].every((name) => request.toolNames.includes(name))
    );
  },
  respond: (request) => {
    const user = request.messages.findLast((m) => m.role === "user")?.text.toLowerCase() ?? "";
    return drillStep(CRASH_DRILL_TRIGGER.exec(user)?.[1] ?? "", request);
  },
};
