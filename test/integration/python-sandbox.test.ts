// python3 in the sandbox: Pyodide in a Node worker thread behind the browser's runner logic, alone and as just-bash
// commands. Slow (Pyodide starts in a few seconds, and again after each stopped program), so one runner is shared.
import { Bash, InMemoryFs } from "just-bash";
import { afterAll, describe, expect, it } from "vitest";
import { createPythonCommands } from "../../src/sandbox/browser/python-command.ts";
import type { PythonRunRequest } from "../../src/sandbox/python/python-runner.ts";
import { OUTPUTS_DIR, stoppedMessage, WORKSPACE_DIR } from "../../src/sandbox/sandbox.ts";
import { NodePythonRunner } from "../support/node-python-runner.ts";

const runner = new NodePythonRunner();
afterAll(() => runner.dispose());

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);

function run(argv: string[], options: Partial<PythonRunRequest> = {}, signal?: AbortSignal) {
  return runner.run({ argv, cwd: WORKSPACE_DIR, files: {}, timeoutMs: 20_000, ...options }, signal);
}

const SALES = "region,amount\nnorth,10\nsouth,20\neast,30\n";

/** A shell over an in-memory file system holding the thread's files, with python3 and python registered. */
function shell(files: Record<string, string>) {
  const fs = new InMemoryFs(files);
  const bash = new Bash({ fs, cwd: WORKSPACE_DIR, customCommands: createPythonCommands(runner) });
  return { fs, bash };
}

