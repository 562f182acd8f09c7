import { describe, expect, it } from "vitest";
import {
  dismissSharedOriginNotice,
  isSharedPagesOrigin,
  SHARED_ORIGIN_NOTICE_KEY,
  sharedOriginNoticeDismissed,
  sharedOriginReadmeUrl,
} from "./pages-origin.ts";

describe("isSharedPagesOrigin", () => {
  it("warns about a GitHub Pages project site: <owner>.github.io with the app in a folder", () => {
    for (const [hostname, basePath] of [
      ["alice.github.io", "/fawn/"],
      ["alice.github.io", "/fawn"],
      ["Alice.GitHub.io", "/fawn/"],
      ["alice.github.io.", "/fawn/"],
      ["my-org.github.io", "/tools/fawn/"],
    ] as const) {
      expect(isSharedPagesOrigin({ hostname, basePath }), `${hostname}${basePath}`).toBe(true);
    }
  });

  it("does not warn about a user or organisation site at the root, a custom domain, or any other host", () => {
    for (const [hostname, basePath] of [
      ["alice.github.io", "/"],
      ["alice.github.io", ""],
      ["fawn.example.com", "/"],
      ["fawn.example.com", "/fawn/"],
      ["example.com", "/alice.github.io/"],
      ["github.io", "/fawn/"],
      ["alice.github.io.evil.example", "/fawn/"],
      ["alicegithub.io", "/fawn/"],
      ["localhost", "/fawn/"],
      ["127.0.0.1", "/fawn/"],
      ["alice.gitlab.io", "/fawn/"],
    ] as const) {
      expect(isSharedPagesOrigin({ hostname, basePath }), `${hostname}${basePath}`).toBe(false);
    }
  });
});

describe("sharedOriginReadmeUrl", () => {
  it("points at the README section in the repository the project site comes from", () => {
    expect(sharedOriginReadmeUrl({ hostname: "Alice.github.io", basePath: "/fawn/" })).toBe(
      "https://github.com/alice/fawn#github-pages-give-fawn-an-origin-of-its-own",
    );
    expect(sharedOriginReadmeUrl({ hostname: "alice.github.io", basePath: "/" })).toBeUndefined();
    expect(sharedOriginReadmeUrl({ hostname: "fawn.example.com", basePath: "/fawn/" })).toBeUndefined();
  });
});

describe("the notice's dismissal", () => {
  it("is remembered in storage, and a storage that throws counts as not dismissed", () => {
    const values = new Map<string, string>();
    const storage = {
      getItem: (key: string) => values.get(key) ?? null,
      setItem: (key: string, value: string) => void values.set(key, value),
    };
    expect(sharedOriginNoticeDismissed(storage)).toBe(false);
    dismissSharedOriginNotice(storage);
    expect(values.get(SHARED_ORIGIN_NOTICE_KEY)).toBe("1");
    expect(sharedOriginNoticeDismissed(storage)).toBe(true);
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(sharedOriginNoticeDismissed(broken)).toBe(false);
    expect(() => dismissSharedOriginNotice(broken)).not.toThrow();
    expect(sharedOriginNoticeDismissed(undefined)).toBe(false);
  });
});
