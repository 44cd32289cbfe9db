export type { CommandPrefixOptions } from './command-prefixes.js';
export { commandPrefixes } from './command-prefixes.js';
export { numericLimit } from './numeric-limit.js';
export type { PathGlobOptions } from './path-globs.js';
export { pathGlobs } from './path-globs.js';
