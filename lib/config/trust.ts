/**
 * What a request's overrides may not set (DESIGN §7): keys marked in lib/contracts/config-trust.ts as
 * naming a program, an endpoint, an output folder or an environment variable. They come only from the
 * server's environment or a config file under configs/; files a request names are checked later, against
 * the allowed roots, where they are read.
 */
import { SERVER_ONLY_KINDS, describeTrustKind, trustKindOf } from "../contracts/config-trust";
import { ConfigError } from "./errors";
import { isMapping, type Layer } from "./normalise";

/** Throws a ConfigError naming the first server-only key of an override layer. */
export function refuseServerOnlyKeys(layer: Layer): void {
  for (const [section, map] of Object.entries(layer.data)) {
    if (!isMapping(map)) continue;
    for (const key of Object.keys(map)) {
      const dotted = `${section}.${key}`;
      const kind = trustKindOf(dotted);
      if (kind === null || !SERVER_ONLY_KINDS.has(kind)) continue;
      throw new ConfigError(
        `${dotted}: ${describeTrustKind(kind)} cannot be chosen from the dashboard; set it in the server's environment or a config file under configs/`,
        dotted,
      );
    }
  }
}
