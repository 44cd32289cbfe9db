import { join } from 'node:path';
import { openStore } from '../../src/stores/index.js';
import { tempWorkspace } from '../support/workspace.js';
import { describeStoreConformance } from './conformance.js';
import { corruptEntry, crashMidTransaction, execSql } from './support/sqlite-faults.js';

describeStoreConformance('sqlite:', async () => {
  const file = join(tempWorkspace(), 'store.db');
  return {
    open: () => openStore(`sqlite:${file}`),
    tearLastAppend: async (id, from, entries) => crashMidTransaction(file, id, from, entries),
    tornTailWarns: false,
    corruptEntry: async (id, seq) => corruptEntry(file, id, seq),
    failWrites: async (id) =>
      execSql(
        file,
        `CREATE TRIGGER fail_${id} BEFORE INSERT ON appends WHEN NEW.session = '${id}'
           BEGIN SELECT RAISE(ABORT, 'injected failure: database or disk is full'); END`,
      ),
    dispose: async () => {},
  };
}, ['tornTail', 'corruptEntry', 'failWrites']);
