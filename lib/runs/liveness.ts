/**
 * When the web app considers a running run's worker dead: no heartbeat (sent every 5 s) for this long
 * (SKILLOPT_STALE_AFTER_MS, 45 s by default). The run is then shown as interrupted, with a resume button.
 */
import { env } from "../config/env";

export function staleAfterMs(): number {
  return env().SKILLOPT_STALE_AFTER_MS;
}
