/** A command-line mistake the user can fix: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** Marks it as a usage error for `main` (which maps `ERR_PARSE_ARGS*` codes to exit 2). */
  readonly code = 'ERR_PARSE_ARGS_USAGE';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
