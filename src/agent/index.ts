// The agent layer's public surface.
export { createLeadAgent, leadAgentSystemPrompt, type LeadAgent, type LeadAgentOptions } from "./lead-agent.ts";
export { fromWireMessage, toWireChunk, toWireMessage } from "./wire-messages.ts";
