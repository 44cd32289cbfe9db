import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { COMPACTION_STRATEGIES } from '../config/context-options.js';
import type { PermissionPolicy } from '../config/permission-policy.js';
import type { CompactionStrategy } from '../core/compaction.js';
import type { FilePart, ImagePart } from '../core/content-parts.js';
import type { InspectorServerOptions } from '../inspector/inspector-server.js';
import { SANDBOX_MODES, type SandboxMode } from '../tools/workspace/sandbox.js';
import { allowNetHosts } from './allow-net-flag.js';
import { ATTACHMENT_FLAGS, readAttachments, requireTaskFor } from './attachment-flags.js';
import { requireInspect, serveOptions } from './commands/inspect.js';
import { journalPath } from './journal-path.js';
import { MCP_FLAGS, type McpFlags, mcpFlags } from './mcp-flags.js';
import { joinNegativeValues, positiveDecimal, positiveInteger } from './numeric-flags.js';
import { parseDuration } from './parse-duration.js';
import { PERMISSION_FLAGS, permissionPolicy } from './permission-flags.js';
import { sessionIdArg, storeUrl } from './store-flags.js';
import { UsageError } from './usage-error.js';

/** The model providers `run` speaks to. */
export const PROVIDERS = ['openai', 'anthropic'] as const;

/** One of {@link PROVIDERS}. */
export type Provider = (typeof PROVIDERS)[number];

/** `ai-sdk:<package>`: an installed AI SDK provider package (`ai-sdk:@ai-sdk/google`). */
export type AiSdkProvider = `ai-sdk:${string}`;

/** What `run --provider` may name: a built-in provider, or an AI SDK provider package. */
export type RunProvider = Provider | AiSdkProvider;

/** The prefix of an AI SDK provider in `--provider`. */
export const AI_SDK_PREFIX = 'ai-sdk:';

/** Whether `provider` is an AI SDK provider package. */
export function isAiSdkProvider(provider: string): provider is AiSdkProvider {
  return provider.startsWith(AI_SDK_PREFIX);
}

/** The model each provider uses when `--model` is absent. */
export const DEFAULT_MODELS: Readonly<Record<Provider, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-6',
};

/** What `agent-harness run` was asked to do. */
export interface RunCliOptions {
  /** The new user message; empty with `--resume` alone (continue the interrupted run). */
  readonly task: string;
  /** From `--image` and `--file`: the images and files that go with the task (SPEC §15). */
  readonly attachments: readonly (ImagePart | FilePart)[];
  /** From `--max-attachment-bytes`: the cap on one image or file (the config's default when absent). */
  readonly maxAttachmentBytes: number | undefined;
  /** `--resume FILE`: the journal of the session to continue. */
  readonly resume: string | undefined;
  readonly provider: RunProvider;
  readonly model: string;
  /** From `--fallback MODEL[,MODEL]`: models of the same provider to try, in order, when the model fails. */
  readonly fallback: readonly string[];
  /** From `--base-url`; the client falls back to the provider's environment variable. */
  readonly baseURL: string | undefined;
  readonly maxTurns: number;
  readonly maxCost: number | undefined;
  /** Wall-clock budget of the run, from `--timeout`. */
  readonly timeoutMs: number | undefined;
  /** The workspace, absolute. */
  readonly cwd: string;
  readonly journal: string | undefined;
  readonly json: boolean;
  /** From `--inspect` (with `--port`, `--host`, `--allow-host`): serve the live inspector page. */
  readonly inspect: InspectorServerOptions | undefined;
  /** From `--mcp`, `--mcp-url`, `--mcp-config`: MCP servers whose tools join the run. */
  readonly mcp: McpFlags;
  /** From `--allow`, `--deny`, `--yes` over the interactive defaults (with `--policy`, the flags' rules alone). */
  readonly permissions: PermissionPolicy;
  /** From `--policy FILE`, absolute: the module whose `policy` replaces the defaults. */
  readonly policyFile: string | undefined;
  /** From `--tools`: `read` (read_file) or `workspace` (the seven workspace tools). */
  readonly tools: ToolSet;
  /** From `--sandbox`: where `shell` runs its commands; `auto` when absent. */
  readonly sandbox: SandboxMode;
  /** From `--allow-net` (repeatable): the hosts sandboxed commands may reach; none when absent. */
  readonly allowNet: readonly string[];
  /** From `--store` (else `$AGENT_HARNESS_STORE`, else the default): where the session is kept. */
  readonly store: string;
  /** From `--session`: the stored session to continue (or to start under this id). */
  readonly session: string | undefined;
  /** From `--context-tokens` and `--context-strategy`: compact older turns past this size. */
  readonly context: { readonly maxTokens: number; readonly strategy: CompactionStrategy } | undefined;
  /** Which of the settings a session keeps were given as flags (they beat the stored ones on resume). */
  readonly given: ReadonlySet<SessionSetting>;
}

