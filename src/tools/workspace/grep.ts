import { lstat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Config } from '../../config/config.js';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS } from '../../config/config.js';
import { errorMessage } from '../../core/errors.js';
import { ToolKind } from '../../core/tool-kind.js';
import { ToolResult } from '../../core/tool-result.js';
import { Tool, type ToolInvocation } from '../tool.js';
import { resolveInWorkspace } from '../workspace.js';
import { displayPath, workspaceRoot } from './confine.js';
import { MAX_WALK_ENTRIES, patternProblem } from './glob.js';
import { MatchPrinter } from './match-printer.js';
import { openRegularFile } from './open-regular-file.js';
import { type ByteBudget, type ReadLine, readLines } from './read-lines.js';
import { RegexWorker } from './regex-worker.js';
import { type WalkedFile, type WalkStats, walkFiles } from './walk.js';

/** Matching lines listed when the call gives no `maxMatches`. */
export const DEFAULT_GREP_MATCHES = 100;
/** The largest `maxMatches` a call may ask for. */
export const MAX_GREP_MATCHES = 1000;
/** The most context lines a call may ask for, before and after each match. */
export const MAX_GREP_CONTEXT = 10;
/** Only this many first characters of a line are searched (a bound on regex work per line). */
export const MAX_SEARCHED_LINE_CHARS = 10_000;
/** Bytes read, at most, by one search, over all its files. */
export const MAX_SCAN_BYTES = 20 * 1024 * 1024;
/** Time one search may take before it stops where it is. */
export const MAX_SCAN_MS = 10_000;
/** Lines, and characters, sent to the regex worker at a time. */
const BATCH = { lines: 512, chars: 1_000_000 } as const;

const schema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression searched for in each line.'),
  path: z.string().min(1).optional().describe('File or folder to search, relative to the workspace. Default: all.'),
  glob: z.string().min(1).optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.py".'),
  context: z.number().int().min(0).max(MAX_GREP_CONTEXT).optional().describe('Lines shown before and after a match.'),
  ignoreCase: z.boolean().optional().describe('Match regardless of case.'),
  maxMatches: z
    .number()
    .int()
    .min(1)
    .max(MAX_GREP_MATCHES)
    .optional()
    .describe(`Stop after this many matching lines. Default ${DEFAULT_GREP_MATCHES}.`),
});

type Params = z.output<typeof schema>;

