import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkGuardrails, type GuardrailOptions, type GuardrailSettings } from '../config/guardrail-options.js';
import { checkPermissions, type PermissionPolicy } from '../config/permission-policy.js';
import { errorMessage } from '../core/errors.js';
import { UsageError } from './usage-error.js';

/** What a `--policy` module exports. */
export interface PolicyModule {
  /** The tool policy (checked by `Config`): a map of rules or functions of the call, or one function. */
  readonly policy: unknown;
  /** Guardrails (`{ input?, output?, toolResult? }`, checked by `Config`); optional. */
  readonly guardrails?: unknown;
}

const JS = ['.js', '.mjs', '.cjs'];
const TS = ['.ts', '.mts', '.cts'];

/**
 * Loads `--policy FILE`: a JavaScript module, or a TypeScript one when node runs with a loader
 * that handles `.ts` (`node --import tsx`); without one, a usage error that says how. The module
 * must export `policy`.
 */
export async function loadPolicyModule(file: string): Promise<PolicyModule> {
  const ext = extname(file).toLowerCase();
  if (!JS.includes(ext) && !TS.includes(ext)) {
    throw new UsageError(`--policy takes a .js, .mjs or .ts module, got '${file}'`);
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (
      TS.includes(ext) &&
      (code === 'ERR_UNKNOWN_FILE_EXTENSION' || code === 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING')
    ) {
      throw new UsageError(
        `--policy ${file}: node cannot load TypeScript here; run the CLI with a loader (node --import tsx …) or compile the policy to .js`,
      );
    }
    throw new UsageError(`--policy ${file} failed to load: ${errorMessage(error)}`);
  }
  if (!('policy' in loaded) || loaded.policy === undefined) {
    throw new UsageError(`--policy ${file} must export \`policy\` (export const policy = { shell: 'ask', … })`);
  }
  return loaded.guardrails === undefined
    ? { policy: loaded.policy }
    : { policy: loaded.policy, guardrails: loaded.guardrails };
}

/** What a `--policy` module gives the run: its tool policy (flags on top) and its guardrails. */
export interface ModulePolicy {
  readonly permissions: PermissionPolicy;
  /** The module's `guardrails`, checked; none at any stage when it exports none. */
  readonly guardrails: GuardrailSettings;
}

/**
 * The run's tool policy and guardrails from a loaded `--policy` module: the module's policy with
 * the flags' rules on top, and its guardrails. A policy or guardrails export the module got wrong
 * is a usage error naming the file and the key.
 */
export function policyWithModule(loaded: PolicyModule, file: string, flags: PermissionPolicy): ModulePolicy {
  try {
    return {
      permissions: Object.freeze({ ...checkPermissions(loaded.policy, '--policy: policy'), ...flags }),
      // checkGuardrails checks the shape at run time: the module's export is anything until then.
      guardrails: checkGuardrails(loaded.guardrails as GuardrailOptions | undefined),
    };
  } catch (error) {
    throw new UsageError(`--policy ${file}: ${errorMessage(error)}`);
  }
}

/** Loads `--policy FILE` ({@link loadPolicyModule}) and checks it against the flags ({@link policyWithModule}). */
export async function modulePolicy(file: string, flags: PermissionPolicy): Promise<ModulePolicy> {
  return policyWithModule(await loadPolicyModule(file), file, flags);
}
