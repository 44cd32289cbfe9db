import { parseArgs } from 'node:util';
import { printableLine } from '../../core/printable.js';
import { approveCall, denyCall } from '../../restate/ingress-client.js';
import type { Output } from '../render-human.js';
import { sessionIdArg } from '../store-flags.js';
import { UsageError } from '../usage-error.js';
import { restateUrl } from './restate-url.js';

/** Help text of `agent-harness approve`. */
export const APPROVE_HELP = `Usage: agent-harness approve ID CALL --restate URL

Approves the call CALL of session ID, which waits for a decision in a run on Restate (the run
waits durably: no process needs to be alive). The run goes on at once on a worker.

Options:
  --restate URL    the Restate server's ingress (http://127.0.0.1:8080)
`;

/** Help text of `agent-harness deny`. */
export const DENY_HELP = `Usage: agent-harness deny ID CALL --restate URL [--reason TEXT]

Denies the call CALL of session ID, which waits for a decision in a run on Restate; the model
reads "Error: denied: TEXT".

Options:
  --restate URL    the Restate server's ingress (http://127.0.0.1:8080)
  --reason TEXT    why (the model reads it)
`;

function decideCommand(approve: boolean) {
  return async (argv: readonly string[], out: Output): Promise<number> => {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { restate: { type: 'string' }, reason: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const verb = approve ? 'approve' : 'deny';
    const [id, callId, ...rest] = positionals;
    if (id === undefined || callId === undefined || rest.length > 0) {
      throw new UsageError(`${verb} takes a session id and a call id: agent-harness ${verb} ID CALL --restate URL`);
    }
    if (approve && values.reason !== undefined) throw new UsageError('--reason goes with deny, not approve');
    const url = restateUrl(values.restate, "the Restate server's ingress, e.g. http://127.0.0.1:8080");
    const sessionId = sessionIdArg(id, 'the session id');
    if (approve) await approveCall(url, sessionId, callId);
    else await denyCall(url, sessionId, callId, values.reason);
    out.write(`${approve ? 'approved' : 'denied'}: ${printableLine(callId)} of session ${sessionId}\n`);
    return 0;
  };
}

/** `agent-harness approve ID CALL --restate URL`. */
export const approveCommand = decideCommand(true);

/** `agent-harness deny ID CALL --restate URL [--reason TEXT]`. */
export const denyCommand = decideCommand(false);
