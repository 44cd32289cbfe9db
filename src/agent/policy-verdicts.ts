import { composedParts, stricter } from '../config/composed-rules.js';
import { FALLBACK_KEY, type FoundRule } from '../config/permission-policy.js';
import {
  PERMISSIONS,
  type Permission,
  type PolicyAnswer,
  type PolicyContext,
  type PolicyFunction,
  type PolicyVerdict,
} from '../core/approval-types.js';
import { errorMessage } from '../core/errors.js';
import type { ToolCall } from '../core/messages.js';
import { isPromiseLike } from '../core/promise-like.js';

/** A parent's key in a sub-agent's composed policy: `parent write` (see `narrowPolicy`). */
const PARENT_PREFIX = /^(?:parent )*/;

/**
 * How a rule is named in the journal and on the prompt: its key (`fallback` for `*`, after any
 * `parent ` of a sub-agent's composed rule), and a function's own name when it has another.
 */
export function ruleLabel(found: FoundRule): string {
  const parents = PARENT_PREFIX.exec(found.key)?.[0] ?? '';
  const own = found.key.slice(parents.length);
  const key = `${parents}${own === FALLBACK_KEY ? 'fallback' : own}`;
  if (typeof found.rule !== 'function') return key;
  const name = found.rule.name;
  return name === '' || name === own || name === found.key || name === key ? key : `${key}: ${name}`;
}

/** The reason a fixed `deny` rule gives. */
export const policyDenialReason = (name: string): string => `the tool policy denies '${name}'`;

/** What a function's answer means; anything but a permission or `{ deny }` denies. */
function verdictOfAnswer(answer: unknown, rule: string, call: ToolCall): PolicyVerdict {
  if (PERMISSIONS.includes(answer as Permission)) {
    const permission = answer as Permission;
    return permission === 'deny'
      ? { permission, rule, reason: `the tool policy (${rule}) denies '${call.name}'`, computed: true }
      : { permission, rule, computed: true };
  }
  const deny = (answer as { deny?: unknown } | null)?.deny;
  if (typeof deny === 'string' && deny !== '') return { permission: 'deny', rule, reason: deny, computed: true };
  return {
    permission: 'deny',
    rule,
    reason: `the tool policy (${rule}) answered ${JSON.stringify(answer) ?? String(answer)}, not 'allow', 'ask', 'deny' or { deny: reason }`,
    computed: true,
  };
}

const failed = (error: unknown, rule: string): PolicyVerdict => ({
  permission: 'deny',
  rule,
  reason: `the tool policy (${rule}) failed: ${errorMessage(error)}`,
  computed: true,
});

function callFunction(fn: PolicyFunction, rule: string, call: ToolCall, ctx: PolicyContext) {
  let answer: PolicyAnswer | Promise<PolicyAnswer>;
  try {
    answer = fn(call, ctx);
  } catch (error) {
    return failed(error, rule);
  }
  return isPromiseLike(answer)
    ? Promise.resolve(answer).then(
        (settled) => verdictOfAnswer(settled, rule, call),
        (error: unknown) => failed(error, rule),
      )
    : verdictOfAnswer(answer, rule, call);
}

/** The stricter of two verdicts (the first on a tie), marked computed when either was. */
function stricterVerdict(a: PolicyVerdict, b: PolicyVerdict): PolicyVerdict {
  const verdict = stricter(a.permission, b.permission) === a.permission ? a : b;
  return a.computed || b.computed ? { ...verdict, computed: true } : verdict;
}

/**
 * What a rule says about a call. A fixed rule answers at once; a function is called (a throw or
 * a rejection denies, with the error as the reason); a composed rule (a sub-agent's) asks both
 * its parts and takes the stricter answer. Never throws.
 */
export function verdictOf(
  found: FoundRule | undefined,
  call: ToolCall,
  ctx: () => PolicyContext,
): PolicyVerdict | Promise<PolicyVerdict> {
  if (found === undefined) return { permission: 'allow', computed: false };
  const parts = composedParts(found.rule);
  if (parts !== undefined) {
    const first = verdictOf(parts.first, call, ctx);
    const second = verdictOf(parts.second, call, ctx);
    if (!isPromiseLike(first) && !isPromiseLike(second)) return stricterVerdict(first, second);
    return Promise.all([first, second]).then(([a, b]) => stricterVerdict(a, b));
  }
  const rule = ruleLabel(found);
  if (typeof found.rule === 'function') return callFunction(found.rule, rule, call, ctx());
  return found.rule === 'deny'
    ? { permission: 'deny', rule, reason: policyDenialReason(call.name), computed: false }
    : { permission: found.rule, rule, computed: false };
}
