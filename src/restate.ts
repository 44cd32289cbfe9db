/**
 * `agent-harness/restate`: agents as Restate virtual objects, one per session, each model turn
 * and tool call a durable step; workers that die are replaced and their runs go on. Needs the
 * optional peer `@restatedev/restate-sdk`. On Node 20 it installs `Promise.withResolvers` (which
 * the SDK needs) where it is missing. See docs/scale-out.md.
 */
import './restate/polyfill.js';

export { type InvocationStatus, invocationStatus, registerDeployment } from './restate/admin-client.js';
export { type AgentObjectOptions, type AgentParts, agentObject } from './restate/agent-object.js';
export { type DevServer, startDevServer } from './restate/dev-server.js';
export type { StepTiming } from './restate/durable-steps.js';
export {
  approveCall,
  cancelRun,
  denyCall,
  type IngressTarget,
  runOutcome,
  runStatus,
  submitRun,
} from './restate/ingress-client.js';
export {
  DEFAULT_SERVICE,
  type Decision,
  type RunOutcome,
  type RunRequest,
  type RunStatus,
} from './restate/protocol.js';
export { serveWorker, type Worker, type WorkerOptions } from './restate/worker.js';
