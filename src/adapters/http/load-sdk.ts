import { ModelError } from './model-error.js';

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(name);
}

/**
 * Loads an optional SDK on first use, so that embedding the core never pulls it in. A missing
 * package becomes a {@link ModelError} of kind `missing_sdk` that says what to install.
 */
export async function loadSdk<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingModule(error, name)) throw error;
    throw new ModelError('missing_sdk', `the optional package '${name}' is not installed; run: npm i ${name}`, {
      cause: error,
    });
  }
}
