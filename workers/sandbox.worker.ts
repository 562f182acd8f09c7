// Sandbox worker entry point: the browser sandboxes of every thread, started by the agent worker
// (src/sandbox/browser/worker-sandbox-client.ts), which terminates and restarts it to stop a runaway command.
// python3 runs walled off in the page's Python frames (src/sandbox/python/page/), one interpreter per thread, reached
// through the broker port the agent worker hands over. Each thread's sandbox mounts the enabled skills at /mnt/skills
// as they are when it opens.
import * as Comlink from "comlink";
import { mountedSkillFiles } from "../src/agent/skills/mounted-skills.ts";
import { createPythonCommands } from "../src/sandbox/browser/python-command.ts";
import { WorkerSandboxServer } from "../src/sandbox/browser/worker-sandbox-server.ts";
import { IndexedDbThreadFileStore } from "../src/sandbox/indexed-db-thread-file-store.ts";
import { PerThreadPythonRunners, spawnFramePythonWorker } from "../src/sandbox/python/frame-python-runners.ts";
import type { PythonFrames } from "../src/sandbox/python/python-frame-protocol.ts";
import { WorkerPythonRunner } from "../src/sandbox/python/worker-python-runner.ts";
import { whenReady } from "../src/shared/when-ready.ts";
import { openFawnDb, SkillsRepository, ThreadFiles } from "../src/storage/index.ts";

/** The same database as the agent worker's (workers/agent.worker.ts). */
const DB_NAME = "fawn";

let attachFrames: (frames: Comlink.Remote<PythonFrames>) => void = () => undefined;
const frames = new Promise<Comlink.Remote<PythonFrames>>((resolve) => (attachFrames = resolve));
const python = new PerThreadPythonRunners(() => new WorkerPythonRunner({ spawn: spawnFramePythonWorker(frames) }));

const server = openFawnDb(DB_NAME).then((db) => {
  const skills = new SkillsRepository(db);
  return new WorkerSandboxServer({
    files: new IndexedDbThreadFileStore(new ThreadFiles(db)),
    commands: (threadId) => {
      // A thread's sandbox opens on its first tool call or when the Terminal panel opens: python3 may well follow.
      python.prestart(async () => (await frames).hasSnapshot());
      return createPythonCommands(python.forThread(threadId));
    },
    skills: () => mountedSkillFiles(skills),
    attachPython: (port) => attachFrames(Comlink.wrap<PythonFrames>(port)),
    onClose: (threadId) => python.release(threadId),
  });
});
Comlink.expose(whenReady(server));
