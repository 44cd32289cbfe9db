import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/stores/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { describeStoreConformance } from './conformance.js';
import { FaultyFileSystem } from './support/faulty-file-system.js';
import { tornAppend } from './support/torn-append.js';

describeStoreConformance('jsonl:', async () => {
  const dir = tempWorkspace();
  const faulty = new FaultyFileSystem();
  const file = (id: string) => join(dir, `${id}.jsonl`);
  return {
    open: () => openStore(`jsonl:${dir}`, { fs: faulty.fs }),
    tearLastAppend: async (id, from, entries) => appendFileSync(file(id), tornAppend(from, entries)),
    tornTailWarns: true,
    corruptEntry: async (id, seq) => {
      const lines = readFileSync(file(id), 'utf8').split('\n');
      lines[seq + 1] = (lines[seq + 1] ?? '').replace('"type":"', '"typo":"');
      writeFileSync(file(id), lines.join('\n'));
    },
    failWrites: async (id) => faulty.fail('write', `${id}.jsonl`, 'ENOSPC'),
    dispose: async () => {},
  };
}, ['tornTail', 'corruptEntry', 'failWrites']);
