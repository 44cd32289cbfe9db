import { type ChildProcess, spawn } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killOnExit } from './exit-cleanup.js';
import { LineReader, MAX_MESSAGE_BYTES, type ReadLine } from './line-reader.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { OutputTail } from './output-tail.js';

/** The command a {@link ProcessTransport} runs. */
export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly onStderr: ((text: string) => void) | undefined;
}

/** Process groups are a POSIX idea: on Windows the child alone is killed. */
const GROUPS = process.platform !== 'win32';
/** How long `close()` waits after closing stdin, and then after SIGTERM. */
const GRACE_MS = { stdin: 1000, term: 2000 } as const;
/** JSON-RPC's code for an internal error: what a dropped over-long answer becomes. */
const INTERNAL_ERROR = -32603;
/** A JSON-RPC `id` member: a number or a string. */
const ID_MEMBER = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/g;
const NEWLINE = Buffer.from('\n');

/** The ids an over-long line may answer: those its two ends name. */
function idsNamed(line: { head: string; tail: string }): unknown[] {
  return [...line.tail.matchAll(ID_MEMBER)]
    .reverse()
    .concat([...line.head.matchAll(ID_MEMBER)])
    .flatMap((match) => {
      try {
        return [JSON.parse(match[1] as string) as unknown];
      } catch {
        return [];
      }
    });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', done);
      resolve(false);
    }, ms);
    function done(): void {
      clearTimeout(timer);
      resolve(true);
    }
    child.once('exit', done);
  });
}

/**
 * The stdio transport of an MCP client, like the SDK's `StdioClientTransport` but with the
 * child in its own process group, so that closing it also stops whatever it started (`npx`,
 * `uv run`, a shell script), and with its stderr kept for error messages. The child does not
 * keep this process alive unless a request is in flight ({@link ProcessTransport.hold}); a
 * child never closed is killed when this process exits. A message over {@link MAX_MESSAGE_BYTES}
 * is dropped as it arrives and the request it answers fails with a JSON-RPC error saying so.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The end of the server's stderr. */
  readonly stderr = new OutputTail();
  private child: ChildProcess | undefined;
  private exit: string | undefined;
  private holds = 0;
  private forget: (() => void) | undefined;
  private readonly buffer: InstanceType<McpSdk['ReadBuffer']>;
  private readonly lines = new LineReader();
  /** Ids of the requests sent and not yet answered. */
  private readonly pending = new Set<unknown>();

  constructor(
    private readonly spec: ProcessSpec,
    private readonly sdk: McpSdk,
  ) {
    this.buffer = new sdk.ReadBuffer();
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended (`exited with code 1`, `killed by SIGKILL`), once it has. */
  get exitDescription(): string | undefined {
    return this.exit;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.spec;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      let started = false;
      child.once('error', (error) => {
        if (!started) reject(error);
        else this.onerror?.(error);
      });
      child.once('spawn', () => {
        started = true;
        this.forget = killOnExit(() => this.signal('SIGKILL'));
        this.release(0);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit = signal === null ? `exited with code ${code}` : `killed by ${signal}`;
        // What the server started dies with it; its pipes then close, which ends the connection.
        this.signal('SIGKILL');
      });
      child.once('close', () => {
        this.forget?.();
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.stderr.append(text);
        this.spec.onStderr?.(text);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin == null || !stdin.writable || this.exit !== undefined) {
      return Promise.reject(new Error(`not connected (the server ${this.exit ?? 'is not running'})`));
    }
    if ('method' in message && 'id' in message) this.pending.add(message.id);
    return new Promise((resolve) => {
      if (stdin.write(this.sdk.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Keeps this process alive while a request is in flight (the child and its pipes are
   * otherwise unreferenced). Returns the release function.
   */
  hold(): () => void {
    this.release(+1);
    let released = false;
    return () => {
      if (!released) this.release(-1);
      released = true;
    };
  }

  /**
   * Closes stdin and waits for the server to exit; then SIGTERM, then SIGKILL to its process
   * group (the MCP specification's shutdown for stdio). Resolves once the process has exited.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    child.stdin?.end();
    if (!(await waitForExit(child, GRACE_MS.stdin))) {
      this.signal('SIGTERM');
      if (!(await waitForExit(child, GRACE_MS.term))) {
        this.signal('SIGKILL');
        await waitForExit(child, GRACE_MS.term);
      }
    }
    // The server is gone; whatever it started in its group goes with it.
    this.signal('SIGKILL');
    this.buffer.clear();
    this.lines.clear();
  }

  private signal(name: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (GROUPS) process.kill(-pid, name);
      else this.child?.kill(name);
    } catch {
      // ESRCH: nothing left to stop.
    }
  }

  private read(chunk: Buffer): void {
    for (const line of this.lines.push(chunk)) {
      if (line.kind === 'oversize') {
        this.dropOversize(line);
        continue;
      }
      // One whole line at a time, within the limit: the SDK's buffer parses it and never overflows.
      this.buffer.append(Buffer.concat([line.line, NEWLINE]));
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not a JSON-RPC message: reported, and the next line is read.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) continue;
      if ('id' in message && !('method' in message)) this.pending.delete(message.id);
      this.onmessage?.(message);
    }
  }

  /** Answers the request an over-long line was for (named at either end, else the only one waiting). */
  private dropOversize(line: Extract<ReadLine, { kind: 'oversize' }>): void {
    const named = idsNamed(line).find((id) => this.pending.has(id));
    const id = named ?? (this.pending.size === 1 ? [...this.pending][0] : undefined);
    const what = `the server sent a message of ${line.bytes.toLocaleString('en-US')} bytes, over the limit of ${MAX_MESSAGE_BYTES.toLocaleString('en-US')}; it was dropped`;
    if (id === undefined || (typeof id !== 'number' && typeof id !== 'string')) {
      this.onerror?.(new Error(what));
      return;
    }
    this.pending.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: what } });
  }

  private release(delta: number): void {
    this.holds += delta;
    const child = this.child;
    if (child === undefined) return;
    const handles = [child, child.stdin, child.stdout, child.stderr] as const;
    for (const handle of handles) {
      const refable = handle as { ref?: () => void; unref?: () => void } | null;
      if (this.holds > 0) refable?.ref?.();
      else refable?.unref?.();
    }
  }
}
