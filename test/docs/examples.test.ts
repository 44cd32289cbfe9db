import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';

/** Runs an example file and returns what it printed with console.log, one string per call. */
async function printedBy(file: string): Promise<string[]> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  try {
    await import(/* @vite-ignore */ new URL(`../../examples/${file}`, import.meta.url).href);
  } finally {
    log.mockRestore();
  }
  return lines;
}

describe('examples/', () => {
  it('reasoning.ts journals the reasoning parts and sends each back with its turn', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let lines: string[];
    try {
      lines = await printedBy('reasoning.ts');
    } finally {
      write.mockRestore();
    }
    expect(lines).toContain('reasoning parts journaled: 2; usage: [object Object]');
    expect(lines).toContain('reasoning integrity: every part went back with its turn, unchanged');
  });

  it('guardrails.ts redacts a key before the journal and the model see it, and trips on input and output', async () => {
    const lines = await printedBy('guardrails.ts');
    expect(lines).toContain('answer: The region is eu-west-1.');
    expect(lines).toContain('the model saw: "REGION=eu-west-1\\nAPI_KEY=[redacted key]"');
    // Two model turns of 45 tokens, and the judge's 45.
    expect(lines).toContain("usage with the judge's: 135 tokens");
    expect(lines).toContain("stopped: guardrail: guardrail 'injection-judge' (input) tripped: the judge said UNSAFE");
    expect(lines).toContain("stopped: guardrail: guardrail 'max-length-80' (output) tripped: 120 characters, over 80");
  });

  it('check-the-runtime.ts walks a policy that asks cleanly, and shows the path where a loosened one breaks its rule', async () => {
    const lines = await printedBy('check-the-runtime.ts');
    expect(lines[0]).toMatch(/^walked \d+ paths \(\d+ entries\): 0 findings$/);
    expect(lines).toContain('[deployNeedsApproval] entry 8: call-1-2 (deploy) ran without an approval');
    expect(lines).toContain("  scenario 'deploy with shell: allow'");
    expect(lines).toContain('  run("go") → 16 entries');
  });

  it('custom-tools.ts runs both tools in one turn and prints the answer with its usage', async () => {
    const lines = await printedBy('custom-tools.ts');
    expect(lines).toContain('  weather -> Lyon: 18 °C, light rain');
    expect(lines).toContain('  to_fahrenheit -> 64.4 °F');
    expect(lines).toContain('answer: Lyon: 18 °C (64.4 °F), light rain.');
    expect(lines).toContain('turns: 2, tokens: 342');
  });

  it('replay-and-resume.ts replays byte for byte and resumes running only the call still owed', async () => {
    const lines = await printedBy('replay-and-resume.ts');
    expect(lines).toContain('replayed 16 entries, identical: true');
    expect(lines).toContain('resumed answer: Both steps are done.');
    expect(lines).toContain('tools run on resume: s2');
  });

  it('approval.ts approves, denies, suspends, and resumes in a loaded session with the decision given up front', async () => {
    const lines = await printedBy('approval.ts');
    expect(lines).toContain('shell -> denied: no commands today');
    expect(lines).toContain('stopped: suspended');
    expect(lines).toContain('pending after load: w2');
    expect(lines).toContain('todo.md: - ship it');
    expect(lines.filter((line) => line.startsWith('asked:'))).toEqual([
      'asked: write_file (w1)',
      'asked: shell (s1)',
      'asked: write_file (w2)',
    ]);
  });

  it('structured-answers.ts streams argument pieces, sends a failing answer back and prints the typed one', async () => {
    const lines = await printedBy('structured-answers.ts');
    expect(lines).toContain('calling population {"city":"Lyon"}');
    expect(lines).toContain('answer: Lyon (522 thousand)');
    expect(lines).toContain('turns: 3');
    expect(lines).toContain('argument pieces streamed: 6');
    expect(lines).toContain('sent back: Your answer does not match the required output.');
    expect(lines).toContain('journaled output: {"biggest":"Lyon","thousands":522}');
  });

  it('long-run-compaction.ts keeps 60 turns under its context limit and replays the compacted context', async () => {
    const lines = await printedBy('long-run-compaction.ts');
    expect(lines).toContain('answer: The manual is about a fox.');
    const [, compactions, elided] =
      lines.find((l) => l.startsWith('compactions:'))?.match(/(\d+); tool outputs elided: (\d+)/) ?? [];
    expect(Number(compactions)).toBeGreaterThan(5);
    expect(Number(elided)).toBeGreaterThan(50);
    const largest = Number(lines.find((l) => l.startsWith('largest request:'))?.match(/(\d+) tokens/)?.[1]);
    expect(largest).toBeGreaterThan(2_000);
    expect(largest).toBeLessThanOrEqual(4_000);
    const whole = Number(lines.find((l) => l.startsWith('without compaction:'))?.match(/(\d+) tokens/)?.[1]);
    expect(whole).toBeGreaterThan(34_000);
    expect(lines).toContain('replayed context equals the live one: true');
  });

  it('check-the-machine.ts lists the nine states and finds no violation', async () => {
    const lines = await printedBy('check-the-machine.ts');
    expect(lines).toContain(
      'states: awaitingModel, executingTools, awaitingApproval, observing, budgetCheck, compacting, guardingOutput, done, error',
    );
    expect(lines).toContain('violations: 0');
    expect(lines.find((line) => line.startsWith('stop reasons reached:'))).toContain('turn_budget');
  });

  it('subagents.ts delegates to a child agent stored beside the lead, counts its usage, and hands off', async () => {
    const lines = await printedBy('subagents.ts');
    expect(lines).toContain('child agent researcher at depth 1: lead.t1.r1');
    expect(lines).toContain('  researcher -> Lyon has 522,000 people.');
    expect(lines).toContain('answer: About 522,000.');
    expect(lines).toContain('tokens counted in the lead: 200');
    expect(lines).toContain('sessions in the store: lead, lead.t1.r1');
    expect(lines).toContain('answer: Refunded.');
    expect(lines).toContain('handoff: main -> billing');
    expect(lines).toContain('billing saw tools: refund');
  });

  it('mcp-filesystem.ts reads files through the real filesystem server and stops it', async () => {
    const lines = await printedBy('mcp-filesystem.ts');
    expect(lines).toContain('files: 14 tools, e.g. fs_read_file, fs_read_text_file, fs_read_media_file');
    expect(lines).toContain('  fs_read_text_file -> "- water the plants\\n- call Ada\\n"');
    expect(lines).toContain('answer: Two things to do: water the plants and call Ada.');
    expect(lines).toContain('server process stopped');
  });

  it('otel-traces.ts exports nested invoke_agent, chat and execute_tool spans over OTLP/HTTP to a local receiver', async () => {
    type OtlpSpan = {
      name: string;
      spanId: string;
      parentSpanId?: string;
      attributes: { key: string; value: unknown }[];
    };
    const received: OtlpSpan[] = [];
    const contentTypes: string[] = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        contentTypes.push(String(request.headers['content-type']));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans) received.push(...scope.spans);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `http://127.0.0.1:${port}/v1/traces`;
    try {
      const lines = await printedBy('otel-traces.ts');
      expect(lines).toContain('answer: Lyon: 18 °C, light rain.');
      expect(lines).toContain(`traces sent to http://127.0.0.1:${port}/v1/traces`);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
      receiver.close();
    }
    expect(contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    expect(received.map((span) => span.name).sort()).toEqual([
      'chat scripted',
      'chat scripted',
      'execute_tool weather',
      'invoke_agent weather',
    ]);
    const run = received.find((span) => span.name === 'invoke_agent weather');
    for (const span of received.filter((s) => s !== run)) expect(span.parentSpanId).toBe(run?.spanId);
    const tool = received.find((span) => span.name === 'execute_tool weather');
    expect(tool?.attributes).toContainEqual({ key: 'gen_ai.tool.call.id', value: { stringValue: 'w1' } });
  });
});
