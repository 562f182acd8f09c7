// The gateway layer's public surface.
export { Gateway, GatewayError, THREAD_ID, type GatewayOptions } from "./gateway.ts";
export { createGatewayFetch } from "./http-routes.ts";
