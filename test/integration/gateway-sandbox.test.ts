// The agent's sandbox tools and the Terminal's commands through the Gateway, in Node, with the scripted mock model.
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import type { RunEvent, ThreadEntry } from "../../src/protocol/index.ts";
import { bootFakeSlot } from "../../src/sandbox/webcontainer/fake-webcontainer.ts";
import { PageSandboxServer } from "../../src/sandbox/webcontainer/page-sandbox-server.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("gateway-sandbox-test");

const run = (threadId: string, text: string, onEvent?: (event: RunEvent) => void): Promise<RunEvent[]> =>
  runThread(harness.gateway, threadId, text, onEvent);

const callTool = (name: string, args: Record<string, unknown>) =>
  `call tool ${name} ${JSON.stringify({ description: "test", ...args })}`;

function toolResults(entries: ThreadEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry.kind === "message" && entry.message.type === "tool" ? [String(entry.message.content)] : [],
  );
}

async function storedFile(threadId: string, path: string): Promise<string | undefined> {
  const file = await (await harness.storage()).files.read(threadId, path);
  return file && new TextDecoder().decode(file.bytes);
}

describe("the agent's sandbox tools", () => {
  it("runs bash, keeps the file it wrote, and the model sees the output", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await run(
      thread.thread_id,
      callTool("bash", {
        command:
          "mkdir -p /mnt/user-data/outputs && echo '# Report' > /mnt/user-data/outputs/report.md && ls /mnt/user-data/outputs",
      }),
    );
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(toolResults(detail?.entries ?? [])).toEqual(["report.md"]);
    expect(await storedFile(thread.thread_id, "/mnt/user-data/outputs/report.md")).toBe("# Report\n");
    const last = detail?.entries.at(-1);
    expect(last?.kind === "message" && last.message.content).toBe("The tool returned: report.md");
  });

  it("refuses paths outside the sandbox and writes under /mnt/skills, in words the model can act on", async () => {
    const thread = await harness.gateway.threads.create();
    await run(thread.thread_id, callTool("read_file", { path: "/mnt/user-data/../../x" }));
    await run(thread.thread_id, callTool("write_file", { path: "/mnt/skills/evil.md", content: "x" }));
    const results = toolResults((await harness.gateway.threads.get(thread.thread_id))?.entries ?? []);
    expect(results[0]).toMatch(
      /^Error: Refused path "\/mnt\/user-data\/\.\.\/\.\.\/x": "\." and "\.\." are not allowed/,
    );
    expect(results[1]).toMatch(/^Error: Refused to write \/mnt\/skills\/evil\.md: \/mnt\/skills is read-only/);
  });

  it("writes and reads files with write_file and read_file, with line ranges", async () => {
    const thread = await harness.gateway.threads.create();
    await run(
      thread.thread_id,
      callTool("write_file", { path: "/mnt/user-data/workspace/a.txt", content: "1\n2\n3\n4\n5\n" }),
    );
    await run(thread.thread_id, callTool("read_file", { path: "/mnt/user-data/workspace/a.txt", start_line: 3 }));
    await run(thread.thread_id, callTool("ls", { path: "/mnt/user-data" }));
    const results = toolResults((await harness.gateway.threads.get(thread.thread_id))?.entries ?? []);
    expect(results).toEqual([
      "OK",
      "3\n4\n5",
      "/mnt/user-data/outputs/\n/mnt/user-data/uploads/\n/mnt/user-data/workspace/\n/mnt/user-data/workspace/a.txt",
    ]);
  });

  it("streams each tool result whole as its call ends, apart from the model's words", async () => {
    const thread = await harness.gateway.threads.create();
    const calls = [
      `write_file ${JSON.stringify({ description: "test", path: "/mnt/user-data/workspace/a.txt", content: "hi" })}`,
      `bash ${JSON.stringify({ description: "test", command: "echo done" })}`,
    ];
    const events = await run(thread.thread_id, `call tools ${calls.join("; ")}`);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const streamed = events.flatMap((event) => (event.event === "messages" ? [event.data[0]] : []));
    // Before, the results "OK" and "done" came as pieces of a reply while the step was still running.
    const words = streamed.flatMap((chunk) => (chunk.type === "AIMessageChunk" ? [chunk.content] : []));
    expect(words.join("")).toBe("The tool returned: done");
    const results = streamed.flatMap((chunk) => (chunk.type === "tool" ? [[chunk.name, chunk.content]] : []));
    expect(results.sort()).toEqual([
      ["bash", "done"],
      ["write_file", "OK"],
    ]);
    expect(toolResults((await harness.gateway.threads.get(thread.thread_id))?.entries ?? [])).toEqual(["OK", "done"]);
  });

  it("stops a bash call when the user stops the run; the next message is a valid request", async () => {
    const thread = await harness.gateway.threads.create();
    let runId = "";
    const events = await run(thread.thread_id, callTool("bash", { command: "sleep 30" }), (event) => {
      if (event.event === "metadata") runId = event.data.run_id;
      if (event.event === "updates" && JSON.stringify(event.data).includes("tool_calls")) {
        setTimeout(() => void harness.gateway.runs.cancel(runId), 200);
      }
    });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "interrupted" } });
    const next = await run(thread.thread_id, "hello");
    expect(next.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const request = harness.mock.requests.at(-1)?.body as { messages: { role: string; tool_call_id?: string }[] };
    expect(request.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
  });
});

