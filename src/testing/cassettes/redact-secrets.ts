import { HarnessError } from '../../core/errors.js';

/** What a redacted secret is replaced with. */
export const REDACTED = '***';

/** Object keys whose values are secrets wherever they appear (headers, options, arguments). */
const SECRET_KEY =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|password|passwd|secret|client[-_]?secret|access[-_]?token|refresh[-_]?token)$/i;

/** Secrets recognised in any text: bearer/basic credentials, provider API keys, `user:pass@` in URLs. */
const BUILT_IN: readonly [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
];

/** Environment variables whose values are secrets (`OPENAI_API_KEY`, `GITHUB_TOKEN`, …). */
const SECRET_ENV = /(API_?KEY|TOKEN|SECRET|PASSWORD)$/i;

/** The shortest environment value treated as a secret (shorter ones would redact ordinary words). */
const MIN_ENV_SECRET = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles user patterns (`--redact RE`), naming the one that is not a regular expression. */
export function compileRedactions(patterns: readonly string[]): RegExp[] {
  return patterns.map((pattern) => {
    try {
      return new RegExp(pattern, 'g');
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new HarnessError('invalid_argument', `redact pattern '${pattern}' is not a regular expression: ${why}`);
    }
  });
}

/**
 * Removes secrets from JSON data before it is written to a cassette, and from a new run's
 * requests before they are compared with it (so both sides are redacted alike). Strings are
 * redacted of built-in secret shapes, of the values of secret environment variables and of the
 * user's patterns; values under secret keys (`authorization`, `apiKey`, …) become `***`.
 * Objects it has seen are remembered (a session's messages are frozen and shared between
 * requests), so each is redacted once.
 */
export class SecretRedactor {
  private readonly rules: readonly [RegExp, string][];
  private readonly seen = new WeakMap<object, unknown>();

  constructor(patterns: readonly string[] = [], env: Readonly<Record<string, string | undefined>> = process.env) {
    const values = Object.entries(env)
      .filter(([name, value]) => SECRET_ENV.test(name) && value !== undefined && value.length >= MIN_ENV_SECRET)
      .map(([, value]) => [new RegExp(escapeRegExp(value as string), 'g'), REDACTED] as [RegExp, string]);
    const user = compileRedactions(patterns).map((re) => [re, REDACTED] as [RegExp, string]);
    this.rules = [...values, ...BUILT_IN, ...user];
  }

  /** A string without its secrets. */
  text(value: string): string {
    let out = value;
    for (const [re, replacement] of this.rules) {
      re.lastIndex = 0;
      if (re.test(out)) {
        re.lastIndex = 0;
        out = out.replace(re, replacement);
      }
    }
    return out;
  }

  /** JSON data without its secrets: the same value when nothing in it was secret. */
  value<T>(data: T): T {
    return this.redact(data) as T;
  }

  private redact(data: unknown): unknown {
    if (typeof data === 'string') return this.text(data);
    if (typeof data !== 'object' || data === null) return data;
    const known = this.seen.get(data);
    if (known !== undefined) return known;
    const out = Array.isArray(data) ? this.array(data) : this.object(data as Record<string, unknown>);
    this.seen.set(data, out);
    return out;
  }

  private array(data: readonly unknown[]): unknown {
    let out: unknown[] | undefined;
    for (let i = 0; i < data.length; i++) {
      const item = data[i];
      const next = this.redact(item);
      if (next !== item) out ??= data.slice(0, i);
      out?.push(next);
    }
    return out ?? data;
  }

  private object(data: Record<string, unknown>): unknown {
    let out: Record<string, unknown> | undefined;
    for (const key in data) {
      const item = data[key];
      const next = SECRET_KEY.test(key) && typeof item === 'string' ? REDACTED : this.redact(item);
      if (next !== item && out === undefined) {
        out = {};
        for (const before in data) {
          if (before === key) break;
          out[before] = data[before];
        }
      }
      if (out !== undefined) out[key] = next;
    }
    return out ?? data;
  }
}
