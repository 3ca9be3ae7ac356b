/**
 * The step a run page opens on: its URL's `?step=` when that is a positive whole number, else the run's
 * latest committed step (null before the first). The page's server render preloads this step's detail and
 * RunView asks for it together with the run detail: both read it here, so they ask for the same one.
 */
export function openingStep(stepParam: string | null | undefined, latestStep: number | null): number | null {
  const asked = Number.parseInt(stepParam ?? "", 10);
  return Number.isFinite(asked) && asked > 0 ? asked : latestStep;
}
