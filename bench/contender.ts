/**
 * One implementation of the workload. `run(toolTurns)` plays one whole session (a user prompt,
 * `toolTurns` checkpoint turns, then the final answer) and resolves with the number of model
 * turns it made (`toolTurns + 1`); it throws if the run did not end with `complete`.
 */
export interface Contender {
  readonly name: string;
  run(toolTurns: number): Promise<number>;
}

/** Throws unless a run produced the expected answer after the expected number of turns. */
export function expectComplete(name: string, answer: string | undefined, turns: number, toolTurns: number): number {
  if (answer !== 'complete' || turns !== toolTurns + 1) {
    throw new Error(
      `${name}: expected 'complete' after ${toolTurns + 1} turns, got ${JSON.stringify(answer)} after ${turns}`,
    );
  }
  return turns;
}

/**
 * `make(toolTurns)`, made once per number of tool turns and reused after (a contender's setup,
 * shared by its runs the way a server shares its config and machine across sessions).
 */
export function oncePerToolTurns<T>(make: (toolTurns: number) => T): (toolTurns: number) => T {
  const made = new Map<number, T>();
  return (toolTurns) => {
    let value = made.get(toolTurns);
    if (value === undefined) {
      value = make(toolTurns);
      made.set(toolTurns, value);
    }
    return value;
  };
}
