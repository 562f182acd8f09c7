// The WebMCP tools' declarations: valid names and JSON schemas an agent can fill in, and inputs checked against them
// (test/build/agent-discovery.test.ts checks that ai-catalog.json lists exactly these tools).
import { describe, expect, it } from "vitest";
import { FAWN_TOOL_DEFINITIONS, inputJsonSchema, OPEN_THREAD, SEND_MESSAGE } from "./tool-definitions.ts";

interface ObjectSchema {
  type: string;
  properties: Record<string, { type?: string; enum?: unknown[]; description?: string }>;
  required?: string[];
  additionalProperties?: boolean;
}

describe("WebMCP tool definitions", () => {
  it("name each tool once, in snake_case, with a description an agent can choose by", () => {
    const names = FAWN_TOOL_DEFINITIONS.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of FAWN_TOOL_DEFINITIONS) {
      expect(tool.name).toMatch(/^[a-z][a-z_]{2,63}$/);
      expect(tool.description.length, tool.name).toBeGreaterThan(40);
    }
  });

  it("give each tool an object schema whose every parameter is typed and described, and nothing else accepted", () => {
    for (const tool of FAWN_TOOL_DEFINITIONS) {
      const schema = inputJsonSchema(tool) as unknown as ObjectSchema;
      // What the browser is handed: plain JSON, the same after a round trip.
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
      expect(schema.type, tool.name).toBe("object");
      expect(schema.additionalProperties, tool.name).toBe(false);
      expect(Object.keys(schema.properties).length, tool.name).toBeGreaterThan(0);
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(property.type ?? property.enum, `${tool.name}.${name}`).toBeDefined();
        expect(property.description, `${tool.name}.${name}`).toMatch(/\w{3,}/);
      }
      for (const name of schema.required ?? []) expect(schema.properties, `${tool.name}.${name}`).toHaveProperty(name);
    }
  });

  it("require what a call cannot do without, and default the rest", () => {
    expect((inputJsonSchema(SEND_MESSAGE) as unknown as ObjectSchema).required).toEqual(["message"]);
    expect(OPEN_THREAD.input.parse({ thread_id: "t1" })).toEqual({ thread_id: "t1", last_messages: 20 });
  });

  it("refuse inputs outside the schema: a missing or empty message, an unknown key, a wrong type", () => {
    expect(SEND_MESSAGE.input.safeParse({}).success).toBe(false);
    expect(SEND_MESSAGE.input.safeParse({ message: "   " }).success).toBe(false);
    expect(SEND_MESSAGE.input.safeParse({ message: "hi", model: "gpt" }).success).toBe(false);
    expect(OPEN_THREAD.input.safeParse({ thread_id: 7 }).success).toBe(false);
    expect(OPEN_THREAD.input.safeParse({ thread_id: "t1", last_messages: 0 }).success).toBe(false);
  });
});
