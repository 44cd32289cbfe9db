/**
 * Id of the tool actor for the call at `index` of a turn. Every turn reuses the ids, as XState
 * reuses an invoked actor's id each time its state is entered (a turn's actors are stopped as
 * their calls settle): one id per turn made every turn's snapshot a new object shape for V8
 * (see `bench/cases/turn-cost.ts`).
 */
export function toolActorId(index: number): string {
  return `tool-${index}`;
}
