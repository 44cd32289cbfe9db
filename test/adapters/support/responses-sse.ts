import type { FakeResponder, FakeResponse, ReceivedRequest } from './fake-server.js';

/** One reasoning item of a scripted Responses turn. */
export interface ScriptedReasoning {
  readonly id: string;
  readonly encrypted: string;
  /** Its summary: one part, or each part the API gives in turn. */
  readonly summary: string | readonly string[];
  /** Its reasoning text, each part the API gives in turn (`reasoning_text` content); none when absent. */
  readonly text?: readonly string[];
}

/** A scripted Responses turn: its reasoning, then a function call or a text answer. */
export interface ScriptedResponse {
  readonly reasoning: ScriptedReasoning;
  readonly call?: { readonly callId: string; readonly name: string; readonly arguments: string };
  readonly text?: string;
  readonly usage: {
    readonly input: number;
    readonly cached: number;
    readonly output: number;
    readonly reasoning: number;
  };
}

/**
 * The documented event sequence of a streamed response, as `event:`/`data:` SSE: created,
 * a reasoning item (summary parts, reasoning text parts, their deltas, done with its encrypted content), then a
 * function call with its argument deltas or a message with its text, then completed.
 */
export function responsesSse(turn: ScriptedResponse): string {
  let sequence = 0;
  const lines: string[] = [];
  const event = (type: string, fields: Record<string, unknown>) => {
    lines.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: sequence++ })}\n\n`);
  };
  const response = (status: string, output: unknown[], usage: unknown = null) => ({
    id: `resp_${turn.reasoning.id}`,
    object: 'response',
    status,
    model: 'o4-mini-2025-04-16',
    output,
    store: false,
    usage,
  });
  const { reasoning } = turn;
  event('response.created', { response: response('in_progress', []) });
  event('response.output_item.added', { output_index: 0, item: { id: reasoning.id, type: 'reasoning', summary: [] } });
  const texts = typeof reasoning.summary === 'string' ? [reasoning.summary] : reasoning.summary;
  const parts = texts.map((text) => ({ type: 'summary_text', text }));
  parts.forEach((part, summary_index) => {
    const at = { item_id: reasoning.id, output_index: 0, summary_index };
    event('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
    event('response.reasoning_summary_text.delta', { ...at, delta: part.text });
    event('response.reasoning_summary_text.done', { ...at, text: part.text });
    event('response.reasoning_summary_part.done', { ...at, part });
  });
  const content = (reasoning.text ?? []).map((text) => ({ type: 'reasoning_text', text }));
  content.forEach((part, content_index) => {
    const at = { item_id: reasoning.id, output_index: 0, content_index };
    event('response.content_part.added', { ...at, part: { type: 'reasoning_text', text: '' } });
    event('response.reasoning_text.delta', { ...at, delta: part.text });
    event('response.reasoning_text.done', { ...at, text: part.text });
    event('response.content_part.done', { ...at, part });
  });
  const reasoningItem = {
    id: reasoning.id,
    type: 'reasoning',
    summary: parts,
    ...(content.length > 0 ? { content } : {}),
    encrypted_content: reasoning.encrypted,
  };
  event('response.output_item.done', { output_index: 0, item: reasoningItem });
  let second: Record<string, unknown>;
  if (turn.call) {
    const { callId, name, arguments: args } = turn.call;
    const id = `fc_${callId}`;
    const begun = { id, type: 'function_call', status: 'in_progress', call_id: callId, name, arguments: '' };
    event('response.output_item.added', { output_index: 1, item: begun });
    const half = Math.ceil(args.length / 2);
    for (const delta of [args.slice(0, half), args.slice(half)]) {
      event('response.function_call_arguments.delta', { item_id: id, output_index: 1, delta });
    }
    event('response.function_call_arguments.done', { item_id: id, output_index: 1, arguments: args });
    second = { ...begun, status: 'completed', arguments: args };
  } else {
    const id = `msg_${reasoning.id}`;
    event('response.output_item.added', {
      output_index: 1,
      item: { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] },
    });
    event('response.output_text.delta', { item_id: id, output_index: 1, content_index: 0, delta: turn.text ?? '' });
    const content = [{ type: 'output_text', text: turn.text ?? '', annotations: [] }];
    second = { id, type: 'message', role: 'assistant', status: 'completed', content };
  }
  event('response.output_item.done', { output_index: 1, item: second });
  const { input, cached, output, reasoning: thought } = turn.usage;
  event('response.completed', {
    response: response('completed', [reasoningItem, second], {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: thought },
      total_tokens: input + output,
    }),
  });
  return lines.join('');
}

type InputItem = { type?: string; role?: string; id?: string; call_id?: string; encrypted_content?: string };

/**
 * A Responses server that holds requests to what the real API requires with `store: false`:
 * a function call of an earlier response is sent back only after that response's reasoning
 * item, in the same turn and with its encrypted content unchanged; else the request is refused
 * (HTTP 400, the API's message). It answers the n-th valid request with `turns[n]`.
 */
export function reasoningCheckingServer(turns: readonly ScriptedResponse[]): {
  readonly respond: FakeResponder;
  readonly refusals: string[];
} {
  const issued = new Map<string, ScriptedReasoning>();
  const refusals: string[] = [];
  let served = 0;
  const respond = (request: ReceivedRequest): FakeResponse => {
    const input = ((request.body as { input?: InputItem[] } | undefined)?.input ?? []) as InputItem[];
    const sinceTurnStart = new Map<string, InputItem>();
    for (const item of input) {
      if (item.role === 'user' || item.type === 'function_call_output') sinceTurnStart.clear();
      if (item.type === 'reasoning' && item.id) sinceTurnStart.set(item.id, item);
      const needed = item.type === 'function_call' && item.call_id ? issued.get(item.call_id) : undefined;
      if (needed === undefined) continue;
      const sent = sinceTurnStart.get(needed.id);
      if (sent?.encrypted_content !== needed.encrypted) {
        const message = `Item 'fc_${item.call_id}' of type 'function_call' was provided without its required 'reasoning' item: '${needed.id}'.`;
        refusals.push(message);
        const error = { message, type: 'invalid_request_error', param: 'input', code: null };
        return { status: 400, chunks: [JSON.stringify({ error })] };
      }
    }
    const turn = turns[Math.min(served++, turns.length - 1)] as ScriptedResponse;
    if (turn.call) issued.set(turn.call.callId, turn.reasoning);
    return { chunks: [responsesSse(turn)] };
  };
  return { respond, refusals };
}
