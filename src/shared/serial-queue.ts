// One operation at a time, in the order asked: a sandbox's file operations, the index of the model files kept on this
// device.

/** Runs operations one after another (a failed one does not stop the next). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.tail.then(operation, operation);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves when everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail.catch(() => undefined);
  }
}
