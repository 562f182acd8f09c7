// pdfjs 6 calls Promise.withResolvers (Node 22, Chrome 119, Safari 17.4, Firefox 121) even in its legacy build; this
// adds it where it is missing (Node 20, older browsers). Import it before pdfjs-dist.
const PromiseWithResolvers = Promise as PromiseConstructor & { withResolvers?: unknown };

if (typeof PromiseWithResolvers.withResolvers !== "function") {
  PromiseWithResolvers.withResolvers = function withResolvers<T>(this: PromiseConstructor) {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new this<T>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    return { promise, resolve, reject };
  };
}

export {};
