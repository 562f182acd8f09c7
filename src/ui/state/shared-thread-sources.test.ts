import { describe, expect, it } from "vitest";
import { isSharedHash, shareDataFromHash, sharedFileIdFromHash, shareLinkUrl } from "./shared-thread-sources.ts";

describe("share links on the page", () => {
  it("put the data in the fragment of the app's own address, its base path kept", () => {
    expect(shareLinkUrl("t.abc-_", "https://example.org/")).toBe("https://example.org/#share=t.abc-_");
    expect(shareLinkUrl("t.abc", "https://example.org/fawn/")).toBe("https://example.org/fawn/#share=t.abc");
    // Whatever fragment the base had (an open thread) is replaced.
    expect(shareLinkUrl("z.x", "https://example.org/fawn/#/t/abc")).toBe("https://example.org/fawn/#share=z.x");
  });

  it("read back from a fragment, which never names a thread to open", () => {
    expect(shareDataFromHash("#share=t.abc")).toBe("t.abc");
    expect(shareDataFromHash("#/t/abc")).toBeUndefined();
    expect(sharedFileIdFromHash("#shared-file=0b5e-41")).toBe("0b5e-41");
    expect(sharedFileIdFromHash("#shared-file=../x")).toBeUndefined();
    expect(isSharedHash("#share=")).toBe(true);
    expect(isSharedHash("#shared-file=abc")).toBe(true);
    expect(isSharedHash("#/t/abc")).toBe(false);
    expect(isSharedHash("")).toBe(false);
  });
});
