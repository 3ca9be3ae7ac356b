/** The "Workers" section of the New run form: where a run's rollouts execute (README "Several workers"). */
import { bool, int, type ConfigSectionSpec } from "./config-field-kinds";

export const WORKER_SECTION: ConfigSectionSpec = {
  id: "worker",
  title: "Workers",
  blurb: "Spread a run's rollouts over every worker process that shares this Redis and database.",
  fields: [
    {
      key: "worker.fan_out",
      label: "Fan out rollouts",
      help: "Each batch's items become child jobs any worker runs; same decisions and best skill as one process. Worth it for slow exec targets and several machines.",
      kind: bool,
    },
    {
      key: "worker.fan_out_chunk",
      label: "Items per child job",
      help: "0 = one round of exec slots per job.",
      kind: int(0, 1_000),
    },
    {
      key: "worker.exec_slots",
      label: "Exec slots per worker",
      help: "How many of this run's items one worker process runs at once when fanned out (default 2).",
      kind: int(1, 64),
    },
  ],
};
