import { describe, expect, it } from "vitest";
import type { ThreadDetail } from "../../protocol/index.ts";
import type { GatewayClient } from "../gateway-client.ts";
import type { NoticesStore } from "./notices.ts";
import { createOpenThread } from "./open-thread.ts";

function detail(text: string): ThreadDetail {
  return { thread_id: "t1", title: text, entries: [] } as unknown as ThreadDetail;
}

/** A client whose reads of the thread answer only when the test says, in any order. */
function slowReads() {
  const pending: ((value: ThreadDetail) => void)[] = [];
  const client = {
    threads: { get: () => new Promise<ThreadDetail>((resolve) => pending.push(resolve)) },
  } as unknown as GatewayClient;
  return { client, pending };
}

describe("reloadIfOpen", () => {
  it("keeps the newest read when two reloads answer out of order (an older read never puts older messages back)", async () => {
    const { client, pending } = slowReads();
    const notices = { setNotice: () => undefined } as unknown as NoticesStore;
    const store = createOpenThread({ client, notices, isRunning: () => false, onOpened: () => undefined });
    store.setCurrent(detail("as opened"));

    const first = store.reloadIfOpen("t1");
    const second = store.reloadIfOpen("t1");
    pending[1]!(detail("after the second notice"));
    await second;
    pending[0]!(detail("after the first notice"));
    await first;

    expect(store.current()?.title).toBe("after the second notice");
  });

  it("does not undo a change made while its read was in flight", async () => {
    const { client, pending } = slowReads();
    const notices = { setNotice: () => undefined } as unknown as NoticesStore;
    const store = createOpenThread({ client, notices, isRunning: () => false, onOpened: () => undefined });
    store.setCurrent(detail("as opened"));

    const reload = store.reloadIfOpen("t1");
    store.setCurrent(detail("settled by the run"));
    pending[0]!(detail("read before the run settled"));
    await reload;

    expect(store.current()?.title).toBe("settled by the run");
  });
});
