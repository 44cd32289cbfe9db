// The OpenTelemetry GenAI semantic conventions' names this projection uses (semconv 1.45, the
// `gen_ai.*` attributes are still "development"). Kept as strings: the conventions package is
// not a dependency, and these names are the wire format a backend matches on.

/** `gen_ai.operation.name` and the span name's first word. */
export const OPERATION = 'gen_ai.operation.name';
/** The provider (`openai`, `anthropic`, …). */
export const PROVIDER = 'gen_ai.provider.name';
/** The model asked for. */
export const REQUEST_MODEL = 'gen_ai.request.model';
/** The agent's name. */
export const AGENT_NAME = 'gen_ai.agent.name';
/** The session the run belongs to. */
export const CONVERSATION_ID = 'gen_ai.conversation.id';
/** Prompt tokens of a request (or a run, on `invoke_agent`). */
export const INPUT_TOKENS = 'gen_ai.usage.input_tokens';
/** Completion tokens of a request (or a run, on `invoke_agent`). */
export const OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
/** Of the input tokens, those read from the provider's prompt cache (when it reported them). */
export const CACHE_READ_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
/** Of the input tokens, those written to the prompt cache (when it reported them). */
export const CACHE_WRITE_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
/** Of the output tokens, those spent reasoning (when the provider reported them). */
export const REASONING_TOKENS = 'gen_ai.usage.reasoning.output_tokens';
/** Why the model stopped, as a one-element array. */
export const FINISH_REASONS = 'gen_ai.response.finish_reasons';
/** The tool's name. */
export const TOOL_NAME = 'gen_ai.tool.name';
/** The tool call's id. */
export const TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** `function` for every harness tool. */
export const TOOL_TYPE = 'gen_ai.tool.type';
/** The call's arguments as JSON (content: only when asked). */
export const TOOL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** The call's result text (content: only when asked). */
export const TOOL_RESULT = 'gen_ai.tool.call.result';
/** The run's input (content: only when asked). */
export const INPUT_MESSAGES = 'gen_ai.input.messages';
/** What the model answered in a turn (content: only when asked). */
export const OUTPUT_MESSAGES = 'gen_ai.output.messages';
/** Why a run stopped without failing (`suspended`); the harness's own attribute. */
export const STOP_REASON = 'agent_harness.stop_reason';
/** A guardrail's verdict, as an event on the run's span; the harness's own names. */
export const GUARDRAIL_EVENT = 'agent_harness.guardrail';
/** The guardrail's name, on a {@link GUARDRAIL_EVENT}. */
export const GUARDRAIL_NAME = 'agent_harness.guardrail.name';
/** Its stage (`input`, `output`, `toolResult`). */
export const GUARDRAIL_STAGE = 'agent_harness.guardrail.stage';
/** Its outcome (`pass`, `replace`, `tripwire`, `error`). */
export const GUARDRAIL_OUTCOME = 'agent_harness.guardrail.outcome';

/** The class of a failure: a stop reason, or `tool_error`. */
export const ERROR_TYPE = 'error.type';
