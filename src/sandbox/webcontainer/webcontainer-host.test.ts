import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeWebContainer } from "./fake-webcontainer.ts";

// bootWebContainer keeps the page's one container in module state: each test loads the module afresh.
async function load() {
  vi.resetModules();
  return import("./webcontainer-host.ts");
}

describe("bootWebContainer", () => {
  beforeEach(() => vi.stubGlobal("crossOriginIsolated", true));
  afterEach(() => vi.unstubAllGlobals());

  it("refuses clearly on a page that is not cross-origin isolated, without booting", async () => {
    vi.stubGlobal("crossOriginIsolated", false);
    const { bootWebContainer } = await load();
    const boot = vi.fn(() => FakeWebContainer.boot());
    await expect(bootWebContainer({ boot })).rejects.toThrow(/cross-origin isolated.*Cross-Origin-Embedder-Policy/s);
    expect(boot).not.toHaveBeenCalled();
  });

  it("boots once per page with COEP credentialless and the fawn workdir", async () => {
    const { bootWebContainer } = await load();
    const boot = vi.fn(() => FakeWebContainer.boot({ workdirName: "fawn" }));
    const first = await bootWebContainer({ boot });
    expect(await bootWebContainer({ boot })).toBe(first);
    expect(boot).toHaveBeenCalledTimes(1);
    expect(boot).toHaveBeenCalledWith({ coep: "credentialless", workdirName: "fawn" });
  });

  it("gives up after the timeout with a message the caller can show, and a later call gets the same boot", async () => {
    const { bootWebContainer } = await load();
    let finish: (container: FakeWebContainer) => void = () => undefined;
    const boot = vi.fn(() => new Promise<FakeWebContainer>((resolve) => (finish = resolve)));
    await expect(bootWebContainer({ boot, timeoutMs: 50 })).rejects.toThrow(
      /did not start within 0\.05 s.*stackblitz\.com/s,
    );
    const later = bootWebContainer({ boot, timeoutMs: 1_000 });
    const container = await FakeWebContainer.boot();
    finish(container);
    expect(await later).toBe(container);
    expect(boot).toHaveBeenCalledTimes(1);
  });

  it("boots again after a failed boot", async () => {
    const { bootWebContainer } = await load();
    const boot = vi
      .fn()
      .mockRejectedValueOnce(new Error("iframe blocked"))
      .mockResolvedValueOnce(await FakeWebContainer.boot());
    await expect(bootWebContainer({ boot })).rejects.toThrow("iframe blocked");
    await expect(bootWebContainer({ boot })).resolves.toBeInstanceOf(FakeWebContainer);
    expect(boot).toHaveBeenCalledTimes(2);
  });
});
