// A server workspace's schedules: the server's own, through DeerFlow's `/api/scheduled-tasks` routes (a Fawn server
// and DeerFlow both answer them), run by the server's scheduler whether or not this browser is open. LangGraph's dev
// server has none: every call says so. This browser never drives a server's schedules (claimDue is always empty).
import { z } from "zod";
import type { Schedule, ScheduleClaim, ScheduleInput, SchedulesApi } from "../../protocol/index.ts";
import { scheduledTaskSchema, scheduleOfTask, taskBodyOf } from "../schedules/scheduled-tasks.ts";
import type { RemoteContext } from "./remote-context.ts";
import { seg, type ServerFetch } from "./server-urls.ts";

const JSON_HEADERS = { "content-type": "application/json" };

export class RemoteSchedules implements SchedulesApi {
  constructor(private readonly remote: RemoteContext) {}

  private rest(): ServerFetch {
    if (!this.remote.rest || this.remote.server.kind === "langgraph") throw this.remote.unavailable("Scheduled runs");
    return this.remote.rest;
  }

  private async task(path: string, init?: RequestInit): Promise<Schedule> {
    return scheduleOfTask(await this.remote.restJson(this.rest(), path, scheduledTaskSchema, "a scheduled task", init));
  }

  async list(): Promise<Schedule[]> {
    const tasks = await this.remote.restJson(
      this.rest(),
      "/scheduled-tasks",
      z.array(scheduledTaskSchema).max(1000),
      "scheduled tasks",
    );
    return tasks.map(scheduleOfTask).sort((a, b) => a.name.localeCompare(b.name));
  }

  create(input: ScheduleInput): Promise<Schedule> {
    const body = { context_mode: "fresh_thread_per_run", ...taskBodyOf(input) };
    return this.task("/scheduled-tasks", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(body) });
  }

  async update(id: string, changes: Partial<ScheduleInput>): Promise<Schedule> {
    const { enabled, ...rest } = changes;
    let schedule: Schedule | undefined;
    if (Object.keys(rest).length > 0) {
      const init = { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify(taskBodyOf(rest)) };
      schedule = await this.task(`/scheduled-tasks/${seg(id)}`, init);
    }
    // On and off are DeerFlow's pause and resume (its PATCH does not take them).
    if (enabled !== undefined)
      schedule = await this.task(`/scheduled-tasks/${seg(id)}/${enabled ? "resume" : "pause"}`, { method: "POST" });
    return schedule ?? this.task(`/scheduled-tasks/${seg(id)}`);
  }

  async delete(id: string): Promise<void> {
    await this.remote.refusal(await this.rest()(`/scheduled-tasks/${seg(id)}`, { method: "DELETE" }));
  }

  async claimDue(): Promise<ScheduleClaim[]> {
    return [];
  }

  async finish(): Promise<void> {}
}
