// The gateway layer's public surface.
export { createGateway, openGateway, openGatewayOver, type Gateway, type GatewayOptions } from "./create-gateway.ts";
export { createGatewayFetch } from "./http-routes.ts";
export { THREAD_ID, THREAD_RUNNING_ELSEWHERE } from "./threads-service.ts";
export { DATA_IN_USE_ELSEWHERE } from "./data-service.ts";
export { SANDBOX_HOST_WAIT_MS } from "./thread-sandboxes.ts";
export { eventNameOfMode, STREAM_MODES, type FawnStreamMode } from "./runs/langgraph-stream-parts.ts";
