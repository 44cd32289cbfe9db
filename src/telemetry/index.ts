/**
 * The face of `telemetry/` (row 6): OpenTelemetry traces of an agent's stream. Needs the optional
 * peer dependency `@opentelemetry/api`.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type { TraceAgentOptions } from './trace-agent.js';
export { traceAgent } from './trace-agent.js';