describe("the Terminal's commands", () => {
  it("runs a command in the thread's sandbox, carries cwd and env, and keeps files", async () => {
    const thread = await harness.gateway.threads.create();
    const first = await harness.gateway.sandbox.exec({
      command_id: "c1",
      thread_id: thread.thread_id,
      command: "cd ../outputs && echo hi > t.txt && export NAME=fawn",
    });
    expect(first).toMatchObject({ exit_code: 0, cwd: "/mnt/user-data/outputs" });
    const second = await harness.gateway.sandbox.exec({
      command_id: "c2",
      thread_id: thread.thread_id,
      command: "cat t.txt; echo $NAME",
      cwd: first.cwd,
      env: first.env,
    });
    expect(second.stdout).toBe("hi\nfawn\n");
    expect(await storedFile(thread.thread_id, "/mnt/user-data/outputs/t.txt")).toBe("hi\n");
    expect(await harness.gateway.sandbox.info(thread.thread_id)).toEqual({
      kind: "browser",
      cwd: "/mnt/user-data/workspace",
    });
  });

  it("cancels a command, refuses an unknown thread, and reports a refused working directory", async () => {
    const thread = await harness.gateway.threads.create();
    const running = harness.gateway.sandbox.exec({
      command_id: "slow",
      thread_id: thread.thread_id,
      command: "sleep 30",
    });
    setTimeout(() => void harness.gateway.sandbox.cancel("slow"), 100);
    expect(await running).toMatchObject({ stopped: "cancelled", exit_code: 130 });
    await expect(harness.gateway.sandbox.exec({ command_id: "x", thread_id: "nope", command: "ls" })).rejects.toThrow(
      /no thread/,
    );
    const refused = await harness.gateway.sandbox.exec({
      command_id: "y",
      thread_id: thread.thread_id,
      command: "ls",
      cwd: "/etc",
    });
    expect(refused).toMatchObject({ exit_code: 1, stderr: expect.stringMatching(/outside the sandbox/) as string });
  });
});

