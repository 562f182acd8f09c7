// Unit tests of the secret redaction applied to error text before it is stored or shown.
import { describe, expect, it } from "vitest";
import { REDACTED_KEY, redactSecrets, secretRedactor } from "./redact.ts";

describe("redactSecrets", () => {
  it("replaces every occurrence of every secret", () => {
    expect(
      redactSecrets("Incorrect API key provided: sk-live-123456. Key sk-live-123456 or tv-abcdef?", [
        "sk-live-123456",
        "tv-abcdef",
      ]),
    ).toBe(`Incorrect API key provided: ${REDACTED_KEY}. Key ${REDACTED_KEY} or ${REDACTED_KEY}?`);
  });

  it("replaces a key that contains another key whole, and never searches a replacement again", () => {
    expect(redactSecrets("Bearer sk-abcd-efgh", ["abcd", "sk-abcd-efgh"])).toBe(`Bearer ${REDACTED_KEY}`);
    // "acte" is inside "[redacted key]": a second pass would mangle the first replacement.
    expect(redactSecrets("key=secret-1 and acte", ["secret-1", "acte"])).toBe(
      `key=${REDACTED_KEY} and ${REDACTED_KEY}`,
    );
  });

  it("finds the key URL-encoded, JSON-escaped and without surrounding spaces", () => {
    const key = 'k/y+"z"=1';
    expect(redactSecrets("https://x.test/?api_key=k%2Fy%2B%22z%22%3D1", [key])).toBe(
      `https://x.test/?api_key=${REDACTED_KEY}`,
    );
    expect(redactSecrets('{"key":"k/y+\\"z\\"=1"}', [key])).toBe(`{"key":"${REDACTED_KEY}"}`);
    expect(redactSecrets("got sk-12345", [" sk-12345 \n"])).toBe(`got ${REDACTED_KEY}`);
  });

  it("treats regular-expression characters in a key literally", () => {
    expect(redactSecrets("a.b*c(d)e and aXbbbcde", ["a.b*c(d)e"])).toBe(`${REDACTED_KEY} and aXbbbcde`);
  });

  it("ignores empty, missing and very short secrets", () => {
    expect(redactSecrets("a bad key", ["", undefined, null, "a", "bad"])).toBe("a bad key");
    const same = secretRedactor([]);
    expect(same("nothing to hide")).toBe("nothing to hide");
  });
});
