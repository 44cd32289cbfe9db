import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';

const dir = new URL('../.tmp/', import.meta.url);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README embedding example', () => {
  it('runs as written and streams the scripted answer', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const code = /## Embedding\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    mkdirSync(dir, { recursive: true });
    const file = new URL('readme-example.ts', dir);
    writeFileSync(file, code ?? '');
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args) => {
      logged.push(args);
    });
    try {
      await import(/* @vite-ignore */ file.href);
    } finally {
      write.mockRestore();
      log.mockRestore();
    }
    expect(written.join('')).toContain('It is a Node package.');
    expect(logged).toEqual([['\n', { promptTokens: 40, completionTokens: 9, totalTokens: 49 }, 2]]);
  });
});
