import { describe, expect, it } from "vitest";
import { laterClient } from "./later-client.ts";

interface Client {
  protocolVersion(): Promise<number>;
  threads: { list(): Promise<string[]>; get(id: string): Promise<string> };
}

describe("laterClient", () => {
  it("calls a domain's method, and the client's own, once the client is ready, with their arguments", async () => {
    let ready!: (client: Client) => void;
    const later = laterClient(new Promise<Client>((resolve) => (ready = resolve)));
    const listed = later.threads.list();
    const got = later.threads.get("t1");
    const version = later.protocolVersion();
    ready({
      protocolVersion: async () => 7,
      threads: { list: async () => ["t1", "t2"], get: async (id) => `thread ${id}` },
    });
    await expect(listed).resolves.toEqual(["t1", "t2"]);
    await expect(got).resolves.toBe("thread t1");
    await expect(version).resolves.toBe(7);
  });

  it("rejects every call with the reason the client could not be had", async () => {
    const later = laterClient<Client>(Promise.reject(new Error("That server is not connected any more.")));
    await expect(later.threads.list()).rejects.toThrow("That server is not connected any more.");
  });

  it("is not a thenable: awaiting it gives it back", async () => {
    const later = laterClient<Client>(new Promise<Client>(() => undefined));
    expect(await Promise.resolve(later)).toBe(later);
  });
});
