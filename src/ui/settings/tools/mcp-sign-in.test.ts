import { afterEach, describe, expect, it, vi } from "vitest";
import { signInToMcpServer, type SignInClient } from "./mcp-sign-in.ts";

const server = { name: "remote", url: "https://mcp.example.com/mcp", enabled: true };

afterEach(() => vi.unstubAllGlobals());

describe("Sign in", () => {
  it("never points Fawn's own pop-up at an address that is not a web page", async () => {
    const popup = { closed: false, close: vi.fn(), location: { href: "about:blank" } };
    vi.stubGlobal("window", { open: () => popup });
    const client: SignInClient = {
      mcp: {
        beginSignIn: async () => ({
          signedIn: false,
          authorizationUrl: "javascript:alert(document.cookie)//?state=s",
        }),
        finishSignIn: async () => ({ server: "remote" }),
      },
    };
    const outcome = await signInToMcpServer(client, server, new AbortController().signal);
    expect(outcome).toEqual({ ok: false, error: "The sign-in page's address is not a web page (javascript:)." });
    expect(popup.location.href).toBe("about:blank");
    expect(popup.close).toHaveBeenCalled();
  });
});
