// agent-harness/inspector: the local inspector page and its data feeds.

export type {
  FollowListener,
  ForkedSession,
  ForkHandler,
  InspectorFeedOptions,
  InspectorServer,
  InspectorServerOptions,
  InspectorSnapshot,
  InspectorSource,
  ReadTimingsOptions,
  ServedSnapshot,
  StepListener,
  TimelineStep,
  TimelineStepKind,
  TimelineToolCall,
  ToolCallStatus,
  ToolTiming,
} from './inspector/index.js';
export {
  FORK_TOKEN_HEADER,
  followAgent,
  InspectionFeed,
  InspectorFeed,
  readTimingFile,
  startInspector,
  timingPath,
  writeTimingFile,
} from './inspector/index.js';
