import type { Message } from '../../core/messages.js';
import type { ChatCompletionOptions, ModelClient } from '../../core/model-client.js';
import type { ToolDefinition } from '../../core/tool-params.js';
import type { SecretRedactor } from './redact-secrets.js';

/** What stands for the run's session id in a recorded provider body. */
export const SESSION_ID_PLACEHOLDER = '<session id>';

/**
 * The provider body `client` makes of a request (`wireRequest`), redacted, with the run's session
 * id (which the OpenAI client sends as `prompt_cache_key`, say) replaced by a placeholder: a
 * replay runs in a new session, and its bodies must compare equal to the recorded ones.
 * `undefined` when the client has no `wireRequest`.
 */
export function wireBody(
  client: ModelClient,
  redactor: SecretRedactor,
  messages: readonly Message[],
  tools: readonly ToolDefinition[] | undefined,
  options: ChatCompletionOptions,
): unknown {
  if (client.wireRequest === undefined) return undefined;
  const body = redactor.value(client.wireRequest(messages, tools, options));
  const { sessionId } = options;
  if (sessionId === undefined || sessionId === '') return body;
  return JSON.parse(JSON.stringify(body).split(JSON.stringify(sessionId).slice(1, -1)).join(SESSION_ID_PLACEHOLDER));
}
