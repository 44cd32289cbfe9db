/** How hard tests search: `default` keeps CI fast, `deep` (env `TEST_DEPTH=deep`) searches more. */
export type TestDepth = 'default' | 'deep';

/** The depth chosen by the `TEST_DEPTH` environment variable (`deep`, or anything else for default). */
export function testDepth(env: Readonly<Record<string, string | undefined>> = process.env): TestDepth {
  return env.TEST_DEPTH === 'deep' ? 'deep' : 'default';
}

/** Picks the value for the current {@link testDepth}. */
export function byDepth<T>(values: { readonly default: T; readonly deep: T }, depth: TestDepth = testDepth()): T {
  return values[depth];
}
