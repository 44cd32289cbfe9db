// agent-harness/telemetry: OpenTelemetry spans from an agent's stream. Needs the optional peer
// dependency `@opentelemetry/api`; nothing else in the package imports it.
export type { TraceAgentOptions } from './telemetry/trace-agent.js';
export { traceAgent } from './telemetry/trace-agent.js';
