// One run per thread across every tab: a Web Lock per thread, held for the whole run (docs/architecture.md#d2-storage).
// Where the Web Locks API is missing (Node tests), locks are held in this process only.

export type Release = () => void;

const heldHere = new Set<string>();

function lockName(threadId: string): string {
  return `fawn-run:${threadId}`;
}

function lockHere(name: string): Release | undefined {
  if (heldHere.has(name)) return undefined;
  heldHere.add(name);
  return () => heldHere.delete(name);
}

/** Takes the thread's run lock if nobody holds it, without waiting; undefined when another run holds it. */
export function tryLockThread(threadId: string): Promise<Release | undefined> {
  const name = lockName(threadId);
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return Promise.resolve(lockHere(name));
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        // The lock is held until the returned promise settles, that is until the run calls release().
        return new Promise<void>((release) => resolve(() => release()));
      })
      .catch(reject);
  });
}

/** Whether any thread's run lock is held, in any tab (this one included): some thread is running a reply somewhere. */
export async function anyThreadRunning(): Promise<boolean> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks?.query) return heldHere.size > 0;
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name?.startsWith(lockName("")) === true);
}
