/**
 * Testing kit (`agent-harness/testing`): a scripted model, script arbitraries for fast-check,
 * loop invariants over journals and events, and an exhaustive model checker for the machine.
 */

export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from '../adapters/scripted-client.js';
export { ScriptedClient } from '../adapters/scripted-client.js';
export type { AlphabetOptions, ExploredEvent, ModelDoneEvent, ModelErrorEvent } from './model-check/alphabet.js';
export { modelCheckAgentMachine } from './model-check/model-check.js';
export type { MachineViolation, ModelCheckOptions, ModelCheckReport } from './model-check/model-check-types.js';
export type { TestDepth } from './test-depth.js';
export { byDepth, testDepth } from './test-depth.js';
