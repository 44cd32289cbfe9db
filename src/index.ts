// Data

export type { AnthropicClientOptions } from './adapters/anthropic/anthropic-client.js';
export { ANTHROPIC_BASE_URL, AnthropicClient } from './adapters/anthropic/anthropic-client.js';
export type { HttpClientOptions } from './adapters/http/client-options.js';
export type { ModelErrorKind, ModelErrorOptions } from './adapters/http/model-error.js';
export { ModelError } from './adapters/http/model-error.js';
export type { RetryOptions } from './adapters/http/retry-policy.js';
export type { Sleep } from './adapters/http/sleep.js';
export type { RetryNotice } from './adapters/http/with-retries.js';
export { readJournalFile, writeJournalFile } from './adapters/journal-store.js';
// Model clients
export type { ChatCompletionOptions, ModelClient } from './adapters/model-client.js';
export type { OpenAIClientOptions } from './adapters/openai/openai-client.js';
export { OPENAI_BASE_URL, OpenAIClient } from './adapters/openai/openai-client.js';
export type { BudgetRates, ModelPrice } from './adapters/prices.js';
export { MODEL_PRICES, PRICES_AS_OF, PriceTable } from './adapters/prices.js';
export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from './adapters/scripted-client.js';
export { ScriptedClient } from './adapters/scripted-client.js';
export type { AgentOptions, MachineClock, RunOptions } from './agent/agent.js';
export { Agent } from './agent/agent.js';
export type { ProvidedAgentMachine } from './agent/provide-machine.js';
export type { BudgetOptions, BudgetStopReason, SoftLimitHit } from './config/budget.js';
export { Budget } from './config/budget.js';
export type { ConfigOptions } from './config/config.js';
// Configuration and budgets
export { Config, DEFAULT_MAX_TOOL_OUTPUT_CHARS, DEFAULT_MAX_TURNS } from './config/config.js';
export type { AgentEventDataMap, BudgetKind, StopReason } from './core/agent-event.js';
export { AgentEvent, AgentEventType, isTerminal } from './core/agent-event.js';
export type { HarnessErrorReason } from './core/errors.js';
export { errorMessage, HarnessError } from './core/errors.js';
export type {
  AssistantMessage,
  JsonObject,
  JsonValue,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  ToolResultMessage,
  UserMessage,
} from './core/messages.js';
export { stableJson } from './core/stable-json.js';
export type { FinishReason, StreamError, TextDelta } from './core/stream-event.js';
export { StreamEvent, StreamEventType, textOf } from './core/stream-event.js';
export type { TokenUsage } from './core/usage.js';
export { addUsage, tokenUsage, ZERO_USAGE } from './core/usage.js';
export type { EventBusOptions, StreamRecord, Subscriber, SubscriberErrorHandler } from './events/event-bus.js';
// Events and sessions
export { EventBus } from './events/event-bus.js';
export { graphFromDefinition } from './inspect/definition-graph.js';
export { toDot } from './inspect/dot.js';
export { toGraphJson } from './inspect/graph-json.js';
export type { GraphActor, GraphEdge, GraphState, MachineGraph } from './inspect/machine-graph.js';
// Diagrams
export { machineGraph } from './inspect/machine-graph.js';
export { eventLabel, toMermaid } from './inspect/mermaid.js';
export { InspectionFeed } from './inspector/inspection-feed.js';
export type {
  InspectorFeedOptions,
  InspectorSnapshot,
  StepListener,
} from './inspector/inspector-feed.js';
// The local inspector
export { InspectorFeed } from './inspector/inspector-feed.js';
export type { InspectorServer, InspectorServerOptions, InspectorSource } from './inspector/inspector-server.js';
export { startInspector } from './inspector/inspector-server.js';
export type { TimelineBuilderOptions } from './inspector/timeline-builder.js';
export { TimelineBuilder } from './inspector/timeline-builder.js';
export type { TimelineStep, TimelineStepKind, TimelineToolCall, ToolCallStatus } from './inspector/timeline-step.js';
export type { ToolTiming } from './inspector/tool-timings.js';
export {
  collectToolTimings,
  parseTimings,
  readTimingFile,
  serializeTimings,
  timingPath,
  writeTimingFile,
} from './inspector/tool-timings.js';
// The machine and the agent
export { agentMachine, toolActorId } from './machines/agent-machine.js';
export type * from './machines/agent-machine-types.js';
export type { ToolActorLogic, ToolActorSnapshot, ToolCallRunner } from './machines/tool-actor-logic.js';
export { toolActorLogic } from './machines/tool-actor-logic.js';
export type * from './session/journal-entry.js';
export type { JournalHeader } from './session/journal-file.js';
// Journals on disk
export { parseJournal, serializeJournal } from './session/journal-file.js';
export { checkJournalVersion, JOURNAL_VERSION, READABLE_JOURNAL_VERSIONS } from './session/journal-version.js';
export type { SessionOptions, SessionSnapshot, ToolCallInput } from './session/session.js';
export { Session } from './session/session.js';
export { ReadFileTool } from './tools/read-file.js';
export type { AnyTool, InvokeOptions } from './tools/registry.js';
export { ToolRegistry } from './tools/registry.js';
export type { ToolInvocation, ToolLike, ToolSpec } from './tools/tool.js';
// Tools
export { defineTool, Tool } from './tools/tool.js';
export { ToolKind } from './tools/tool-kind.js';
export type { ToolDefinition } from './tools/tool-params.js';
export { ToolResult, toolMessageContent } from './tools/tool-result.js';
export { truncateOutput } from './tools/truncate.js';
