// A browser notification when a run finishes while Fawn's tab is hidden, and the permission it needs.
import { t } from "../i18n/index.ts";

/** The browser's answer, or "unsupported" when it has no Notification API. */
export type NotificationState = NotificationPermission | "unsupported";

/** What these functions read of the page; the real one by default, a fake in tests. */
export interface NotificationHost {
  Notification?: {
    readonly permission: NotificationPermission;
    requestPermission(): Promise<NotificationPermission>;
    new (title: string, options?: NotificationOptions): Notification;
  };
  document?: { hidden: boolean };
  /** Android Chrome refuses `new Notification()`: notifications there go through the service worker. */
  serviceWorkerReady?: () => Promise<{ showNotification(title: string, options?: NotificationOptions): Promise<void> }>;
}

function pageHost(): NotificationHost {
  return {
    ...(typeof Notification === "function" && { Notification }),
    ...(typeof document === "object" && { document }),
    ...(typeof navigator === "object" &&
      "serviceWorker" in navigator && { serviceWorkerReady: () => navigator.serviceWorker.ready }),
  };
}

export function notificationState(host: NotificationHost = pageHost()): NotificationState {
  return host.Notification ? host.Notification.permission : "unsupported";
}

/** Asks the user (the browser prompts only while the answer is "default"). */
export async function requestNotifications(host: NotificationHost = pageHost()): Promise<NotificationState> {
  if (!host.Notification) return "unsupported";
  return host.Notification.requestPermission();
}

/** A thread whose run finished. */
export interface FinishedThread {
  threadId: string;
  title: string;
}

/** The notification for a finished run; one per thread (a newer one replaces it). */
export function runFinishedNotification(thread: FinishedThread): { title: string; options: NotificationOptions } {
  return {
    title: "Fawn",
    options: { body: t("notify.replyReady", { title: thread.title }), tag: `fawn-run-${thread.threadId}` },
  };
}

/**
 * Tells the user a run of `thread` finished, when the tab is hidden and notifications are allowed; `onClick` runs
 * when the notification is clicked (the page is focused first). True when one was shown.
 */
export function notifyRunFinished(
  thread: FinishedThread,
  onClick: () => void,
  host: NotificationHost = pageHost(),
): boolean {
  if (!host.document?.hidden || !host.Notification || host.Notification.permission !== "granted") return false;
  const { title: heading, options } = runFinishedNotification(thread);
  try {
    const notification = new host.Notification(heading, options);
    notification.onclick = () => {
      globalThis.focus?.();
      onClick();
      notification.close();
    };
  } catch {
    void host.serviceWorkerReady?.().then((registration) => registration.showNotification(heading, options));
  }
  return true;
}
