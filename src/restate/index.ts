/** The face of `restate/`: sessions as Restate virtual objects (see `src/restate.ts`). */

export { type InvocationStatus, invocationStatus, registerDeployment } from './admin-client.js';
export { type AgentObjectOptions, type AgentParts, agentObject } from './agent-object.js';
export { type DevServer, startDevServer } from './dev-server.js';
export type { StepTiming } from './durable-steps.js';
export {
  approveCall,
  cancelRun,
  denyCall,
  type IngressTarget,
  runOutcome,
  runStatus,
  submitRun,
} from './ingress-client.js';
export {
  DEFAULT_SERVICE,
  type Decision,
  type RunOutcome,
  type RunRequest,
  type RunStatus,
} from './protocol.js';
export { serveWorker, type Worker, type WorkerOptions } from './worker.js';
