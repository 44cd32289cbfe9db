import type { Script } from '../../src/testing/index.js';

/** Usage of each turn of {@link ECHO_SCRIPT}. */
export const ECHO_USAGE = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };

/** The invariant tests' run: text and two echo calls, then the answer in two pieces. */
export const ECHO_SCRIPT: Script = [
  {
    kind: 'tools',
    text: ['Looking'],
    calls: [
      { name: 'echo', arguments: { text: 'a' } },
      { name: 'echo', arguments: { text: 'b' } },
    ],
    usage: ECHO_USAGE,
  },
  { kind: 'answer', text: ['It ', 'is done.'], usage: ECHO_USAGE },
];