describe("python3 on a PythonRunner", () => {
  it("runs -c with its arguments in sys.argv, and says its version", { timeout: 60_000 }, async () => {
    const result = await run(["-c", "import sys; print(sys.argv)", "a", "b c"]);
    expect(result).toMatchObject({ stdout: "['-c', 'a', 'b c']\n", stderr: "", exitCode: 0 });
    expect((await run(["--version"])).stdout).toMatch(/^Python 3\.\d+\.\d+\n$/);
  });

  it("runs a script relative to the working directory, importing a module beside it", async () => {
    const files = {
      [`${WORKSPACE_DIR}/tools/report.py`]: bytes("import sys, helper\nprint(helper.greet(sys.argv[1]), sys.argv)\n"),
      [`${WORKSPACE_DIR}/tools/helper.py`]: bytes("def greet(name):\n    return f'hello {name}'\n"),
    };
    const result = await run(["tools/report.py", "fawn"], { files });
    expect(result.stdout).toBe("hello fawn ['tools/report.py', 'fawn']\n");
    expect(result.exitCode).toBe(0);
    expect(result.written).toEqual({});
  });

  it("reads the program from stdin when no program is named", async () => {
    const result = await run([], { stdin: "import sys\nprint(6 * 7, sys.argv)\n" });
    expect(result.stdout).toBe("42 ['']\n");
  });

  it("gives input() the stdin of a -c program, and EOF after it", async () => {
    const result = await run(["-c", "print(input().upper())\ntry:\n    input()\nexcept EOFError:\n    print('eof')"], {
      stdin: "fawn\n",
    });
    expect(result.stdout).toBe("FAWN\neof\n");
  });

  it("exits with sys.exit's code; a message goes to stderr with code 1", async () => {
    expect((await run(["-c", "import sys; sys.exit(3)"])).exitCode).toBe(3);
    expect((await run(["-c", "import sys; sys.exit()"])).exitCode).toBe(0);
    expect(await run(["-c", "raise SystemExit('no data')"])).toMatchObject({ stderr: "no data\n", exitCode: 1 });
  });

  it("prints an uncaught exception's traceback, only the program's frames, and exits 1", async () => {
    const result = await run(["-c", "def ratio(a, b):\n    return a / b\nprint('before')\nratio(1, 0)"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("before\n");
    expect(result.stderr).toBe(
      [
        "Traceback (most recent call last):",
        '  File "<string>", line 4, in <module>',
        '  File "<string>", line 2, in ratio',
        "ZeroDivisionError: division by zero",
        "",
      ].join("\n"),
    );
  });

  it("reads a CSV from the workspace and hands back the file it wrote, and only that", async () => {
    const result = await run(
      [
        "-c",
        "import csv\nrows = list(csv.DictReader(open('sales.csv')))\ntotal = sum(int(r['amount']) for r in rows)\n" +
          "open('/mnt/user-data/outputs/total.txt', 'w').write(str(total))\nprint(total)",
      ],
      { files: { [`${WORKSPACE_DIR}/sales.csv`]: bytes(SALES) } },
    );
    expect(result.stdout).toBe("60\n");
    expect(Object.keys(result.written)).toEqual([`${OUTPUTS_DIR}/total.txt`]);
    expect(text(result.written[`${OUTPUTS_DIR}/total.txt`])).toBe("60");
    expect(result.deleted).toEqual([]);
  });

  it("reports deleted files and directories", async () => {
    const files = {
      [`${WORKSPACE_DIR}/old.txt`]: bytes("old"),
      [`${WORKSPACE_DIR}/build/a.o`]: bytes("a"),
      [`${WORKSPACE_DIR}/keep.txt`]: bytes("keep"),
    };
    const result = await run(["-c", "import os, shutil\nos.remove('old.txt')\nshutil.rmtree('build')"], { files });
    expect(result.deleted.sort()).toEqual([`${WORKSPACE_DIR}/build/a.o`, `${WORKSPACE_DIR}/old.txt`]);
    expect(result.deletedDirectories).toEqual([`${WORKSPACE_DIR}/build`]);
    expect(result.written).toEqual({});
  });

  it("starts every run clean: no files, modules or variables from the run before", async () => {
    await run(["-c", "import helper\nopen('/tmp/scratch', 'w').write('x')\nopen('secret.txt', 'w').write('s')"], {
      files: { [`${WORKSPACE_DIR}/helper.py`]: bytes("VALUE = 1\n") },
    });
    const result = await run([
      "-c",
      "import os, sys\nprint(os.path.exists('secret.txt'), os.path.exists('/tmp/scratch'), 'helper' in sys.modules, os.listdir('.'))",
    ]);
    expect(result.stdout).toBe("False False False []\n");
    const changed = await run(["-c", "import helper; print(helper.VALUE)"], {
      files: { [`${WORKSPACE_DIR}/helper.py`]: bytes("VALUE = 2\n") },
    });
    expect(changed.stdout).toBe("2\n");
  });

  it("draws new random numbers in every run, as a new process would (also in interpreters from one snapshot)", async () => {
    await run(["-c", "import random; random.seed(7)"]);
    const seven = (await run(["-c", "import random; random.seed(7); print(random.random())"])).stdout;
    const next = (await run(["-c", "import random; print(random.random())"])).stdout;
    expect(next).toMatch(/^0\.\d+\n$/);
    expect(next).not.toBe(seven);
  });

  it("works offline with the standard library; a Pyodide package either loads or says it needs a network", async () => {
    const stdlib = await run(["-c", "import json, sqlite3, statistics; print(statistics.mean([1, 2, 3]))"]);
    expect(stdlib.stdout).toBe("2\n");
    const numpy = await run(["-c", "import numpy; print(numpy.arange(3).sum())"]);
    if (numpy.exitCode === 0) {
      expect(numpy.stdout).toBe("3\n");
    } else {
      expect(numpy.stderr).toContain("ModuleNotFoundError: No module named 'numpy'");
      expect(numpy.stderr).toContain("needs a network connection");
    }
  });

  it("stops an endless loop at its time limit, keeps what it printed, and runs the next program", async () => {
    const result = await run(["-c", "print('working', flush=True)\nwhile True:\n    pass"], { timeoutMs: 2_000 });
    expect(result).toMatchObject({ stopped: "timeout", exitCode: 124, stdout: "working\n" });
    expect(result.stderr).toBe(`${stoppedMessage("timeout", 2_000)}\n`);
    const next = await run(["-c", "print('after')"]);
    expect(next).toMatchObject({ stdout: "after\n", exitCode: 0 });
    expect(next.stopped).toBeUndefined();
  });

  it("ends a running program as cancelled when its signal aborts", async () => {
    const controller = new AbortController();
    const running = run(["-c", "print('spinning', flush=True)\nwhile True:\n    pass"], {}, controller.signal);
    setTimeout(() => controller.abort(), 1_000);
    const result = await running;
    expect(result).toMatchObject({ stopped: "cancelled", exitCode: 130, stdout: "spinning\n" });
    expect(result.stderr).toBe(`${stoppedMessage("cancelled", 20_000)}\n`);
  });

  it("returns at once as cancelled when the signal is already aborted", async () => {
    const result = await run(["-c", "print(1)"], {}, AbortSignal.abort());
    expect(result).toMatchObject({ stopped: "cancelled", exitCode: 130, stdout: "" });
    expect(result.stderr).toBe(`${stoppedMessage("cancelled", 20_000)}\n`);
  });
});

describe("python3 and python as just-bash commands", () => {
  it("runs a heredoc over the shell's files and leaves its output file in the shell", async () => {
    const { fs, bash } = shell({ [`${WORKSPACE_DIR}/sales.csv`]: SALES });
    const result = await bash.exec(
      [
        "python3 <<'EOF'",
        "import csv",
        "rows = list(csv.DictReader(open('sales.csv')))",
        "open('/mnt/user-data/outputs/total.txt', 'w').write(str(sum(int(r['amount']) for r in rows)))",
        "print(len(rows), 'rows')",
        "EOF",
        "cat /mnt/user-data/outputs/total.txt",
      ].join("\n"),
    );
    expect(result).toMatchObject({ stdout: "3 rows\n60", stderr: "", exitCode: 0 });
    expect(await fs.readFile(`${OUTPUTS_DIR}/total.txt`)).toBe("60");
  });

  it("redirects a script's output, passes exit codes and pipes, removes what the program deleted", async () => {
    const { fs, bash } = shell({
      [`${WORKSPACE_DIR}/count.py`]: "import sys\nfor i in range(int(sys.argv[1])):\n    print(i)\n",
      [`${WORKSPACE_DIR}/stale.txt`]: "stale",
    });
    const result = await bash.exec(
      [
        "python3 count.py 3 > out.txt",
        "python -c 'import sys; sys.exit(5)'; echo \"exit $?\"",
        "python3 count.py 4 | wc -l",
        "python3 -c 'import os; os.remove(\"stale.txt\")'",
        "ls",
      ].join("\n"),
    );
    expect(result.stdout.split(/\s+/).filter(Boolean)).toEqual(["exit", "5", "4", "count.py", "out.txt"]);
    expect(await fs.readFile(`${WORKSPACE_DIR}/out.txt`)).toBe("0\n1\n2\n");
    expect(await fs.exists(`${WORKSPACE_DIR}/stale.txt`)).toBe(false);
  });

  it("reads the skills and piped UTF-8 stdin; what it writes under /mnt/skills is not kept", async () => {
    const { fs, bash } = shell({ "/mnt/skills/public/demo/SKILL.md": "# Démo ✓\n" });
    const result = await bash.exec(
      [
        "python3 -c 'print(open(\"/mnt/skills/public/demo/SKILL.md\").read().strip())'",
        "echo 'héllo' | python3 -c 'import sys; print(sys.stdin.read().upper(), end=\"\")'",
        'python3 -c \'open("/mnt/skills/public/demo/new.txt", "w").write("x")\'',
      ].join("\n"),
    );
    expect(result).toMatchObject({ stdout: "# Démo ✓\nHÉLLO\n", exitCode: 0 });
    expect(await fs.exists("/mnt/skills/public/demo/new.txt")).toBe(false);
  });

  it("stops the program when the shell's signal aborts; a fresh worker runs the next one", async () => {
    const { bash } = shell({});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    // just-bash answers an aborted exec itself (124, "execution aborted"); the command passes the signal on.
    const result = await bash.exec("python3 -c 'while True: pass'", { signal: controller.signal });
    expect(result.stderr).toContain("aborted");
    expect((await bash.exec("python3 -c 'print(\"again\")'")).stdout).toBe("again\n");
  });
});
