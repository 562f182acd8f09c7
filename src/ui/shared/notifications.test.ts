import { describe, expect, it, vi } from "vitest";
import {
  notificationState,
  notifyRunFinished,
  requestNotifications,
  runFinishedNotification,
  type NotificationHost,
} from "./notifications.ts";

function fakeHost(permission: NotificationPermission, hidden: boolean, constructorThrows = false) {
  const shown: { title: string; options?: NotificationOptions; instance: { onclick: unknown; close: () => void } }[] =
    [];
  const viaWorker: { title: string; options?: NotificationOptions }[] = [];
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = "granted";
      return "granted" as const;
    });
    onclick: unknown = null;
    close = vi.fn();
    constructor(title: string, options?: NotificationOptions) {
      if (constructorThrows) throw new TypeError("Illegal constructor");
      shown.push({ title, ...(options && { options }), instance: this });
    }
  }
  const host = {
    Notification: FakeNotification as unknown as NotificationHost["Notification"],
    document: { hidden },
    serviceWorkerReady: async () => ({
      showNotification: async (title: string, options?: NotificationOptions) =>
        void viaWorker.push({ title, ...(options && { options }) }),
    }),
  } satisfies NotificationHost;
  return { host, shown, viaWorker, FakeNotification };
}

const trip = { threadId: "t1", title: "Trip plan" };

describe("run-finished notifications", () => {
  it("says which thread has its reply ready", () => {
    expect(runFinishedNotification(trip)).toMatchObject({
      title: "Fawn",
      options: { body: "Trip plan: reply ready", tag: "fawn-run-t1" },
    });
  });

  it("shows one only when the tab is hidden and the user allowed it", () => {
    const hiddenGranted = fakeHost("granted", true);
    expect(notifyRunFinished(trip, () => undefined, hiddenGranted.host)).toBe(true);
    expect(hiddenGranted.shown).toMatchObject([{ title: "Fawn", options: { body: "Trip plan: reply ready" } }]);

    const visible = fakeHost("granted", false);
    expect(notifyRunFinished(trip, () => undefined, visible.host)).toBe(false);
    expect(visible.shown).toEqual([]);

    const notAllowed = fakeHost("default", true);
    expect(notifyRunFinished(trip, () => undefined, notAllowed.host)).toBe(false);
    expect(notifyRunFinished(trip, () => undefined, {})).toBe(false);
  });

  it("opens the thread when the notification is clicked", () => {
    const { host, shown } = fakeHost("granted", true);
    const open = vi.fn();
    notifyRunFinished(trip, open, host);
    (shown[0]!.instance.onclick as () => void)();
    expect(open).toHaveBeenCalledOnce();
    expect(shown[0]!.instance.close).toHaveBeenCalledOnce();
  });

  it("goes through the service worker where the constructor is refused (Android)", async () => {
    const { host, viaWorker } = fakeHost("granted", true, true);
    expect(notifyRunFinished(trip, () => undefined, host)).toBe(true);
    await vi.waitFor(() =>
      expect(viaWorker).toMatchObject([{ title: "Fawn", options: { body: "Trip plan: reply ready" } }]),
    );
  });

  it("reports and requests the permission", async () => {
    const { host } = fakeHost("default", false);
    expect(notificationState(host)).toBe("default");
    expect(await requestNotifications(host)).toBe("granted");
    expect(notificationState(host)).toBe("granted");
    expect(notificationState({})).toBe("unsupported");
    expect(await requestNotifications({})).toBe("unsupported");
  });
});
