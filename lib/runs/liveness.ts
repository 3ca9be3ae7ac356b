/**
 * When the web app considers a running run's worker dead: no heartbeat (sent every 5 s) for this long.
 * The run is then shown as interrupted, with a resume button.
 */
export const STALE_AFTER_MS = 45_000;
