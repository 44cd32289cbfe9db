import { describe, expect, it } from 'vitest';
import { Agent, Budget, Config, defineTool, EventBus, HarnessError, Session } from '../../src/index.js';

/** Calls `make` and returns the HarnessError it threw (failing the test for anything else). */
function refusal(make: () => unknown): HarnessError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected a HarnessError, nothing was thrown');
}

describe('misusing the public constructors gives a HarnessError naming the input, never a raw TypeError', () => {
  it.each([
    ['new Budget(null)', () => new Budget(null as never), 'invalid_config', /budget options must be an object/],
    ['new EventBus(null)', () => new EventBus(null as never), 'invalid_argument', /EventBus options must be an object/],
    ['EventBus stopGraceMs -1', () => new EventBus({ stopGraceMs: -1 }), 'invalid_argument', /stopGraceMs/],
    ['new Agent()', () => new Agent(undefined as never), 'invalid_argument', /config must be a Config/],
    [
      'new Agent(config, null)',
      () => new Agent(new Config(), null as never),
      'invalid_argument',
      /options must be an object/,
    ],
    [
      'a session that is not one',
      () => new Agent(new Config(), { session: {} as never }),
      'invalid_argument',
      /options\.session/,
    ],
    [
      'a bus that is not one',
      () => new Agent(new Config(), { events: {} as never }),
      'invalid_argument',
      /options\.events/,
    ],
    ['Session.replay(null)', () => Session.replay(null as never), 'invalid_journal', /must be an array/],
    ['defineTool(null)', () => defineTool(null as never), 'invalid_argument', /spec must be an object/],
    [
      'defineTool without execute',
      () => defineTool({ name: 'x' } as never),
      'invalid_argument',
      /'x' needs an execute/,
    ],
  ])('%s', (_, make, reason, message) => {
    const error = refusal(make);
    expect(error.reason).toBe(reason);
    expect(error.code).toBe(reason);
    expect(error.message).toMatch(message);
  });

  it('refuses a wall-clock budget longer than a Node timer can hold, instead of stopping the run at once', () => {
    expect(new Budget({ maxWallClockMs: 2_147_483_647 }).maxWallClockMs).toBe(2_147_483_647);
    const error = refusal(() => new Budget({ maxWallClockMs: 2_592_000_000 }));
    expect(error.reason).toBe('invalid_config');
    expect(error.message).toContain('at most 2147483647 ms');
    expect(error.message).toContain('2592000000');
  });
});
