/**
 * A game session: the one interface the rollout plays through, implemented by the built-in simulator
 * and by the bridge to the real ALFWorld. Every call answers the observation, the admissible actions and
 * whether the game is won / over.
 */
import { householdClauses, type Clause } from "./diagnose";
import type { Game } from "./sim/generate";
import type { StepResult } from "./sim/actions";
import { Household } from "./sim/household";

export type { StepResult } from "./sim/actions";

/** One running game. */
export interface GameSession {
  reset(): Promise<StepResult>;
  step(action: string): Promise<StepResult>;
  close(): Promise<void>;
  /** Findings only this simulator can make about a lost episode (world-state facts). */
  diagnose?(): Clause[];
}

/** A session on the built-in simulator. */
export function householdSession(game: Game): GameSession {
  const sim = new Household(game);
  return {
    reset: () => Promise.resolve(sim.reset()),
    step: (action) => Promise.resolve(sim.step(action)),
    close: () => Promise.resolve(),
    diagnose: () => householdClauses(sim),
  };
}
