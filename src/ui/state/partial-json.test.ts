import { describe, expect, it } from "vitest";
import { readPartialObject } from "./partial-json.ts";

const ARGS = JSON.stringify({
  description: "Write the report",
  path: "/mnt/user-data/outputs/report.md",
  content: '# Title\n\nA "quoted" line\twith a tab and \\ a backslash, café ✓\n',
  append: false,
  lines: [1, 2, { three: 3 }],
});

describe("readPartialObject", () => {
  it("reads a complete object as JSON does", () => {
    expect(readPartialObject(ARGS)).toEqual(JSON.parse(ARGS));
  });

  it("reads every prefix without throwing, and the content grows as the text does", () => {
    let previous = "";
    for (let length = 0; length <= ARGS.length; length++) {
      const fields = readPartialObject(ARGS.slice(0, length));
      const content = typeof fields.content === "string" ? fields.content : "";
      expect(content.startsWith(previous) || previous.startsWith(content)).toBe(true);
      if (content.length >= previous.length) previous = content;
    }
    expect(previous).toBe(JSON.parse(ARGS).content);
  });

  it("keeps a string cut short as far as it goes, and leaves out a value cut short", () => {
    const cut = ARGS.slice(0, ARGS.indexOf("backslash"));
    expect(readPartialObject(cut)).toEqual({
      description: "Write the report",
      path: "/mnt/user-data/outputs/report.md",
      content: '# Title\n\nA "quoted" line\twith a tab and \\ a ',
    });
    expect(readPartialObject('{"append": tr')).toEqual({});
    expect(readPartialObject('{"n": 12, "list": [1, 2')).toEqual({ n: 12 });
  });

  it("waits for the rest of an escape cut in half", () => {
    expect(readPartialObject('{"content": "a\\')).toEqual({ content: "a" });
    expect(readPartialObject('{"content": "a\\u00e')).toEqual({ content: "a" });
    expect(readPartialObject('{"content": "a\\u00e9b')).toEqual({ content: "aéb" });
  });

  it("gives nothing for text that is not an object", () => {
    expect(readPartialObject("")).toEqual({});
    expect(readPartialObject("[1, 2]")).toEqual({});
    expect(readPartialObject("nonsense")).toEqual({});
  });
});
