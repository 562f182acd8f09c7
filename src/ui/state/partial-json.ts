// Tool-call arguments arrive as JSON text in pieces while the model streams them. To show a file while it is being
// written, the UI reads what has come so far: the top-level fields of the object, a string cut short kept as far as
// it goes. Fawn's own because it needs only this much (a full partial-JSON parser lives in the worker's bundle).

/** A JSON string starting at `start` (just after its opening quote): its text so far and where it ended, if it did. */
function readString(text: string, start: number): { value: string; end: number | undefined } {
  let value = "";
  let index = start;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') return { value, end: index + 1 };
    if (char !== "\\") {
      value += char;
      index++;
      continue;
    }
    const next = text[index + 1];
    if (next === undefined) break; // an escape cut in half: wait for the rest
    if (next === "u") {
      const hex = text.slice(index + 2, index + 6);
      if (hex.length < 4) break;
      value += String.fromCharCode(Number.parseInt(hex, 16));
      index += 6;
      continue;
    }
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };
    value += escapes[next] ?? next;
    index += 2;
  }
  return { value, end: undefined };
}

/** Where the JSON value starting at `start` ends (one past it), or undefined when the text stops first. */
function valueEnd(text: string, start: number): number | undefined {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') {
      const string = readString(text, index + 1);
      if (string.end === undefined) return undefined;
      index = string.end - 1;
      if (depth === 0) return string.end;
    } else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      if (depth === 0) return index; // the enclosing object closes: a number or literal ended here
      depth--;
      if (depth === 0) return index + 1;
    } else if (depth === 0 && (char === "," || /\s/.test(char))) return index;
  }
  return undefined;
}

/**
 * The fields of a JSON object whose text may be cut short: complete values parsed, a string cut short as far as it
 * goes, anything else cut short left out. `{}` for text that is not an object.
 */
export function readPartialObject(text: string): Record<string, unknown> {
  try {
    const whole: unknown = JSON.parse(text);
    return typeof whole === "object" && whole !== null && !Array.isArray(whole)
      ? (whole as Record<string, unknown>)
      : {};
  } catch {
    // cut short: read field by field
  }
  const fields: Record<string, unknown> = {};
  let index = text.indexOf("{");
  if (index < 0) return fields;
  index++;
  while (index < text.length) {
    while (index < text.length && /[\s,]/.test(text[index]!)) index++;
    if (text[index] !== '"') break;
    const key = readString(text, index + 1);
    if (key.end === undefined) break;
    index = key.end;
    while (index < text.length && /\s/.test(text[index]!)) index++;
    if (text[index] !== ":") break;
    index++;
    while (index < text.length && /\s/.test(text[index]!)) index++;
    if (index >= text.length) break;
    if (text[index] === '"') {
      const value = readString(text, index + 1);
      fields[key.value] = value.value;
      if (value.end === undefined) break;
      index = value.end;
      continue;
    }
    const end = valueEnd(text, index);
    if (end === undefined) break;
    try {
      fields[key.value] = JSON.parse(text.slice(index, end));
    } catch {
      break;
    }
    index = end;
  }
  return fields;
}
