/**
 * The trajectory of an item that could not be run at all (a missing field, an unreadable file): status
 * error with the reason, scored 0 but counted as an error rather than a wrong answer, and an evaluation
 * note so the reason shows wherever the trajectory is read.
 */
import type { Trajectory } from "../../engine/types";

export type TrajectoryBase = Omit<Trajectory, "hard" | "soft" | "status" | "conversation">;

export function errorTrajectory(base: TrajectoryBase, reason: string): Trajectory {
  return {
    ...base,
    hard: 0,
    soft: 0,
    status: "error",
    failReason: `error: ${reason}`,
    conversation: [{ role: "system", content: `[EVALUATION RESULT] ${reason}` }],
    nTurns: 0,
  };
}
