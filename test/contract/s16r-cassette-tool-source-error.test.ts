// SPEC §17: "An unchanged run passes", and any stored session is a cassette. A tool source whose
// refresh fails ends the run with `mcp_error` after the turn's `turn_start` is journaled but
// before any request is sent. A cassette derived from the journal took that `turn_start` for a
// request: the replay's requests were then off by one, and an unchanged session that was
// resumed after such a failure diverged ("recording ended") at its next request.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Config,
  defineTool,
  type ModelClient,
  ScriptedClient,
  ToolKind,
  ToolRegistry,
} from '../../src/index.js';
import { formatCassetteReport, replayCassette } from '../../src/testing/index.js';
import { collect, textTurn, toolTurn } from '../support/fixtures.js';

/** A tool source whose second refresh (the second turn's) fails, as a clashing list would. */
function flakySource() {
  let refreshes = 0;
  return {
    refresh: () => {
      refreshes++;
      if (refreshes === 2) throw new Error("MCP server 'shop' lists the tool 'get' twice");
    },
  };
}

const make = (client: ModelClient): Agent => {
  const config = new Config({});
  const look = defineTool({
    name: 'look',
    description: 'Looks.',
    kind: ToolKind.READ,
    schema: z.object({}),
    execute: () => 'looked',
  });
  return new Agent(config, { client, tools: new ToolRegistry(config).register(look), toolSources: [flakySource()] });
};

describe('SPEC §17: a session resumed after a failed tool-source refresh, replayed from its journal', () => {
  it('passes unchanged', async () => {
    const agent = make(new ScriptedClient([toolTurn('c1', 'look', {}), textTurn('done')]));
    expect((await collect(agent.run('look'))).at(-1)).toMatchObject({
      type: 'agent_error',
      data: { reason: 'mcp_error' },
    });
    expect((await collect(agent.resume())).at(-1)).toMatchObject({ type: 'agent_end', data: { response: 'done' } });
    const report = await replayCassette(agent.session, { makeAgent: make });
    expect(report, formatCassetteReport(report)).toEqual({ ok: true });
  });
});
