/**
 * Whether an OpenAI model name is one of its reasoning models (the o-series, `gpt-5` but not
 * `gpt-5-chat`, `codex-…`), which return reasoning items. Asking any other model for encrypted
 * reasoning content is refused (HTTP 400), so the Responses client asks only these, unless told.
 */
export function isOpenAIReasoningModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  if (name.startsWith('gpt-5')) return !name.startsWith('gpt-5-chat');
  return /^o\d/.test(name) || name.startsWith('codex-');
}
