/**
 * A worker process for the Restate tests: serves the agent's virtual object on PORT, with a
 * stateless scripted model (its answer is a function of the conversation, as a real model's is,
 * so any worker answers alike) and two tools: `effect` (not idempotent: each run appends a line
 * to EFFECTS) and `look` (idempotent). Env: STORE, PORT, EFFECTS, TURNS (tool turns before the
 * answer), MODEL_MS and TOOL_MS (how long each takes), MAX_TURNS, DENY=1 (`effect` is denied by
 * policy: this worker's code changed). In a session whose id starts with `ask`, `effect` asks
 * first; in one whose task starts with `slow`, each tool call takes a minute; in one whose task
 * starts with `par`, the first turn asks two `look` calls at once, the second settling first. GUARDRAILS=FILE:
 * an `input` and a `toolResult` guardrail that pass, each check appending a line to FILE
 * (`check STAGE SESSION CALL pid`), so a test can count how often each ran.
 */
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import type { Message } from '../../../src/core/messages.js';
import type { ModelClient } from '../../../src/core/model-client.js';
import type { Guardrail } from '../../../src/guardrails.js';
import { Config, defineTool, StreamEvent, ToolRegistry } from '../../../src/index.js';
import { serveWorker } from '../../../src/restate.js';
import { openStore } from '../../../src/stores/open-store.js';

const env = process.env;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });

const turns = Number(env.TURNS ?? 2);
const toolMs = (tag: string) => (tag.startsWith('slow') ? 60_000 : Number(env.TOOL_MS ?? 20));
const client: ModelClient = {
  model: 'stateless-test-model',
  async *chatCompletion(messages: readonly Message[], _tools, options = {}) {
    await sleep(Number(env.MODEL_MS ?? 20), options.signal);
    const done = messages.filter((message) => message.role === 'tool').length;
    const tag = String(messages.find((message) => message.role === 'user')?.content ?? '');
    if (done === 0 && tag.startsWith('par')) {
      // Two calls at once; the second settles first.
      yield StreamEvent.toolCallComplete({ callId: 'call_1', name: 'look', arguments: { n: 1, tag, ms: 400 } });
      yield StreamEvent.toolCallComplete({ callId: 'call_2', name: 'look', arguments: { n: 2, tag, ms: 50 } });
      yield StreamEvent.messageComplete({ promptTokens: 10, completionTokens: 5, totalTokens: 15 }, 'tool_calls');
      return;
    }
    if (done < turns) {
      const n = done + 1;
      yield StreamEvent.textDelta(`step ${n}. `);
      yield StreamEvent.toolCallComplete({
        callId: `call_${n}`,
        name: n % 2 === 1 ? 'effect' : 'look',
        arguments: { n, tag },
      });
      yield StreamEvent.messageComplete({ promptTokens: 10, completionTokens: 5, totalTokens: 15 }, 'tool_calls');
      return;
    }
    yield StreamEvent.textDelta(`done after ${done} calls`);
    yield StreamEvent.messageComplete({ promptTokens: 10, completionTokens: 5, totalTokens: 15 }, 'stop');
  },
};

const effect = defineTool({
  name: 'effect',
  description: 'does something that must not happen twice',
  kind: 'write',
  schema: z.object({ n: z.number(), tag: z.string() }),
  async execute({ params, signal }) {
    appendFileSync(env.EFFECTS as string, `start ${params.tag} ${params.n} ${process.pid}\n`);
    signal.addEventListener('abort', () =>
      appendFileSync(env.EFFECTS as string, `aborted ${params.tag} ${params.n}\n`),
    );
    await sleep(toolMs(params.tag), signal);
    appendFileSync(env.EFFECTS as string, `end ${params.tag} ${params.n} ${process.pid}\n`);
    return `effect ${params.n} done`;
  },
});
const look = defineTool({
  name: 'look',
  description: 'reads something',
  kind: 'read',
  idempotent: true,
  schema: z.object({ n: z.number(), tag: z.string(), ms: z.number().optional() }),
  async execute({ params, signal }) {
    await sleep(params.ms ?? toolMs(params.tag), signal);
    return `looked ${params.n}`;
  },
});

/** A guardrail that passes and logs each check it makes to GUARDRAILS. */
const logged = (stage: string): Guardrail => ({
  name: `log-${stage}`,
  check: (_value, context) => {
    const line = `check ${stage} ${context.session.id} ${context.call?.callId ?? '-'} ${process.pid}\n`;
    appendFileSync(env.GUARDRAILS as string, line);
    return 'pass';
  },
});

const store = await openStore(env.STORE as string);
const configFor = (sessionId: string) =>
  new Config({
    maxTurns: Number(env.MAX_TURNS ?? 20),
    permissions: { effect: env.DENY === '1' ? 'deny' : sessionId.startsWith('ask') ? 'ask' : 'allow', look: 'allow' },
    ...(env.GUARDRAILS === undefined
      ? {}
      : { guardrails: { input: [logged('input')], toolResult: [logged('toolResult')] } }),
  });
const worker = await serveWorker({
  store,
  port: Number(env.PORT),
  lockWaitMs: 20_000,
  agent: (sessionId) => {
    const config = configFor(sessionId);
    return { config, client, tools: new ToolRegistry(config).register(effect, look) };
  },
});
process.stdout.write(`ready ${worker.url}\n`);
