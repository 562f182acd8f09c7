import { describe, expect, it } from "vitest";
import { mergeArtifacts, presentablePath } from "./artifacts.ts";

describe("artifacts", () => {
  it("merge keeps the first occurrence of each path, in order; a missing side passes the other through", () => {
    expect(mergeArtifacts(["a", "b"], ["b", "c"])).toEqual(["a", "b", "c"]);
    expect(mergeArtifacts(undefined, ["x", "x"])).toEqual(["x"]);
    expect(mergeArtifacts(["y"], undefined)).toEqual(["y"]);
  });

  it("only paths under /mnt/user-data/outputs can be presented", () => {
    expect(presentablePath("/mnt/user-data/outputs/a.md")).toEqual({ path: "/mnt/user-data/outputs/a.md" });
    expect(presentablePath("/mnt/user-data/outputs/site/")).toEqual({ path: "/mnt/user-data/outputs/site" });
    for (const path of [
      "/mnt/user-data/workspace/a.md",
      "/mnt/user-data/outputs/../x",
      "outputs/a.md",
      "/mnt/user-data/outputs",
    ]) {
      expect(presentablePath(path)).toEqual({
        error: `Error: Only files in /mnt/user-data/outputs can be presented: ${path}`,
      });
    }
  });
});
