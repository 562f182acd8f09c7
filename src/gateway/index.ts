// The gateway layer's public surface.
export { Gateway, GatewayError, type GatewayOptions } from "./gateway.ts";
