import type { Budget, BudgetOptions } from '../../config/budget.js';
import type { BudgetKind, StopReason } from '../../core/agent-event.js';
import type { agentMachine } from '../../machines/agent-machine.js';
import type { AgentStateName, PendingCalls } from '../../machines/agent-machine-types.js';
import type { AlphabetOptions } from './alphabet.js';

/** Options of {@link modelCheckAgentMachine}. */
export interface ModelCheckOptions extends Partial<AlphabetOptions> {
  /** The run's budget; it must set `maxTurns`, which bounds the exploration. */
  readonly budget: Budget | BudgetOptions;
  /** Explore a resumed run that starts by running these recorded, unanswered calls. */
  readonly resume?: PendingCalls;
  /** The machine to check (e.g. a `.provide()`d variant); `agentMachine` by default. */
  readonly machine?: typeof agentMachine;
  /** Throw after this many traversal steps (a guard against a too-large alphabet). Default 500,000. */
  readonly limit?: number;
}

/** One invariant broken on one path. */
export interface MachineViolation {
  /** What went wrong. */
  readonly problem: string;
  /** The shortest path found to it: event labels from the initial state. */
  readonly path: readonly string[];
}

/** What an exhaustive exploration found. */
export interface ModelCheckReport {
  /** Distinct stable states (between events) reached. */
  readonly states: number;
  /** Distinct (state, event) transitions explored. */
  readonly transitions: number;
  /** Distinct (state, path monitor) pairs: the product in which path invariants were checked. */
  readonly productStates: number;
  /** Every machine state entered on some path, including the transient ones. */
  readonly visited: ReadonlySet<AgentStateName>;
  /** Every reason the run stopped with on some path. */
  readonly stopReasons: ReadonlySet<StopReason>;
  /** Every budget that raised a soft-limit warning on some path. */
  readonly softLimits: ReadonlySet<BudgetKind>;
  /** Broken invariants; empty when the machine keeps them on every path. */
  readonly violations: readonly MachineViolation[];
}
