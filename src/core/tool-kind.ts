/** What a tool does to the world; decides default concurrency (only `read` tools run in parallel). */
export const ToolKind = {
  READ: 'read',
  WRITE: 'write',
  SHELL: 'shell',
  NETWORK: 'network',
  OTHER: 'other',
} as const;

/** One of the {@link ToolKind} values. */
export type ToolKind = (typeof ToolKind)[keyof typeof ToolKind];
