import { HarnessError } from '../core/errors.js';

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(name);
}

/**
 * Loads a store's driver on first use, so that importing the library never loads it. A missing
 * package becomes HarnessError `missing_dependency` that says what to install.
 */
export async function loadOptional<T>(name: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingModule(error, name)) throw error;
    throw new HarnessError('missing_dependency', `${purpose} needs the package '${name}'; run: npm i ${name}`, {
      cause: error,
    });
  }
}
