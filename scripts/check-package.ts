/**
 * Type-checks a consumer of the packed package, as a new user would install it: `npm pack` of the
 * built `dist/`, a temporary project holding the tarball's files and only the packages
 * package.json makes a user install (no optional peer, no devDependency), `tsc --strict` with
 * `skipLibCheck: false` on a file importing every entry of "exports" and on every
 * `import … from 'agent-harness…'` of README.md and docs/*.md. Then, in a consumer with every
 * optional package, it type-checks (`tsc --strict`) and runs README's embedding example and each
 * file of examples/, as a user who copied them would.
 *
 * Offline: the dependencies are linked from this checkout's node_modules. Run after
 * `npm run build` (`.ci/run` does): `npx tsx scripts/check-package.ts`.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocImport, docImports, importCheckModule } from './doc-imports.js';

interface PackageJson {
  name: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

/** The packages a user installs with this one: its dependencies, required peers, and Node's types. */
function installedWith(manifest: PackageJson): string[] {
  const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
  );
  return [...Object.keys(manifest.dependencies ?? {}), ...peers, '@types/node'];
}

/** `agent-harness`, `agent-harness/openai`, …: every "exports" entry that has types. */
function entrySpecifiers(manifest: PackageJson): string[] {
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target !== null && 'types' in target)
    .map(([key]) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
}

function documents(): { doc: string; text: string }[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`);
  return ['README.md', ...docs].map((doc) => ({ doc, text: readFileSync(join(root, doc), 'utf8') }));
}

/**
 * Entries made for one optional peer, checked in a second consumer that has that peer (with only
 * the types it ships) installed. Every other entry must check with no optional package at all.
 */
const ENTRY_PEERS: Readonly<Record<string, readonly string[]>> = {
  [`${pkg.name}/telemetry`]: ['@opentelemetry/api'],
  [`${pkg.name}/stores`]: ['pg', '@types/pg', 'better-sqlite3', '@types/better-sqlite3'],
  [`${pkg.name}/testing`]: ['fast-check'],
  [`${pkg.name}/restate`]: ['@restatedev/restate-sdk', '@restatedev/restate-sdk-core'],
};

/** Unpacks the tarball as node_modules/<name> and links the packages a user would have installed. */
function makeConsumer(dir: string, tarball: string, extra: readonly string[]): void {
  const target = join(dir, 'node_modules', pkg.name);
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  for (const name of [...installedWith(pkg), ...extra]) {
    const from = join(root, 'node_modules', name);
    if (!existsSync(from)) throw new Error(`${name} is not installed in ${root}node_modules: run npm ci`);
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(from, join(dir, 'node_modules', name), 'dir');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
}

/** tsc's report with each error in doc-imports.ts pointed at the document line it checks. */
function located(report: string, imports: readonly DocImport[]): string {
  return report.replace(/^doc-imports\.ts\((\d+),\d+\)/gm, (whole, line: string) => {
    const found = imports[Number(line) - 1];
    return found === undefined ? whole : `${found.doc}:${found.line} (import from '${found.specifier}')`;
  });
}

/** Type-checks `entries` and `imports` in a new consumer at `dir`; the report of what fails, if any. */
function checkConsumer(
  dir: string,
  tarball: string,
  extra: readonly string[],
  entries: readonly string[],
  imports: readonly DocImport[],
): string | undefined {
  makeConsumer(dir, tarball, extra);
  const lines = entries.map((entry, i) => `import type * as _${i} from '${entry}';`);
  writeFileSync(join(dir, 'entries.ts'), `${lines.join('\n')}\nexport {};\n`);
  writeFileSync(join(dir, 'doc-imports.ts'), importCheckModule(imports));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    return undefined;
  } catch (error) {
    const { stdout = '', message } = error as { stdout?: string; message: string };
    return `${located(stdout, imports) || message}\ncheck-package: in a consumer with ${extra.length === 0 ? 'no optional package' : extra.join(', ')}`;
  }
}

/** What examples/ imports besides the package and its required dependencies. */
const EXAMPLE_PACKAGES = [
  'zod',
  'fast-check',
  'better-sqlite3',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server-filesystem',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
];

/** Examples that need a server of the user's own to run (type-checked, not run). */
const NOT_RUN = new Set(['otel-traces.ts']);

/** README's embedding example: the first ts block after its "## Embedding" heading. */
function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /## Embedding[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no ts block under "## Embedding"');
  return block;
}

/** Type-checks and runs README's example and examples/ in a consumer with every optional package. */
function checkExamples(dir: string, tarball: string): string | undefined {
  makeConsumer(
    dir,
    tarball,
    EXAMPLE_PACKAGES.filter((name) => !installedWith(pkg).includes(name)),
  );
  const files = readdirSync(join(root, 'examples')).filter((name) => name.endsWith('.ts'));
  for (const file of files) writeFileSync(join(dir, file), readFileSync(join(root, 'examples', file), 'utf8'));
  writeFileSync(join(dir, 'readme-example.ts'), `${readmeExample()}\nexport {};\n`);
  const config = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8')) as { compilerOptions: object };
  // Third-party optional packages' own declarations are theirs to check: only ours are held to skipLibCheck false.
  const compilerOptions = { ...config.compilerOptions, skipLibCheck: true };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const tsx = join(root, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    const { stdout = '', message } = error as { stdout?: string; message: string };
    return `${stdout || message}\ncheck-package: README's example or examples/ do not type-check in a consumer`;
  }
  for (const file of ['readme-example.ts', ...files.filter((name) => !NOT_RUN.has(name))]) {
    try {
      execFileSync(process.execPath, ['--import', tsx, file], {
        cwd: dir,
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 120_000,
      });
    } catch (error) {
      const { stderr = '', message } = error as { stderr?: string; message: string };
      return `${stderr || message}\ncheck-package: ${file} failed in a consumer of the packed package`;
    }
  }
  return undefined;
}

function main(): number {
  if (!existsSync(join(root, 'dist', 'index.d.ts'))) {
    console.error('check-package: dist/ is missing; run npm run build first');
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-consumer-'));
  try {
    const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    });
    const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
    const tarball = join(dir, filename);
    const entries = entrySpecifiers(pkg);
    const imports = documents().flatMap(({ doc, text }) => docImports(doc, text));
    const withPeer = (specifier: string) => specifier in ENTRY_PEERS;
    const reports = [
      checkConsumer(
        join(dir, 'plain'),
        tarball,
        [],
        entries.filter((entry) => !withPeer(entry)),
        imports.filter((found) => !withPeer(found.specifier)),
      ),
      ...Object.entries(ENTRY_PEERS).map(([entry, peers], i) =>
        checkConsumer(
          join(dir, `peer-${i}`),
          tarball,
          peers,
          [entry],
          imports.filter((found) => found.specifier === entry),
        ),
      ),
      checkExamples(join(dir, 'examples'), tarball),
    ].filter((report) => report !== undefined);
    if (reports.length > 0) {
      for (const report of reports) console.error(report);
      console.error('check-package: the packed package does not type-check in a consumer (skipLibCheck: false)');
      return 1;
    }
    console.log(
      `check-package: ${entries.length} entries and ${imports.length} documented imports type-check from the packed package; README's example and examples/ type-check and run`,
    );
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main();