/** The settings a session keeps in its meta, so that resuming it needs none of their flags. */
export const SESSION_SETTINGS = ['provider', 'model', 'baseURL', 'cwd', 'tools', 'sandbox', 'allowNet'] as const;

/** One of {@link SESSION_SETTINGS}. */
export type SessionSetting = (typeof SESSION_SETTINGS)[number];

/** The parsed flag each setting comes from (its `parseArgs` key). */
const FLAG_VALUE: Readonly<Record<SessionSetting, string>> = {
  provider: 'provider',
  model: 'model',
  baseURL: 'base-url',
  cwd: 'cwd',
  tools: 'tools',
  sandbox: 'sandbox',
  allowNet: 'allow-net',
};

/** The built-in tool sets of `run`. */
export const TOOL_SETS = ['read', 'workspace'] as const;

/** One of {@link TOOL_SETS}. */
export type ToolSet = (typeof TOOL_SETS)[number];

/** The `--tools` set named; `read` when absent. */
export function toolSet(text: string | undefined): ToolSet {
  if (text === undefined) return 'read';
  if ((TOOL_SETS as readonly string[]).includes(text)) return text as ToolSet;
  throw new UsageError(`--tools must be one of ${TOOL_SETS.join(', ')}, got '${text}'`);
}

/** The `--sandbox` mode named; `auto` when absent. */
export function sandboxMode(text: string | undefined): SandboxMode {
  if (text === undefined) return 'auto';
  if ((SANDBOX_MODES as readonly string[]).includes(text)) return text as SandboxMode;
  throw new UsageError(`--sandbox must be one of ${SANDBOX_MODES.join(', ')}, got '${text}'`);
}

const FLAGS = {
  resume: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  fallback: { type: 'string' },
  'base-url': { type: 'string' },
  'max-turns': { type: 'string' },
  'max-cost': { type: 'string' },
  'context-tokens': { type: 'string' },
  'context-strategy': { type: 'string' },
  timeout: { type: 'string' },
  cwd: { type: 'string' },
  journal: { type: 'string' },
  store: { type: 'string' },
  session: { type: 'string' },
  json: { type: 'boolean', default: false },
  inspect: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  'allow-host': { type: 'string', multiple: true },
  tools: { type: 'string' },
  sandbox: { type: 'string' },
  'allow-net': { type: 'string', multiple: true },
  policy: { type: 'string' },
  ...ATTACHMENT_FLAGS,
  ...PERMISSION_FLAGS,
  ...MCP_FLAGS,
} as const;

/** The flags of `run` that take a number (a negative one is ours to refuse, not parseArgs'). */
const NUMERIC_FLAGS = ['max-turns', 'max-cost', 'timeout', 'port', 'context-tokens', 'max-attachment-bytes'];

