import type { Agent } from '../../agent/agent.js';
import { InspectorFeed } from '../../inspector/inspector-feed.js';
import { type InspectorServerOptions, startInspector } from '../../inspector/inspector-server.js';
import { waitForStop } from '../../inspector/wait-for-stop.js';
import type { Output } from '../render-human.js';
import { warnIfExposed } from './inspect.js';

/** A live inspector page serving one agent's runs (`run --inspect`, `demo --inspect`). */
export interface LiveInspector {
  readonly url: string;
  /** After the run: keeps the page up until Ctrl-C (or `signal`), then stops it. */
  keepServing(signal?: AbortSignal): Promise<void>;
  /** Stops serving now (idempotent): for a run that failed before `keepServing`. */
  close(): Promise<void>;
}

/**
 * Starts serving an agent's stream before its run, and prints the page's URL on one line
 * (`inspector: URL`, or `{"type":"inspector","data":{"url":…}}` with `--json`); a warning on
 * `err` when it listens beyond loopback.
 */
export async function serveAgentLive(
  agent: Agent,
  title: string,
  serve: InspectorServerOptions,
  out: Output,
  json: boolean,
  err: Output = process.stderr,
): Promise<LiveInspector> {
  warnIfExposed(serve, err);
  const { feed, detach } = InspectorFeed.ofAgent(agent, title);
  const server = await startInspector(feed, serve);
  out.write(
    json ? `${JSON.stringify({ type: 'inspector', data: { url: server.url } })}\n` : `inspector: ${server.url}\n`,
  );
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      detach();
      await server.close();
    })();
    return closing;
  };
  return {
    url: server.url,
    async keepServing(signal) {
      if (!json) out.write('inspector: run finished; serving until Ctrl-C\n');
      await waitForStop(signal);
      await close();
    },
    close,
  };
}