/** The expression, or the message for an invalid one. Unicode mode when the pattern allows it. */
function compile(pattern: string, ignoreCase: boolean): RegExp | string {
  const flags = ignoreCase ? 'i' : '';
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return `invalid pattern '${pattern}': ${errorMessage(error)}`;
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `20 MB`, `4 KB` or `100 bytes`. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** Options of {@link GrepTool}. */
export interface GrepToolOptions {
  /** Bytes one search reads at most. Default {@link MAX_SCAN_BYTES}. */
  readonly maxScanBytes?: number;
  /** Milliseconds one search may take. Default {@link MAX_SCAN_MS}. */
  readonly maxScanMs?: number;
}

/** What the search of one file works with. */
interface FileRun {
  readonly printer: MatchPrinter;
  readonly budget: ByteBudget;
  readonly tally: Tally;
  readonly maxMatches: number;
  readonly deadline: number;
  readonly outputChars: number;
  readonly matcher: RegexWorker;
  readonly signal: AbortSignal;
}

/** What one search did, for its summary lines. */
interface Tally {
  matches: number;
  filesWithMatches: number;
  searched: number;
  binary: number;
  stop: 'matches' | 'output' | 'time' | undefined;
}

/**
 * Searches workspace files for a regular expression, line by line, ripgrep style. Skips files
 * `.gitignore` excludes, `.git`, symlinks and binary files. Guards against runaway searches:
 * only the first {@link MAX_SEARCHED_LINE_CHARS} characters of a line are searched, a search
 * reads at most {@link MAX_SCAN_BYTES} and stops after {@link MAX_SCAN_MS}, each with a marker.
 * The expression is tested on a worker thread ({@link RegexWorker}), so a pattern that
 * backtracks without end still stops at the deadline or the call's abort.
 */
export class GrepTool extends Tool<typeof schema> {
  readonly name = 'grep';
  readonly description =
    'Search file contents in the workspace with a JavaScript regular expression. Prints path:line:text for each ' +
    "matching line (path-line-text for context lines). Skips .gitignore'd files, .git and binary files. Limits: " +
    `${DEFAULT_GREP_MATCHES} matching lines unless maxMatches says otherwise (max ${MAX_GREP_MATCHES}); only the ` +
    `first ${MAX_SEARCHED_LINE_CHARS.toLocaleString('en-US')} characters of a line are searched; a search reads at ` +
    `most ${MAX_SCAN_BYTES / 1024 / 1024} MB and stops after ${MAX_SCAN_MS / 1000} s, so avoid patterns with nested ` +
    'quantifiers like (a+)+ and narrow path or glob instead.';
  readonly kind = ToolKind.READ;
  readonly schema = schema;
  private readonly maxScanBytes: number;
  private readonly maxScanMs: number;

  constructor(config?: Config, options: GrepToolOptions = {}) {
    super(config);
    this.maxScanBytes = options.maxScanBytes ?? MAX_SCAN_BYTES;
    this.maxScanMs = options.maxScanMs ?? MAX_SCAN_MS;
  }

  async execute({ params, cwd, signal }: ToolInvocation<Params>): Promise<ToolResult> {
    const regex = compile(params.pattern, params.ignoreCase ?? false);
    if (typeof regex === 'string') return ToolResult.error(regex);
    const globProblem = params.glob === undefined ? undefined : patternProblem(params.glob);
    if (globProblem !== undefined) return ToolResult.error(globProblem);
    // A glob without a slash (`*.ts`) matches file names in any folder, as in ripgrep.
    const inGlob =
      params.glob === undefined ? () => true : picomatch(params.glob, { basename: !params.glob.includes('/') });

    const workspace = this.config?.cwd ?? cwd;
    const shownPath = params.path ?? '.';
    const where = await resolveInWorkspace(workspace, shownPath);
    if (!where.ok) return ToolResult.error(where.problem);
    const info = await lstat(where.path).catch(() => undefined);
    if (info === undefined) return ToolResult.error(`Not found: ${shownPath}`);
    const root = await workspaceRoot(workspace);
    const folder = displayPath(root, where.path);
    const walk: WalkStats = { entries: 0, capped: false };
    let files: AsyncIterable<WalkedFile> | Iterable<WalkedFile>;
    if (info.isDirectory()) {
      files = walkFiles({ root, folder: folder === '.' ? '' : folder, maxEntries: MAX_WALK_ENTRIES, signal }, walk);
    } else if (info.isFile()) {
      files = [{ path: where.path, relative: folder }];
    } else {
      return ToolResult.error(`Not a file or folder: ${shownPath}`);
    }

    const maxMatches = params.maxMatches ?? DEFAULT_GREP_MATCHES;
    const printer = new MatchPrinter(params.context ?? 0);
    const budget: ByteBudget = { remaining: this.maxScanBytes, spent: false };
    const tally: Tally = { matches: 0, filesWithMatches: 0, searched: 0, binary: 0, stop: undefined };
    // Room left for the summary lines, so the registry's cap never cuts them off.
    const maxChars = this.config?.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
    const outputChars = maxChars - Math.min(1000, Math.floor(maxChars / 5));
    const deadline = Date.now() + this.maxScanMs;
    const matcher = new RegexWorker(regex);
    try {
      for await (const file of files) {
        if (info.isDirectory() && !inGlob(file.relative)) continue;
        if (Date.now() >= deadline) tally.stop ??= 'time';
        if (signal.aborted || budget.spent || tally.stop !== undefined) break;
        const run = { printer, budget, tally, maxMatches, deadline, outputChars, matcher, signal };
        const skipped = await this.searchFile(root, file, run);
        // A walk passes a file it cannot search; a file named as path is answered with why.
        if (skipped !== undefined && info.isFile()) return ToolResult.error(skipped);
      }
    } finally {
      await matcher.close();
    }
    return ToolResult.success(this.report(params, shownPath, printer, tally, budget, walk));
  }

  /** Searches one file; says why when it was skipped instead (binary, or refused at the open). */
  private async searchFile(root: string, file: WalkedFile, run: FileRun): Promise<string | undefined> {
    const opened = await openRegularFile(root, file.path, file.relative);
    if (!opened.ok) return opened.problem;
    const { printer, tally } = run;
    try {
      const head = Buffer.alloc(8192);
      const { bytesRead } = await opened.handle.read(head, 0, head.length, 0);
      if (head.subarray(0, bytesRead).includes(0)) {
        tally.binary++;
        return `Binary file: ${file.relative}`;
      }
      tally.searched++;
      printer.startFile(file.relative);
      const place = { no: 0, matchedHere: false };
      let batch: ReadLine[] = [];
      let chars = 0;
      for await (const line of readLines(opened.handle, MAX_SEARCHED_LINE_CHARS, run.budget)) {
        batch.push(line);
        chars += line.text.length;
        if (batch.length < BATCH.lines && chars < BATCH.chars) continue;
        const more = await this.takeBatch(batch, place, run);
        batch = [];
        chars = 0;
        if (!more) break;
      }
      if (batch.length > 0) await this.takeBatch(batch, place, run);
      if (place.matchedHere) tally.filesWithMatches++;
      return undefined;
    } finally {
      await opened.handle.close();
    }
  }

  /** Matches a batch of lines on the worker, then prints them in order; false when the file is done. */
  private async takeBatch(
    batch: readonly ReadLine[],
    place: { no: number; matchedHere: boolean },
    run: FileRun,
  ): Promise<boolean> {
    const { printer, tally } = run;
    let matches: readonly boolean[] = [];
    if (tally.stop === undefined) {
      const found = await run.matcher.match(
        batch.map((line) => line.text),
        run.deadline,
        run.signal,
      );
      if (typeof found === 'string') tally.stop ??= 'time';
      else matches = found;
    }
    for (const [i, line] of batch.entries()) {
      place.no++;
      if (tally.stop !== undefined && !printer.owesContext) return false;
      const matched = tally.stop === undefined && matches[i] === true;
      printer.take(place.no, line, matched);
      if (matched) {
        place.matchedHere = true;
        tally.matches++;
        if (tally.matches >= run.maxMatches) tally.stop = 'matches';
      }
      if (printer.chars > run.outputChars && tally.stop === undefined) tally.stop = 'output';
    }
    if (Date.now() >= run.deadline) tally.stop ??= 'time';
    return true;
  }

  private report(
    params: Params,
    shownPath: string,
    printer: MatchPrinter,
    tally: Tally,
    budget: ByteBudget,
    walk: WalkStats,
  ): string {
    const notes: string[] = [];
    const narrow = 'narrow pattern, path or glob to see the rest';
    if (tally.stop === 'matches')
      notes.push(`[stopped at ${tally.matches} matching lines; there may be more: ${narrow}]`);
    if (tally.stop === 'output') notes.push(`[stopped: output limit reached; ${narrow}]`);
    if (tally.stop === 'time') notes.push(`[stopped after ${this.maxScanMs / 1000} s of searching; ${narrow}]`);
    if (budget.spent) {
      notes.push(`[stopped after reading ${sizeText(this.maxScanBytes)}, the limit of one search; ${narrow}]`);
    }
    if (walk.capped)
      notes.push(`[stopped after looking at ${walk.entries.toLocaleString('en-US')} entries; ${narrow}]`);
    if (tally.binary > 0) notes.push(`[${plural(tally.binary, 'binary file')} skipped]`);
    if (tally.matches === 0) {
      const head = `No matches for /${params.pattern}/ in ${shownPath} (${plural(tally.searched, 'file')} searched)`;
      return [head, ...notes].join('\n');
    }
    const summary = `[${plural(tally.matches, 'matching line')} in ${plural(tally.filesWithMatches, 'file')}]`;
    return [...printer.lines, summary, ...notes].join('\n');
  }
}
