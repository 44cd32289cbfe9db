/**
 * The face of `inspector/` (row 8): the local inspector's server, feeds and timeline.
 * Other folders and the entry points import what they use of it from here; files inside the
 * folder import each other directly.
 */

export type { DivergenceColumn, DivergencePoint, DivergenceView } from './divergence-view.js';
export { divergenceSource, divergenceView, stepAtEntry } from './divergence-view.js';
export type { FollowListener } from './follow-agent.js';
export { followAgent } from './follow-agent.js';
export type { ForkedSession, ForkHandler } from './fork-route.js';
export { FORK_TOKEN_HEADER } from './fork-route.js';
export { InspectionFeed } from './inspection-feed.js';
export type { InspectorFeedOptions, InspectorSnapshot, StepListener } from './inspector-feed.js';
export { InspectorFeed } from './inspector-feed.js';
export type { InspectorServer, InspectorServerOptions, InspectorSource, ServedSnapshot } from './inspector-server.js';
export { isLoopback, startInspector } from './inspector-server.js';
export type {
  TimelineAttachment,
  TimelineDroppedReasoning,
  TimelineReasoning,
  TimelineStep,
  TimelineStepKind,
  TimelineToolCall,
  ToolCallStatus,
} from './timeline-step.js';
export type { ReadTimingsOptions, ToolTiming } from './tool-timings.js';
export { collectToolTimings, readTimingFile, timingPath, writeTimingFile } from './tool-timings.js';
export { waitForStop } from './wait-for-stop.js';
