// System packages: the requirements table, the install planner and the installer (see requirements.mjs).
export { ensurePackages } from "./ensure.mjs";
export { aptListsEmpty } from "./install.mjs";
export { gatherFacts, optedOut, planInstall } from "./plan.mjs";
export {
  createProbe,
  missingRequirements,
  PURPOSES,
  REQUIREMENTS,
  requirementsFor,
  requirementsTable,
} from "./requirements.mjs";
