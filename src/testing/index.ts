/** Testing kit: a scripted model that records its requests. */

export type { RecordedRequest, ScriptedEvents, ScriptedTurn } from '../adapters/scripted-client.js';
export { ScriptedClient } from '../adapters/scripted-client.js';
