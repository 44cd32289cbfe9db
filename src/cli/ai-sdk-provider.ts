import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromAiSdk } from '../adapters/ai-sdk/ai-sdk-client.js';
import type { AiSdkLanguageModel } from '../adapters/ai-sdk/ai-sdk-types.js';
import type { ModelClient } from '../core/model-client.js';
import { AI_SDK_PREFIX, type AiSdkProvider } from './run-options.js';
import { UsageError } from './usage-error.js';

/** An AI SDK provider instance: callable, with `languageModel(id)` (`google`, `bedrock`, …). */
interface ProviderInstance {
  languageModel(modelId: string): AiSdkLanguageModel;
}

function isProviderInstance(value: unknown): value is ProviderInstance {
  return typeof value === 'function' && typeof (value as { languageModel?: unknown }).languageModel === 'function';
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** The package, as installed in the workspace (`cwd`), else beside agent-harness itself. */
async function importPackage(name: string, cwd: string): Promise<Record<string, unknown>> {
  try {
    const path = createRequire(join(cwd, 'package.json')).resolve(name);
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    return (await import(name)) as Record<string, unknown>;
  } catch (error) {
    if (!isMissing(error)) throw error;
    throw new UsageError(
      `--provider ${AI_SDK_PREFIX}${name}: the package '${name}' is not installed (looked in ${cwd} and beside agent-harness); run: npm i ${name}`,
    );
  }
}

/**
 * Model clients for `models` of the installed AI SDK provider package `provider` names
 * (`ai-sdk:@ai-sdk/google`): its default provider instance (`google`, `bedrock`, …, which reads
 * its key from its own environment variables), each model wrapped by `fromAiSdk`. A package that
 * is missing, or that exports no ready instance, is a {@link UsageError} saying what to do.
 */
export async function aiSdkClients(
  provider: AiSdkProvider,
  models: readonly string[],
  cwd: string,
): Promise<ModelClient[]> {
  const name = provider.slice(AI_SDK_PREFIX.length);
  const module = await importPackage(name, cwd);
  const instance = [
    module.default,
    ...Object.entries(module)
      .filter(([key]) => !key.startsWith('create'))
      .map(([, value]) => value),
  ].find(isProviderInstance);
  if (instance === undefined) {
    throw new UsageError(
      `--provider ${provider}: '${name}' exports no ready provider instance (it needs settings); call fromAiSdk(create…({ … })(model)) from agent-harness/ai-sdk in code instead`,
    );
  }
  return models.map((model) => fromAiSdk(instance.languageModel(model)));
}
