import { openStore } from '../../src/stores/index.js';
import { freshPostgresUrl, startPostgresBeforeAll } from '../support/postgres.js';
import { describeStoreConformance } from './conformance.js';
import { abandonTransaction, query, schemaOf } from './support/postgres-faults.js';

startPostgresBeforeAll();

describeStoreConformance('postgres:', async () => {
  const url = await freshPostgresUrl();
  const schema = schemaOf(url);
  return {
    open: () => openStore(url),
    tearLastAppend: (id, from, entries) => abandonTransaction(url, id, from, entries),
    tornTailWarns: false,
    corruptEntry: async (id, seq) => {
      await query(
        url,
        `UPDATE "${schema}".agent_harness_entries SET body = left(body, 12) WHERE session = $1 AND seq = $2`,
        [id, seq],
      );
    },
    failWrites: async (id) => {
      await query(
        url,
        `CREATE FUNCTION "${schema}".fail_writes() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN RAISE EXCEPTION 'injected failure: could not extend file: No space left on device'; END $$`,
      );
      await query(
        url,
        `CREATE TRIGGER fail_writes BEFORE INSERT ON "${schema}".agent_harness_entries
           FOR EACH ROW WHEN (NEW.session = '${id}') EXECUTE FUNCTION "${schema}".fail_writes()`,
      );
    },
    // Each test has its own schema, and the server is thrown away after the run.
    dispose: async () => {},
  };
}, ['tornTail', 'corruptEntry', 'failWrites']);
