/** What `npm run bench:scale` was asked for. */
export interface ScaleOptions {
  /** Concurrent in-flight sessions per contender. */
  readonly sessions: number;
  readonly seed: number;
  /** Tool turns per session before the final answer. */
  readonly toolTurns: number;
  /** Text deltas per answer. */
  readonly deltas: number;
  /** Whether to run the peer beside the harness. */
  readonly peer: boolean;
  /** Whether to run the bare loop (the floor) beside the harness. */
  readonly floor: boolean;
  /** Sessions started per second in the staggered ramp (`staggered` mode). */
  readonly arrival: number;
  /** The steady-state window of a staggered run, ms. */
  readonly windowMs: number;
  /** What the in-process section measures, in this order. */
  readonly modes: readonly InProcessMode[];
}

/**
 * `burst`: all sessions start in one tick; `staggered`: they arrive at `arrival` a second until
 * `sessions` are in flight, then steady state; `max-n`: the most sessions in flight (≤ `sessions`)
 * at which the steady-state p99 lag stays within the target.
 */
export const IN_PROCESS_MODES = ['burst', 'staggered', 'max-n'] as const;

/** One of {@link IN_PROCESS_MODES}. */
export type InProcessMode = (typeof IN_PROCESS_MODES)[number];

/** The brief's load: 10,000 sessions of three tool turns and an answer, 50 deltas each. */
export const DEFAULT_SCALE_OPTIONS: ScaleOptions = {
  sessions: 10_000,
  seed: 1,
  toolTurns: 3,
  deltas: 50,
  peer: true,
  floor: true,
  arrival: 2000,
  windowMs: 5000,
  modes: IN_PROCESS_MODES,
};

const NUMERIC = {
  sessions: 'sessions',
  seed: 'seed',
  'tool-turns': 'toolTurns',
  deltas: 'deltas',
  arrival: 'arrival',
  'window-ms': 'windowMs',
} as const;

/** The least each numeric flag takes. */
const MINIMUM: Readonly<Record<keyof typeof NUMERIC, number>> = {
  sessions: 1,
  seed: 0,
  'tool-turns': 0,
  deltas: 1,
  arrival: 1,
  'window-ms': 1,
};

/** The value of `--name V` or `--name=V` in `args`, if given. */
export function flagValue(args: readonly string[], name: string): string | undefined {
  const flag = `--${name}`;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === flag) {
      const next = args[i + 1];
      if (next === undefined) throw new Error(`bench:scale: ${flag} needs a value`);
      return next;
    }
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}

/** `text` as a whole number ≥ `min` (`_` separators allowed); throws naming `--name` otherwise. */
export function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min)
    throw new Error(`bench:scale: --${name} must be a whole number ≥ ${min}, got ${text}`);
  return value;
}

/** `--modes a,b` as modes, in the order given; throws naming an unknown one. */
function inProcessModes(text: string): InProcessMode[] {
  const picked = text.split(',').map((mode) => mode.trim());
  const unknown = picked.filter((mode) => !(IN_PROCESS_MODES as readonly string[]).includes(mode));
  if (unknown.length > 0 || picked.length === 0)
    throw new Error(`bench:scale: unknown --modes ${unknown.join(', ')} (modes: ${IN_PROCESS_MODES.join(', ')})`);
  return picked as InProcessMode[];
}

/**
 * Reads `--sessions N` (or the `SCALE_SESSIONS` environment variable), `--seed N`,
 * `--tool-turns N`, `--deltas N`, `--arrival N`, `--window-ms N`, `--modes burst,staggered,max-n`
 * `--no-peer` and `--no-floor`, in `--name N` or `--name=N` form; the rest
 * default to {@link DEFAULT_SCALE_OPTIONS}.
 */
export function parseScaleOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ScaleOptions {
  const options: { -readonly [K in keyof ScaleOptions]: ScaleOptions[K] } = { ...DEFAULT_SCALE_OPTIONS };
  if (env.SCALE_SESSIONS !== undefined && env.SCALE_SESSIONS !== '') {
    options.sessions = wholeNumber('sessions', env.SCALE_SESSIONS, 1);
  }
  for (const [name, key] of Object.entries(NUMERIC) as [
    keyof typeof NUMERIC,
    (typeof NUMERIC)[keyof typeof NUMERIC],
  ][]) {
    const text = flagValue(args, name);
    if (text !== undefined) options[key] = wholeNumber(name, text, MINIMUM[name]);
  }
  if (args.includes('--no-peer')) options.peer = false;
  if (args.includes('--no-floor')) options.floor = false;
  const modes = flagValue(args, 'modes');
  if (modes !== undefined) options.modes = inProcessModes(modes);
  return options;
}

/** The options as the flags that {@link parseScaleOptions} reads back. */
export function scaleFlags(options: ScaleOptions): string[] {
  return [
    `--sessions=${options.sessions}`,
    `--seed=${options.seed}`,
    `--tool-turns=${options.toolTurns}`,
    `--deltas=${options.deltas}`,
    `--arrival=${options.arrival}`,
    `--window-ms=${options.windowMs}`,
    `--modes=${options.modes.join(',')}`,
    ...(options.peer ? [] : ['--no-peer']),
    ...(options.floor ? [] : ['--no-floor']),
  ];
}

/**
 * The sections `--only NAME[,NAME]` picks, in `all`'s order (every one without the flag);
 * throws on a name not in `all`.
 */
export function selectedSections(args: readonly string[], all: readonly string[]): string[] {
  const only = flagValue(args, 'only');
  if (only === undefined) return [...all];
  const picked = only.split(',').map((name) => name.trim());
  const unknown = picked.filter((name) => !all.includes(name));
  if (unknown.length > 0)
    throw new Error(`bench:scale: unknown section ${unknown.join(', ')} (sections: ${all.join(', ')})`);
  return all.filter((name) => picked.includes(name));
}
