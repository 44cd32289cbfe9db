import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const reportPath = `${repo}test/architecture/api-report.md`;
const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as {
  name: string;
  exports: Record<string, string | { types?: string }>;
};

/** Every "exports" entry with types, and the source file its declarations are built from. */
const entries = Object.entries(pkg.exports)
  .flatMap(([subpath, target]) =>
    typeof target === 'object' && target.types ? [{ subpath, types: target.types }] : [],
  )
  .map(({ subpath, types }) => ({
    name: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    source: `${repo}${types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')}`,
  }));

let checkedOnce: Map<string, string[]> | undefined;

/** Names each entry exports, by the TypeScript checker (values and types); one program for both tests. */
function checkedExports(): Map<string, string[]> {
  checkedOnce ??= checkExports();
  return checkedOnce;
}

function checkExports(): Map<string, string[]> {
  const program = ts.createProgram(
    entries.map((entry) => entry.source),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
  );
  const checker = program.getTypeChecker();
  const found = new Map<string, string[]>();
  for (const entry of entries) {
    const file = program.getSourceFile(entry.source);
    const symbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (symbol === undefined) throw new Error(`${entry.source} is not a module`);
    found.set(
      entry.name,
      checker.getExportsOfModule(symbol).map((exported) => exported.name),
    );
  }
  return found;
}

/** The report: for each entry, its runtime values (`Object.keys` of the module) and its type-only names. */
async function apiReport(): Promise<string> {
  const checked = checkedExports();
  const sections = [
    '# API report',
    '',
    'Every name each entry of package.json "exports" makes public. Written by',
    '`test/architecture/api-report.test.ts` (`UPDATE_API_REPORT=1` rewrites it); a change here is a',
    'change to the public API, to be decided in review.',
  ];
  for (const entry of entries) {
    const values = Object.keys((await import(entry.source)) as object).sort();
    const types = (checked.get(entry.name) ?? []).filter((name) => !values.includes(name)).sort();
    sections.push(
      '',
      `## ${entry.name} (${values.length + types.length})`,
      '',
      `Values (${values.length}): ${values.map((name) => `\`${name}\``).join(', ')}`,
      '',
      `Types (${types.length}): ${types.map((name) => `\`${name}\``).join(', ')}`,
    );
  }
  return `${sections.join('\n')}\n`;
}

describe('the public API', () => {
  it('is the one test/architecture/api-report.md records, entry by entry', async () => {
    const report = await apiReport();
    if (process.env.UPDATE_API_REPORT === '1') writeFileSync(reportPath, report);
    expect(report).toBe(readFileSync(reportPath, 'utf8'));
  }, 120_000);

  it('keeps the root to what an embedder needs: at most 60 names', () => {
    const root = checkedExports().get(pkg.name) ?? [];
    expect(root.length).toBeLessThanOrEqual(60);
  }, 120_000);
});