describe("Settings → Sandbox: WebContainer on the page", () => {
  /** A PageSandboxServer over the fake WebContainer, on the "page" end of a MessageChannel. */
  async function pageHost() {
    const { slot } = await bootFakeSlot({ workdirName: "fawn" });
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(new PageSandboxServer(slot), port2);
    return { host: Comlink.wrap<PageSandboxServer>(port1), close: () => (port1.close(), port2.close()) };
  }

  it("runs the thread's commands in WebContainer once the page attaches it, keeping files in IndexedDB", async () => {
    const { host, close } = await pageHost();
    const gateway = harness.gateway;
    expect(await gateway.settings.getSandbox()).toEqual({ provider: "browser" });
    expect(await gateway.settings.saveSandbox({ provider: "webcontainer" })).toEqual({ provider: "webcontainer" });
    await gateway.sandbox.attachHost(host);
    const thread = await gateway.threads.create();
    const result = await gateway.sandbox.exec({
      command_id: "w1",
      thread_id: thread.thread_id,
      command: "echo from-wc > /mnt/user-data/outputs/wc.txt && cat /mnt/user-data/outputs/wc.txt",
    });
    expect(result).toMatchObject({ exit_code: 0, stdout: "from-wc\n" });
    expect(await gateway.sandbox.info(thread.thread_id)).toEqual({
      kind: "webcontainer",
      cwd: "/mnt/user-data/workspace",
    });
    expect(await storedFile(thread.thread_id, "/mnt/user-data/outputs/wc.txt")).toBe("from-wc\n");
    close();
  });

  it("falls back to the browser sandbox with the page's notice when WebContainer could not start", async () => {
    const gateway = harness.gateway;
    await gateway.settings.saveSandbox({ provider: "webcontainer" });
    await gateway.sandbox.attachHost(null, "WebContainer did not start within 30 s.");
    const thread = await gateway.threads.create();
    expect(
      (await gateway.sandbox.exec({ command_id: "b1", thread_id: thread.thread_id, command: "echo ok" })).stdout,
    ).toBe("ok\n");
    expect(await gateway.sandbox.info(thread.thread_id)).toEqual({
      kind: "browser",
      cwd: "/mnt/user-data/workspace",
      notice: "WebContainer did not start within 30 s.",
    });
    await expect(gateway.settings.saveSandbox({ provider: "docker" } as never)).rejects.toThrow(
      /"browser" or "webcontainer"/,
    );
  });
});

describe("present_files", () => {
  it("adds output files to the thread's artifacts once each, in order, and the file can be downloaded", async () => {
    const thread = await harness.gateway.threads.create();
    await run(
      thread.thread_id,
      callTool("bash", {
        command: "echo '# R' > /mnt/user-data/outputs/report.md && echo a,b > /mnt/user-data/outputs/t.csv",
      }),
    );
    await run(thread.thread_id, 'call tool present_files {"filepaths":["/mnt/user-data/outputs/report.md"]}');
    await run(
      thread.thread_id,
      'call tool present_files {"filepaths":["/mnt/user-data/outputs/t.csv","/mnt/user-data/outputs/report.md"]}',
    );
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(detail?.artifacts).toEqual(["/mnt/user-data/outputs/report.md", "/mnt/user-data/outputs/t.csv"]);
    expect(toolResults(detail?.entries ?? []).slice(1)).toEqual([
      "Successfully presented files",
      "Successfully presented files",
    ]);
    const file = await harness.gateway.threads.readFile(thread.thread_id, "/mnt/user-data/outputs/report.md");
    expect(new TextDecoder().decode(file.bytes)).toBe("# R\n");
    expect(file.mime_type).toBe("text/markdown");
    await expect(harness.gateway.threads.readFile(thread.thread_id, "/mnt/user-data/outputs/none.md")).rejects.toThrow(
      /has no file/,
    );
  });

  it("refuses files outside outputs and files that do not exist, changing nothing", async () => {
    const thread = await harness.gateway.threads.create();
    await run(thread.thread_id, 'call tool present_files {"filepaths":["/mnt/user-data/workspace/a.md"]}');
    await run(thread.thread_id, 'call tool present_files {"filepaths":["/mnt/user-data/outputs/missing.md"]}');
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(toolResults(detail?.entries ?? [])).toEqual([
      "Error: Only files in /mnt/user-data/outputs can be presented: /mnt/user-data/workspace/a.md",
      "Error: No such file to present: /mnt/user-data/outputs/missing.md",
    ]);
    expect(detail?.artifacts).toEqual([]);
  });
});

describe("ask_clarification", () => {
  it("ends the run with the question, and the user's answer continues the thread", async () => {
    const thread = await harness.gateway.threads.create();
    const events = await run(
      thread.thread_id,
      'call tool ask_clarification {"question":"Which format?","clarification_type":"approach_choice","options":["PDF","Plain text"]}',
    );
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    expect(harness.mock.requests).toHaveLength(1);
    const detail = await harness.gateway.threads.get(thread.thread_id);
    expect(toolResults(detail?.entries ?? [])).toEqual(["🔀 Which format?\n\n  1. PDF\n  2. Plain text"]);

    await run(thread.thread_id, "PDF");
    const request = harness.mock.requests.at(-1)?.body as { messages: { role: string }[] };
    expect(request.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    const last = (await harness.gateway.threads.get(thread.thread_id))?.entries.at(-1);
    expect(last?.kind === "message" && last.message.content).toBe("You said: PDF");
  });
});
