// The SDK suite's `core` part against the in-browser routes (createGatewayFetch over a Gateway in this process, the
// SDK given a fetch that calls them): what the service worker answers agrees with Fawn's server where they overlap.
import { Client } from "@langchain/langgraph-sdk";
import { createGatewayFetch } from "../../src/gateway/index.ts";
import { useGatewayHarness } from "../integration/harness.ts";
import { sdkSuite } from "./sdk-suite.ts";

const harness = useGatewayHarness("langgraph-api-browser");

sdkSuite({
  name: "the in-browser routes",
  parts: ["core"],
  client: () => {
    const handle = createGatewayFetch(harness.gateway);
    return new Client({
      apiUrl: "http://fawn.local/api",
      callerOptions: {
        maxRetries: 0,
        fetch: (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init)),
      },
    });
  },
});
