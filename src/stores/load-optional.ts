import { HarnessError } from '../core/errors.js';

function isMissingModule(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(name);
}

/** The `bindings` package's error when a native addon was never built (its install script skipped). */
function isMissingBinding(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('Could not locate the bindings file');
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

/**
 * {@link loadOptional} for a driver with a native addon, which loads only when first used: `probe`
 * uses it once. An addon that was never built (install scripts skipped) becomes
 * `missing_dependency` in one line that says to rebuild the package, instead of the list of paths
 * the loader tried.
 */
export async function loadNative<T>(
  name: string,
  purpose: string,
  load: () => Promise<T>,
  probe: (driver: T) => void,
): Promise<T> {
  const driver = await loadOptional(name, purpose, load);
  try {
    probe(driver);
  } catch (error) {
    if (!isMissingBinding(error)) throw error;
    throw new HarnessError(
      'missing_dependency',
      `${purpose} needs the native build of '${name}', which is missing (were install scripts skipped?); run: npm rebuild ${name}`,
      { cause: error },
    );
  }
  return driver;
}
