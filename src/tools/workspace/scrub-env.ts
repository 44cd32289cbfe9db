/**
 * The variables a shell command gets from the host's environment by default: what programs
 * need to find themselves, their user, their locale, their terminal and a temp folder.
 * `LC_*` stands for every locale variable. Everything else is left out unless named.
 */
export const SHELL_ENV_ALLOWED: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
];

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

/** Whether `name` is one of `patterns`: an exact name, or `PREFIX*` for every name starting so. */
function named(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

/**
 * The part of `env` a shell command may see: the variables of {@link SHELL_ENV_ALLOWED} (unless
 * a value holds a URL with a password), plus those named in `pass` (exact names, or `PREFIX*`),
 * which the embedder chose and so are passed as they are. An allow-list, not a deny-list: a
 * secret under a name nobody thought of (`GITHUB_PAT`, `MYSQL_PWD`) stays out.
 */
export function scrubEnv(
  env: Readonly<Record<string, string | undefined>>,
  pass: readonly string[] = [],
): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (named(name, pass) || (named(name, SHELL_ENV_ALLOWED) && !looksSecret(name, value))) clean[name] = value;
  }
  return clean;
}
