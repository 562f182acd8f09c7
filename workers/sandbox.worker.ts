// Sandbox worker entry point: the browser sandboxes of every thread, started by the agent worker
// (src/sandbox/browser/isolated-browser-sandbox.ts), which terminates and restarts it to stop a runaway command.
// python3 runs in a worker of its own (workers/python.worker.ts), started from here on first use. Each thread's
// sandbox mounts the enabled skills at /mnt/skills as they are when it opens.
import * as Comlink from "comlink";
import { mountedSkillFiles } from "../src/agent/skills/mounted-skills.ts";
import { createPythonCommands } from "../src/sandbox/browser/python-command.ts";
import { SandboxService } from "../src/sandbox/browser/sandbox-service.ts";
import { WorkerPythonRunner } from "../src/sandbox/python/worker-python-runner.ts";
import { whenReady } from "../src/shared/when-ready.ts";
import { openFawnDb, SkillsRepository, ThreadFiles } from "../src/storage/index.ts";

/** The same database as the agent worker's (workers/agent.worker.ts). */
const DB_NAME = "fawn";

const python = new WorkerPythonRunner();
const service = openFawnDb(DB_NAME).then((db) => {
  const skills = new SkillsRepository(db);
  return new SandboxService({
    files: new ThreadFiles(db),
    commands: createPythonCommands(python),
    skills: () => mountedSkillFiles(skills),
  });
});
Comlink.expose(whenReady(service));
