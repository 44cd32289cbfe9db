import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli/main.js';
import { recordingSleep } from '../adapters/support/drain.js';
import { errorAnswer, type FakeServer, fixture, startFakeServer } from '../adapters/support/fake-server.js';
import { TERMINAL_CONTROL } from '../support/terminal.js';
import { captured, cliWorkspace } from './support/cli-harness.js';

let server: FakeServer | undefined;
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', 'sk-test');
  vi.stubEnv('OPENAI_BASE_URL', undefined);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

/** Text a hostile server sends: a title change (OSC), a screen clear (CSI), 8-bit CSI, a C1 control, bidi overrides. */
const HOSTILE =
  'busy\u001b]0;pwned\u0007 \u001b[2J\u001b[1;31mred\u001b[0m \u009b2J\u0085 \u202eevil\u202c \u2066x\u2069 end';

describe('server text on the terminal', () => {
  it('reaches the retry lines and the stop line without escape sequences, C1 controls or bidi overrides', async () => {
    server = await startFakeServer([errorAnswer(503, HOSTILE)]);
    const recorder = recordingSleep();
    const command = createRunCommand({ retry: { sleep: recorder.sleep, random: () => 0 }, handleSigint: false });
    const out = captured();
    const err = captured();
    const code = await command(['hi', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()], out, undefined, err);
    expect(code).toBe(1);
    const retries = err.text().trimEnd().split('\n');
    expect(retries).toHaveLength(2);
    for (const line of retries) {
      expect(line).toMatch(/^retry \d in [\d.]+ s after: openai at .*: server error \(HTTP 503\): busy⟨U\+001B⟩/);
      expect(line).not.toMatch(TERMINAL_CONTROL);
      // Each control is a visible marker; what followed it is plain text.
      expect(line).toContain('⟨U+001B⟩]0;pwned⟨U+0007⟩');
      expect(line).toContain('⟨U+202E⟩evil⟨U+202C⟩');
    }
    expect(out.text()).toContain('✗ stopped (model_error)');
    expect(out.text()).not.toMatch(TERMINAL_CONTROL);
  });

  it('keeps NDJSON lines free of raw C1 controls and bidi overrides, escaped but intact', async () => {
    server = await startFakeServer([{ chunks: [fixture('openai/text.sse')] }]);
    const out = captured();
    const err = captured();
    const code = await main(
      ['run', 'hi \u202eevil\u009b2J', '--json', '--base-url', `${server.url}/v1`, '--cwd', cliWorkspace()],
      out,
      err,
    );
    expect(code).toBe(0);
    expect(out.text()).not.toMatch(TERMINAL_CONTROL);
    const start = JSON.parse(out.text().split('\n')[0] ?? '') as { data: { input: string } };
    expect(start.data.input).toBe('hi \u202eevil\u009b2J');
  });

  it('prints a usage error quoting a hostile value without its control characters', async () => {
    const err = captured();
    expect(await main(['run', 'hi', '--provider', 'x\u001b]0;pwned\u0007\u202e'], captured(), err)).toBe(2);
    expect(err.text()).toBe(
      "agent-harness run: --provider must be one of openai, anthropic, got 'x⟨U+001B⟩]0;pwned⟨U+0007⟩⟨U+202E⟩'\n",
    );
  });
});
