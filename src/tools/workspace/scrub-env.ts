/** Variable names that look like they hold a secret. */
export const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE)/i;

/** Names scrubbed by prefix: whole families of cloud credentials. */
const SECRET_PREFIXES = ['AWS_', 'AZURE_', 'GOOGLE_APPLICATION_', 'GCP_', 'DOCKER_', 'NPM_CONFIG__AUTH', 'VAULT_'];

/** Named one by one because their names do not say "secret". */
const SECRET_NAMES = new Set(['PGPASSFILE', 'PGSERVICEFILE', 'DATABASE_URL', 'REDIS_URL', 'MONGODB_URI', 'NETRC']);

/** A URL with a password in it (`scheme://user:password@host`). */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/** Whether a variable looks like a secret, by its name or by a password in its value. */
export function looksSecret(name: string, value: string | undefined): boolean {
  const upper = name.toUpperCase();
  return (
    SECRET_NAME.test(name) ||
    SECRET_NAMES.has(upper) ||
    SECRET_PREFIXES.some((prefix) => upper.startsWith(prefix)) ||
    (value !== undefined && URL_WITH_PASSWORD.test(value))
  );
}

/**
 * A copy of `env` without the variables that look like secrets (API keys, tokens, passwords,
 * cloud credentials, URLs with a password), except those named in `keep`.
 */
export function scrubEnv(
  env: Readonly<Record<string, string | undefined>>,
  keep: readonly string[] = [],
): Record<string, string> {
  const kept = new Set(keep);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (kept.has(name) || !looksSecret(name, value)) clean[name] = value;
  }
  return clean;
}
