// System packages: the requirements table, the install planner and the installer (see requirements.mjs).
export { ensurePackages } from "./ensure.mjs";
export { aptListsEmpty, runInstallPlan } from "./install.mjs";
export { gatherFacts, manualCommand, optedOut, planInstall } from "./plan.mjs";
export {
  createProbe,
  missingRequirements,
  PURPOSES,
  pythonCandidates,
  REQUIREMENTS,
  requirementsFor,
  requirementsTable,
} from "./requirements.mjs";
