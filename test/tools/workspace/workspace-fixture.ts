import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Config, type ToolResult } from '../../../src/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { workspaceTools } from '../../../src/tools/workspace/index.js';
import { tempWorkspace } from '../../support/workspace.js';

/** A workspace `ws` inside a temp folder (`root`, which plays "outside"), with every workspace tool registered. */
export function workspaceFixture(options: { readonly maxToolOutputChars?: number } = {}) {
  const root = tempWorkspace();
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const config = new Config({ cwd: ws, ...options });
  const registry = new ToolRegistry(config);
  for (const tool of workspaceTools(config)) registry.register(tool);
  return {
    root,
    ws,
    config,
    registry,
    /** Calls a tool as the model would. */
    call: (name: string, params: object, signal?: AbortSignal): Promise<ToolResult> =>
      registry.invoke(name, params, { signal }),
    /** Writes files (creating folders), paths relative to the workspace. */
    files(tree: Record<string, string | Buffer>): void {
      for (const [path, content] of Object.entries(tree)) {
        mkdirSync(dirname(join(ws, path)), { recursive: true });
        writeFileSync(join(ws, path), content);
      }
    },
  };
}
