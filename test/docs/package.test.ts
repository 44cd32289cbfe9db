import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** Bare package names a file imports at its top level. */
function topLevelPackages(path: string): string[] {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const names = [...text.matchAll(/^import [^;]*? from '([^.'][^']*)';/gm)].map((match) => match[1] ?? '');
  return names
    .filter((name) => !name.startsWith('node:'))
    .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : (name.split('/')[0] ?? '')));
}

describe('package.json', () => {
  it('lists every package the testing kit imports statically as a dependency, so the subpath loads', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(new URL('../../src/testing/', import.meta.url), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `src/testing/${file}`);
    const used = new Set(files.flatMap(topLevelPackages));
    for (const name of used) expect(pkg.dependencies, `${name} is imported by src/testing`).toHaveProperty(name);
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
});