/** The `--provider` named; `openai` when absent. */
export function provider(text: string | undefined): Provider {
  if (text === undefined) return 'openai';
  if ((PROVIDERS as readonly string[]).includes(text)) return text as Provider;
  throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got '${text}'`);
}

/**
 * `run --provider`: a built-in provider, or `ai-sdk:<package>/<model>` (the package's name may be
 * scoped: `ai-sdk:@ai-sdk/google/gemini-2.5-flash`), which gives the model too.
 */
export function runProvider(text: string | undefined): { provider: RunProvider; model?: string } {
  if (text === undefined || !isAiSdkProvider(text)) return { provider: provider(text) };
  const spec = text.slice(AI_SDK_PREFIX.length);
  const parts = spec.split('/');
  const nameParts = spec.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameParts).join('/');
  const model = parts.slice(nameParts).join('/');
  if (name === '' || name === '@' || (spec.startsWith('@') && parts.length < 2) || /\s/.test(spec)) {
    throw new UsageError(
      `--provider ${text}: give ai-sdk:<package>/<model>, e.g. ai-sdk:@ai-sdk/google/gemini-2.5-flash`,
    );
  }
  return model === '' ? { provider: `ai-sdk:${name}` } : { provider: `ai-sdk:${name}`, model };
}

/** `--fallback MODEL[,MODEL]`: the model names, in order; an empty name is a mistake. */
export function fallbackModels(text: string | undefined): string[] {
  if (text === undefined) return [];
  const models = text.split(',').map((model) => model.trim());
  if (models.some((model) => model === '')) {
    throw new UsageError(`--fallback takes model names separated by commas, got '${text}'`);
  }
  return models;
}

function contextFlags(tokens: string | undefined, strategy: string | undefined): RunCliOptions['context'] {
  const maxTokens = positiveInteger(tokens, '--context-tokens');
  if (maxTokens === undefined) {
    if (strategy !== undefined) throw new UsageError('--context-strategy needs --context-tokens N');
    return undefined;
  }
  const chosen = strategy === 'summarize' ? 'summarise' : (strategy ?? 'elide');
  if (!(COMPACTION_STRATEGIES as readonly string[]).includes(chosen)) {
    throw new UsageError(`--context-strategy must be one of ${COMPACTION_STRATEGIES.join(', ')}, got '${strategy}'`);
  }
  return { maxTokens, strategy: chosen as CompactionStrategy };
}

function existingFile(text: string, flag: string, what = 'journal'): string {
  const path = resolve(text);
  if (!(statSync(path, { throwIfNoEntry: false })?.isFile() ?? false)) {
    throw new UsageError(`${flag} must be an existing ${what} file, got '${text}'`);
  }
  return path;
}

/** `--policy FILE`: the module's path, absolute; a file that does not exist is a usage error. */
export function policyFileArg(text: string): string {
  return existingFile(text, '--policy', 'module');
}

function workspace(text: string | undefined): string {
  const dir = resolve(text ?? '.');
  const isDir = statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (!isDir) throw new UsageError(`--cwd must be an existing directory, got '${text}'`);
  return dir;
}

function defaultModel(provider: RunProvider): string {
  if (!isAiSdkProvider(provider)) return DEFAULT_MODELS[provider];
  throw new UsageError(`--provider ${provider} needs a model: ${provider}/<model>, or --model`);
}

/** The provider and model from `--provider`, `--model` (and `--base-url`, for the check), as `run` and `worker` read them. */
export interface ProviderModel {
  readonly provider: RunProvider;
  readonly model: string;
  /** The model came in `--provider ai-sdk:<package>/<model>`. */
  readonly modelInProvider: boolean;
}

/**
 * The provider and model of `--provider` and `--model` (the provider's default model when
 * neither names one). A model named twice, an AI SDK provider without a model, and `--base-url`
 * with an AI SDK provider (whose package reads its own settings) are {@link UsageError}s.
 */
export function providerModel(values: {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly 'base-url'?: string | undefined;
}): ProviderModel {
  const chosen = runProvider(values.provider);
  if (chosen.model !== undefined && values.model !== undefined) {
    throw new UsageError(`--provider ${values.provider} names the model already: drop --model ${values.model}`);
  }
  const model = chosen.model ?? values.model ?? defaultModel(chosen.provider);
  if (isAiSdkProvider(chosen.provider) && values['base-url'] !== undefined) {
    throw new UsageError(
      `--base-url does not apply to ${chosen.provider}: the provider package reads its own settings (its environment variables)`,
    );
  }
  return { provider: chosen.provider, model, modelInProvider: chosen.model !== undefined };
}

/** Parses the arguments of `run`; throws {@link UsageError} (or a `parseArgs` error) on a mistake. */
export function parseRunOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RunCliOptions {
  const args = joinNegativeValues(argv, NUMERIC_FLAGS);
  const { values, positionals } = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
  requireInspect(argv, values.inspect);
  const task = positionals.join(' ').trim();
  const resume = values.resume === undefined ? undefined : existingFile(values.resume, '--resume');
  const session = values.session === undefined ? undefined : sessionIdArg(values.session, '--session');
  if (task === '' && resume === undefined && session === undefined) {
    throw new UsageError('missing the task, e.g. agent-harness run "Summarise README.md"');
  }
  if (resume !== undefined && session !== undefined) {
    throw new UsageError('--resume FILE and --session ID both name the session to continue: give one');
  }
  const attachments = readAttachments(values);
  requireTaskFor(attachments, task);
  const store = storeUrl(values.store, env);
  const chosen = providerModel(values);
  const { model } = chosen;
  const timeout = values.timeout;
  return {
    task,
    attachments: attachments.parts,
    maxAttachmentBytes: attachments.maxBytes,
    resume,
    provider: chosen.provider,
    model,
    fallback: fallbackModels(values.fallback),
    baseURL: values['base-url'],
    maxTurns: positiveInteger(values['max-turns'], '--max-turns') ?? 10,
    maxCost: positiveDecimal(values['max-cost'], '--max-cost'),
    timeoutMs: timeout === undefined ? undefined : parseDuration(timeout, '--timeout'),
    cwd: workspace(values.cwd),
    // A resumed session's journal goes on in its own file unless told otherwise.
    journal: values.journal === undefined ? resume : journalPath(values.journal),
    json: values.json,
    inspect: values.inspect ? serveOptions(values) : undefined,
    mcp: mcpFlags(values),
    permissions: permissionPolicy(values),
    policyFile: values.policy === undefined ? undefined : policyFileArg(values.policy),
    tools: toolSet(values.tools),
    sandbox: sandboxMode(values.sandbox),
    allowNet: allowNetHosts(values['allow-net']),
    store,
    session,
    context: contextFlags(values['context-tokens'], values['context-strategy']),
    given: new Set(
      SESSION_SETTINGS.filter((name) =>
        name === 'model'
          ? values.model !== undefined || chosen.modelInProvider
          : (values as Record<string, unknown>)[FLAG_VALUE[name]] !== undefined,
      ),
    ),
  };
}
