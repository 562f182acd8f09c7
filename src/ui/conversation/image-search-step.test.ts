// image_search's tool step: its result read as images (web addresses only), titled with the query.
import { describe, expect, it } from "vitest";
import { imageHits } from "./image-search-step.ts";
import { toolResultsOf, toolSteps } from "./tool-step-content.ts";

const RESULT = JSON.stringify({
  query: "red panda",
  total_results: 3,
  results: [
    {
      title: "Red panda",
      image_url: "https://img.example/panda.jpg",
      thumbnail_url: "https://thumbs.example/panda.jpg",
      source_url: "https://zoo.example/panda",
    },
    { title: "No thumbnail", image_url: "https://img.example/two.png", thumbnail_url: "javascript:alert(1)" },
    { title: "Script", image_url: "javascript:alert(1)", thumbnail_url: "https://thumbs.example/x.jpg" },
    { title: "Data", image_url: "data:image/svg+xml,<svg onload=alert(1)>" },
  ],
  usage_hint: "…",
});

describe("image_search steps", () => {
  it("reads each image with a web address; a thumbnail that is not one falls back to the image", () => {
    expect(imageHits(RESULT)).toEqual([
      {
        title: "Red panda",
        imageUrl: "https://img.example/panda.jpg",
        thumbnailUrl: "https://thumbs.example/panda.jpg",
        sourceUrl: "https://zoo.example/panda",
      },
      {
        title: "No thumbnail",
        imageUrl: "https://img.example/two.png",
        thumbnailUrl: "https://img.example/two.png",
        sourceUrl: undefined,
      },
    ]);
  });

  it("finds no images in an error or in text that is not the tool's JSON", () => {
    expect(imageHits("Error: Serper is limiting requests (HTTP 429).")).toEqual([]);
    expect(imageHits(JSON.stringify({ error: "No images found", query: "x" }))).toEqual([]);
    expect(imageHits("null")).toEqual([]);
  });

  it("is titled with the query and carries the images for the grid", () => {
    const call = { id: "c1", name: "image_search", args: { query: "red panda" } };
    const results = toolResultsOf([{ type: "tool", id: "t1", tool_call_id: "c1", content: RESULT }]);
    const [step] = toolSteps([call], results, false);
    expect(step).toMatchObject({ title: "Searched images for \u201cred panda\u201d", status: "done" });
    expect(step!.body).toMatchObject({ kind: "images", images: [{ title: "Red panda" }, { title: "No thumbnail" }] });
  });
});
