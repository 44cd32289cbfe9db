import { readFile } from 'node:fs/promises';

/** A file the inspector page is made of. */
export interface PageAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

const FILES: Readonly<Record<string, string>> = {
  '/': 'index.html',
  '/inspector.js': 'inspector.js',
  '/diagram.js': 'diagram.js',
  '/timeline.js': 'timeline.js',
  '/dom.js': 'dom.js',
  '/fork.js': 'fork.js',
  '/divergence.js': 'divergence.js',
  '/inspector.css': 'inspector.css',
};

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * Loads the page's files, shipped in the package beside this module (`assets/`; the build
 * copies them into `dist/inspector/assets`). Keyed by URL path.
 */
export async function loadPageAssets(): Promise<Map<string, PageAsset>> {
  const folder = new URL('./assets/', import.meta.url);
  const assets = new Map<string, PageAsset>();
  for (const [path, file] of Object.entries(FILES)) {
    const extension = file.slice(file.lastIndexOf('.') + 1);
    const body = await readFile(new URL(file, folder));
    assets.set(path, { body, contentType: TYPES[extension] ?? 'application/octet-stream' });
  }
  return assets;
}
