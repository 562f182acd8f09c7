// The user's choices about remote images: kept hosts survive bad storage, "always" persists, a click loads one image.
import { describe, expect, it } from "vitest";
import {
  alwaysLoadImagesFrom,
  IMAGE_HOSTS_KEY,
  imageHosts,
  imageMayLoad,
  loadImage,
  loadImageHosts,
  remoteImageUrl,
  stopLoadingImagesFrom,
  withImageHost,
} from "./remote-images.ts";

function memoryStorage(initial: Record<string, string> = {}): Pick<Storage, "getItem" | "setItem"> {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

describe("remote images", () => {
  it("reads only absolute http(s) addresses as remote images", () => {
    expect(remoteImageUrl("https://images.example/a.png")?.host).toBe("images.example");
    expect(remoteImageUrl("http://127.0.0.1:9/a.png")?.host).toBe("127.0.0.1:9");
    for (const address of ["javascript:alert(1)", "data:image/png;base64,AA==", "/relative.png", "", null]) {
      expect(remoteImageUrl(address), String(address)).toBeUndefined();
    }
  });

  it("reads the kept hosts, and none from missing or broken storage", () => {
    expect(loadImageHosts(memoryStorage({ [IMAGE_HOSTS_KEY]: '["a.example", 3, "", "b.example:8080"]' }))).toEqual([
      "a.example",
      "b.example:8080",
    ]);
    expect(loadImageHosts(memoryStorage({ [IMAGE_HOSTS_KEY]: "{not json" }))).toEqual([]);
    expect(loadImageHosts(memoryStorage({ [IMAGE_HOSTS_KEY]: '{"a": 1}' }))).toEqual([]);
    expect(loadImageHosts(memoryStorage())).toEqual([]);
    expect(loadImageHosts(undefined)).toEqual([]);
  });

  it("adds a host once, newest last, keeping at most 200", () => {
    expect(withImageHost(["a", "b"], "a")).toEqual(["b", "a"]);
    const many = Array.from({ length: 200 }, (_, index) => `h${index}`);
    const kept = withImageHost(many, "new");
    expect(kept).toHaveLength(200);
    expect(kept[0]).toBe("h1");
    expect(kept.at(-1)).toBe("new");
  });

  it("loads a clicked image only, and every image of a host chosen 'always', kept in storage", () => {
    const clicked = new URL("https://one.example/a.png");
    const sibling = new URL("https://one.example/b.png");
    expect(imageMayLoad(clicked)).toBe(false);
    loadImage(clicked);
    expect(imageMayLoad(clicked)).toBe(true);
    expect(imageMayLoad(sibling)).toBe(false);

    const storage = memoryStorage({ [IMAGE_HOSTS_KEY]: '["kept.example"]' });
    const always = new URL("http://always.example:8080/x.png");
    alwaysLoadImagesFrom(always, storage);
    expect(imageMayLoad(new URL("http://always.example:8080/other.png"))).toBe(true);
    // Another port is another host.
    expect(imageMayLoad(new URL("http://always.example/other.png"))).toBe(false);
    expect(JSON.parse(storage.getItem(IMAGE_HOSTS_KEY) ?? "[]")).toEqual(["kept.example", "always.example:8080"]);
  });

  it("takes 'always' back for a host, in storage too, and its images ask again", () => {
    const storage = memoryStorage();
    const image = new URL("https://revoked.example/x.png");
    alwaysLoadImagesFrom(image, storage);
    expect(imageHosts()).toContain("revoked.example");
    stopLoadingImagesFrom("revoked.example", storage);
    expect(imageHosts()).not.toContain("revoked.example");
    expect(imageMayLoad(image)).toBe(false);
    expect(JSON.parse(storage.getItem(IMAGE_HOSTS_KEY) ?? "[]")).toEqual([]);
  });
});
