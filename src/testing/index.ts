/**
 * Testing kit (`agent-harness/testing`): a scripted model, script arbitraries for fast-check,
 * loop invariants over journals and events, an exhaustive model checker for the machine, and a
 * runtime walk that drives the real agent through crashes, resumes, forks and handoffs.
 */

export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from '../adapters/scripted-client.js';
export { ScriptedClient } from '../adapters/scripted-client.js';
export type {
  Cassette,
  CassetteSource,
  CassetteTurn,
  RecordedModelAnswer,
  RecordedModelRequest,
} from './cassettes/cassette.js';
export { CASSETTE_VERSION } from './cassettes/cassette.js';
export type { ReadCassetteOptions } from './cassettes/cassette-file.js';
export { parseCassette, readCassetteFile, serializeCassette, writeCassetteFile } from './cassettes/cassette-file.js';
export type { JournalCassetteOptions } from './cassettes/cassette-from-journal.js';
export { cassetteFromJournal } from './cassettes/cassette-from-journal.js';
export type { CassetteReport, CassetteStep, Divergence, DivergenceKind } from './cassettes/divergence.js';
export { formatCassetteReport, formatDivergence } from './cassettes/divergence.js';
export { expectCassette } from './cassettes/expect-cassette.js';
export type { CassetteInput, JournalHolder } from './cassettes/load-cassette.js';
export { loadCassette } from './cassettes/load-cassette.js';
export type { HasJournal, RecordCassetteOptions } from './cassettes/record-cassette.js';
export { CassetteRecorder, recordCassette } from './cassettes/record-cassette.js';
export type { AgentSpec, MakeAgent, ReplayOptions } from './cassettes/replay-cassette.js';
export { replayCassette } from './cassettes/replay-cassette.js';
export type { MatchOptions, StepComparator } from './cassettes/step-matcher.js';
export type { CassetteUpdate } from './cassettes/update-cassette.js';
export { updateCassette } from './cassettes/update-cassette.js';
export type { DelegationRule, DelegationViolation } from './invariants/delegation-invariants.js';
export { checkDelegationInvariants } from './invariants/delegation-invariants.js';
export type { LoopInvariantOptions } from './invariants/loop-invariants.js';
export { assertLoopInvariants, checkLoopInvariants } from './invariants/loop-invariants.js';
export type { LoopRule, LoopViolation } from './invariants/loop-violation.js';
export { LoopInvariantError } from './invariants/loop-violation.js';
export type { SentRequest } from './invariants/reasoning-integrity.js';
export { assertReasoningIntegrity, checkReasoningIntegrity } from './invariants/reasoning-integrity.js';
export type { AlphabetOptions, ExploredEvent } from './model-check/alphabet.js';
export { boundaryUsages } from './model-check/boundary-usages.js';
export type { BudgetTally } from './model-check/budget-oracle.js';
export { modelCheckAgentMachine, stepBound } from './model-check/model-check.js';
export type {
  ExploredStep,
  MachineRule,
  MachineViolation,
  ModelCheckOptions,
  ModelCheckReport,
  ModelCheckRule,
} from './model-check/model-check-types.js';
export { MACHINE_RULES } from './model-check/model-check-types.js';
export type { ExploredState } from './model-check/state-key.js';
export type { MonitorState, SpawnedParams, TraceStep } from './model-check/trace-monitor.js';
export { SPAWNED } from './model-check/trace-monitor.js';
export type { PropertyRunOptions } from './property-runs.js';
export { DEFAULT_PROPERTY_SEED, propertyRuns } from './property-runs.js';
export type { RunScriptOptions, ScriptRun } from './run-script.js';
export { runScript } from './run-script.js';
export type { RuntimeWalkOptions } from './runtime-walk/runtime-walk.js';
export { walkRuntime } from './runtime-walk/runtime-walk.js';
export type { ScriptedToolSpec, ToolExecution } from './runtime-walk/scripted-tools.js';
export type { WalkRequest } from './runtime-walk/walk-model.js';
export type { RuntimeRuleName } from './runtime-walk/walk-rules.js';
export { RUNTIME_RULES } from './runtime-walk/walk-rules.js';
export { boundaryScenarios, RUNTIME_SCENARIOS } from './runtime-walk/walk-scenarios.js';
export type {
  RuntimeFinding,
  RuntimeRule,
  RuntimeScenario,
  RuntimeWalkReport,
  WalkAgents,
  WalkHandoff,
  WalkSubAgent,
  WalkView,
} from './runtime-walk/walk-types.js';
export type { AnswerTurn, FailingTurn, Script, ScriptCall, ScriptTurn, StallingTurn, ToolsTurn } from './script.js';
export { formatScript, scriptCallId, scriptedTurns } from './script.js';
export type { ScriptArbitraryOptions, ToolArbitrary } from './script-arbitraries.js';
export {
  answerArbitrary,
  budgetArbitrary,
  callArbitrary,
  scriptArbitrary,
  textArbitrary,
  turnArbitrary,
  usageArbitrary,
} from './script-arbitraries.js';
export type { TestDepth } from './test-depth.js';
export { byDepth, testDepth } from './test-depth.js';
