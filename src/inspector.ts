// agent-harness/inspector: the local inspector page and its data feeds.

export type { DivergenceColumn, DivergencePoint, DivergenceView } from './inspector/divergence-view.js';
export { divergenceSource, divergenceView, stepAtEntry } from './inspector/divergence-view.js';
export type { FollowListener } from './inspector/follow-agent.js';
export { followAgent } from './inspector/follow-agent.js';
export type { ForkedSession, ForkHandler } from './inspector/fork-route.js';
export { FORK_TOKEN_HEADER } from './inspector/fork-route.js';
export { InspectionFeed } from './inspector/inspection-feed.js';
export type { InspectorFeedOptions, InspectorSnapshot, StepListener } from './inspector/inspector-feed.js';
export { InspectorFeed } from './inspector/inspector-feed.js';
export type {
  InspectorServer,
  InspectorServerOptions,
  InspectorSource,
  ServedSnapshot,
} from './inspector/inspector-server.js';
export { startInspector } from './inspector/inspector-server.js';
export type {
  TimelineAttachment,
  TimelineDroppedReasoning,
  TimelineReasoning,
  TimelineStep,
  TimelineStepKind,
  TimelineToolCall,
  ToolCallStatus,
} from './inspector/timeline-step.js';
export type { ReadTimingsOptions, ToolTiming } from './inspector/tool-timings.js';
export { readTimingFile, timingPath, writeTimingFile } from './inspector/tool-timings.js';
