import { existsSync } from 'node:fs';
import type { Contender } from '../contender.js';
import { benchDir } from './bench-dir.js';

/** What `bench/peers/index.ts` exports. */
interface PeersModule {
  peerContenders(): Promise<Contender[]>;
}

/**
 * The peer libraries' contenders, when `bench/peers` has been installed (`npm run bench:peers`).
 * The module path is computed so that the root type-check does not need the peers' packages.
 */
export async function loadPeers(): Promise<Contender[]> {
  const installed = new URL('peers/node_modules/', benchDir());
  if (!existsSync(installed)) {
    console.error('peers: bench/peers is not installed; run `npm run bench:peers`');
    return [];
  }
  const path = new URL('peers/index.ts', benchDir()).href;
  const module = (await import(path)) as PeersModule;
  return module.peerContenders();
}
