// A component whose code is a chunk of its own, fetched the first time it is shown (or earlier with `preload`), so
// what is not on the first screen stays out of the first load (scripts/size.ts "initial").
import { createSignal, Show, splitProps, type Component, type JSX } from "solid-js";
import { Dynamic } from "solid-js/web";

/** A component that renders `fallback` until its chunk has arrived, then the real one with the same props. */
export type DeferredComponent<P extends object> = Component<P & { fallback?: JSX.Element }> & {
  /** Starts fetching the chunk (once); resolves with the component. A failed fetch is tried again on the next call. */
  preload(): Promise<Component<P>>;
};

/**
 * `load` fetches the chunk (a dynamic `import()`) and picks the component. Unlike Solid's `lazy`, no Suspense is
 * involved: the component mounts into the live DOM when it arrives, so its effects may at once open a `<dialog>`
 * (the click that asked for it is not lost), and `fallback` can hold its place meanwhile.
 */
export function deferred<P extends object>(load: () => Promise<Component<P>>): DeferredComponent<P> {
  const [component, setComponent] = createSignal<Component<P>>();
  let loading: Promise<Component<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (loaded) => {
        setComponent(() => loaded);
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Deferred = (props: P & { fallback?: JSX.Element }) => {
    const [local, others] = splitProps(props, ["fallback"]);
    preload().catch((error: unknown) => console.error("A part of Fawn could not be loaded:", error));
    return (
      <Show when={component()} fallback={local.fallback}>
        {(loaded) => <Dynamic component={loaded()} {...(others as unknown as P)} />}
      </Show>
    );
  };
  return Object.assign(Deferred, { preload });
}
