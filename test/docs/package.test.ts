import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  repository?: { type?: string; url?: string };
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** Bare package names a file imports at its top level (type-only imports are erased, so not counted). */
function topLevelPackages(path: string): string[] {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const names = [...text.matchAll(/^import (?!type )[^;]*? from '([^.'][^']*)';/gm)].map((match) => match[1] ?? '');
  return names
    .filter((name) => !name.startsWith('node:'))
    .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? '')));
}

describe('package.json', () => {
  it('lists every package the testing kit imports statically as a dependency or a required peer, so the subpath loads', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../src/testing/', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `src/testing/${file}`);
    const used = new Set(files.flatMap(topLevelPackages));
    // A peer that is not optional (zod: every tool's schema) is installed wherever the library is.
    const required = Object.keys(pkg.peerDependencies ?? {}).filter(
      (name) => !pkg.peerDependenciesMeta?.[name]?.optional,
    );
    const loadable = { ...pkg.dependencies, ...Object.fromEntries(required.map((name) => [name, 'peer'])) };
    for (const name of used) expect(loadable, `${name} is imported by src/testing`).toHaveProperty(name);
  });

  it('imports the optional peer @opentelemetry/api only under agent-harness/telemetry', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../src/', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `src/${file}`);
    const importers = files.filter((file) => topLevelPackages(file).includes('@opentelemetry/api'));
    expect(importers.length).toBeGreaterThan(0);
    for (const file of importers) expect(file).toMatch(/^src\/telemetry\//);
    expect(pkg.peerDependenciesMeta?.['@opentelemetry/api']?.optional).toBe(true);
  });

  it('makes fast-check (the testing kit) an optional peer, kept for development', () => {
    expect(pkg.dependencies).not.toHaveProperty('fast-check');
    expect(pkg.peerDependenciesMeta?.['fast-check']?.optional).toBe(true);
    expect(pkg.devDependencies).toHaveProperty('fast-check');
  });

  it('makes better-sqlite3 (the embedded default store) an optional dependency: installed, but a failed native build fails no install', () => {
    expect(pkg.dependencies).not.toHaveProperty('better-sqlite3');
    expect(pkg.optionalDependencies).toHaveProperty('better-sqlite3');
    expect(pkg.peerDependencies ?? {}).not.toHaveProperty('better-sqlite3');
  });

  it('names its repository, so npm and the registry page link to the source', () => {
    expect(pkg.repository?.type).toBe('git');
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
  });
});

describe('examples/', () => {
  it('import the library as a user does, by package name and through an exported entry, never ../src', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../examples/', import.meta.url)).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8');
      const specifiers = [...text.matchAll(/^import [^;]*? from '([^']+)';/gm)].map((match) => match[1] ?? '');
      expect(
        specifiers.filter((specifier) => specifier.startsWith('.')),
        file,
      ).toEqual([]);
      const own = specifiers.filter((specifier) => specifier === pkg.name || specifier.startsWith(`${pkg.name}/`));
      expect(own.length, `${file} imports ${pkg.name}`).toBeGreaterThan(0);
      for (const specifier of own) expect(pkg.exports, file).toHaveProperty([`.${specifier.slice(pkg.name.length)}`]);
    }
  });
});
