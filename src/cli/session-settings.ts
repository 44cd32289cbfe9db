import { readFileSync, statSync } from 'node:fs';
import { HarnessError } from '../core/errors.js';
import { printableLine } from '../core/printable.js';
import { storableUrl } from '../core/redact-url.js';
import { journalMeta } from '../session/journal-file.js';
import type { JournalStore } from '../stores/journal-store.js';
import { SANDBOX_MODES, type SandboxMode } from '../tools/workspace/index.js';
import { allowNetHosts } from './allow-net-flag.js';
import { clientBaseURL, type Env } from './make-client.js';
import {
  isAiSdkProvider,
  PROVIDERS,
  type RunCliOptions,
  type RunProvider,
  SESSION_SETTINGS,
  type SessionSetting,
  TOOL_SETS,
  type ToolSet,
} from './run-options.js';
import { UsageError } from './usage-error.js';

/** The flag that gives each setting, for messages. */
const FLAG: Readonly<Record<SessionSetting, string>> = {
  provider: '--provider',
  model: '--model',
  baseURL: '--base-url',
  cwd: '--cwd',
  tools: '--tools',
  sandbox: '--sandbox',
  allowNet: '--allow-net',
};

/**
 * The settings of a run to keep in a new session's meta: provider, model, the base URL the client
 * talks to (never a key: user name, password and secret-looking query parameters are stripped),
 * the workspace, the tool set, and where `shell` runs (the sandbox mode and the hosts it may
 * reach), so that a resumed run is confined as the run it continues was.
 */
export function settingsMeta(options: RunCliOptions, env: Env): Record<string, string> {
  const { provider } = options;
  const meta: Record<string, string> = {
    provider,
    model: options.model,
    cwd: options.cwd,
    tools: options.tools,
    sandbox: options.sandbox,
    allowNet: storedText('allowNet', options.allowNet),
  };
  // An AI SDK provider package finds its server itself: there is no base URL of ours to keep.
  if (!isAiSdkProvider(provider)) meta.baseURL = storableUrl(clientBaseURL({ ...options, provider }, env));
  return meta;
}

/** The meta of the session a run continues (`--session ID` the store holds, or `--resume FILE`). */
async function continuedMeta(
  options: RunCliOptions,
  store: JournalStore,
): Promise<Readonly<Record<string, string>> | undefined> {
  if (options.resume !== undefined) return journalMeta(readFileSync(options.resume, 'utf8'));
  if (options.session === undefined) return undefined;
  try {
    return (await store.read(options.session)).meta;
  } catch (error) {
    if (HarnessError.isInstance(error) && error.reason === 'session_not_found') return undefined;
    throw error;
  }
}

/** A setting's value as its meta keeps it (hosts joined by commas, which no host holds). */
function storedText(setting: SessionSetting, value: RunCliOptions[SessionSetting]): string {
  return setting === 'allowNet' ? (value as readonly string[]).join(',') : String(value);
}

function storedValue(setting: SessionSetting, value: string, where: string): RunCliOptions[SessionSetting] {
  const refuse = (why: string): never => {
    throw new UsageError(`${where} ${why}: give ${FLAG[setting]}`);
  };
  if (setting === 'sandbox' && !(SANDBOX_MODES as readonly string[]).includes(value)) {
    return refuse(`names an unknown sandbox mode '${printableLine(value)}'`);
  }
  if (setting === 'allowNet') {
    try {
      return allowNetHosts(value === '' ? [] : value.split(','));
    } catch (error) {
      if (error instanceof UsageError)
        return refuse(`keeps hosts that are not valid (${printableLine(error.message)})`);
      throw error;
    }
  }
  if (setting === 'provider' && !(PROVIDERS as readonly string[]).includes(value) && !isAiSdkProvider(value)) {
    return refuse(`names an unknown provider '${printableLine(value)}'`);
  }
  if (setting === 'tools' && !(TOOL_SETS as readonly string[]).includes(value)) {
    return refuse(`names an unknown tool set '${printableLine(value)}'`);
  }
  if (setting === 'cwd' && !(statSync(value, { throwIfNoEntry: false })?.isDirectory() ?? false)) {
    return refuse(`ran in '${printableLine(value)}', which is not a directory any more`);
  }
  return value as RunProvider & ToolSet & SandboxMode;
}

/**
 * `options` with the settings of the session it continues (see {@link settingsMeta}) where no
 * flag gave them: a session started on a local server goes on there, not on the provider's paid
 * API, and in its own workspace. A flag beats the stored value, and `note` says so; with
 * `--provider` changed, the stored model and base URL (the other provider's) are not used.
 * Sessions stored before settings were kept (no `provider` in their meta) change nothing.
 */
export async function withSessionSettings(
  options: RunCliOptions,
  store: JournalStore,
  note: (line: string) => void,
): Promise<RunCliOptions> {
  const meta = await continuedMeta(options, store);
  if (meta?.provider === undefined) return options;
  const where =
    options.resume === undefined ? `session '${options.session}'` : `the journal '${printableLine(options.resume)}'`;
  const otherProvider = options.given.has('provider') && options.provider !== meta.provider;
  const settled: Record<string, unknown> = { ...options };
  for (const setting of SESSION_SETTINGS) {
    const stored = meta[setting];
    if (stored === undefined || (otherProvider && (setting === 'model' || setting === 'baseURL'))) continue;
    if (!options.given.has(setting)) settled[setting] = storedValue(setting, stored, where);
    else if (storedText(setting, options[setting]) !== stored) {
      note(
        `${FLAG[setting]} ${printableLine(storedText(setting, options[setting]))} overrides ${where}'s stored ${stored === '' ? '(none)' : printableLine(stored)}`,
      );
    }
  }
  return settled as unknown as RunCliOptions;
}
