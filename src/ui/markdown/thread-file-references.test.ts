import { describe, expect, it } from "vitest";
import { isLocalReference, MESSAGE_BASE, threadFileReference } from "./thread-file-references.ts";

describe("threadFileReference", () => {
  it("reads relative references from the message's outputs folder or the file the text belongs to", () => {
    expect(threadFileReference("chart.png", MESSAGE_BASE)).toBe("/mnt/user-data/outputs/chart.png");
    expect(threadFileReference("./img/a%20b.png?x=1#top", MESSAGE_BASE)).toBe("/mnt/user-data/outputs/img/a b.png");
    expect(threadFileReference("../uploads/data.csv", MESSAGE_BASE)).toBe("/mnt/user-data/uploads/data.csv");
    expect(threadFileReference("figures/fig1.svg", "/mnt/user-data/outputs/report/index.md")).toBe(
      "/mnt/user-data/outputs/report/figures/fig1.svg",
    );
  });

  it("takes thread paths as they are, and DeerFlow's artifact and demo addresses as the files they point to", () => {
    expect(threadFileReference("/mnt/user-data/uploads/photo.jpg", MESSAGE_BASE)).toBe(
      "/mnt/user-data/uploads/photo.jpg",
    );
    expect(threadFileReference("/api/threads/abc-1/artifacts/mnt/user-data/outputs/chart%201.png", MESSAGE_BASE)).toBe(
      "/mnt/user-data/outputs/chart 1.png",
    );
    expect(
      threadFileReference(
        "/demo/threads/7f9dc56c/user-data/outputs/leica-tokyo-night.jpg",
        "/mnt/user-data/outputs/a.md",
      ),
    ).toBe("/mnt/user-data/outputs/leica-tokyo-night.jpg");
  });

  it("names no file for web addresses, anchors, or paths outside the thread's files", () => {
    for (const reference of [
      "https://example.com/a.png",
      "//cdn.example.com/a.png",
      "data:image/png;base64,AAAA",
      "#section",
      "",
      "/etc/passwd",
      "/mnt/skills/public/x/SKILL.md",
      "../../../../etc/passwd",
      "/api/threads/x/artifacts/etc/passwd",
      "/demo/threads/x/user-data/../../../etc/passwd",
    ]) {
      expect(threadFileReference(reference, MESSAGE_BASE), reference).toBeUndefined();
    }
  });

  it("tells local references from web ones", () => {
    expect(isLocalReference("chart.png")).toBe(true);
    expect(isLocalReference("/mnt/user-data/outputs/x")).toBe(true);
    expect(isLocalReference("mailto:a@b.c")).toBe(false);
    expect(isLocalReference(" #x")).toBe(false);
  });
});
