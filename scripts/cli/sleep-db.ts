/**
 * The CLI's link to the dashboard's database: a night run from the terminal is recorded there too (so the
 * dashboard shows it) when DATABASE_URL names a migrated database. When it does not, one warning line
 * says so and the night runs anyway; `--no-db` opts out without the warning. The check writes nothing: a
 * missing SQLite file is reported, never created. At start, running nights whose process died are marked
 * interrupted (lib/db/sleep-night-liveness.ts).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { env } from "../../lib/config/env";
import { createDb, providerOf, type Db } from "../../lib/db/client";
import { markDeadNightsInterrupted } from "../../lib/db/sleep-night-liveness";
import { createNightRecorder } from "../../lib/db/sleep-nights";
import type { NightRecorder } from "../../lib/sleep";
import { heartbeatEveryMs } from "../../lib/sleep/liveness";
import { say, type Flags } from "./sleep-args";

export interface CliDb {
  db: Db | null;
  recorder?: NightRecorder;
  close(): Promise<void>;
}

const NONE: CliDb = { db: null, close: async () => {} };

function warn(reason: string): CliDb {
  process.stderr.write(
    `[sleep] warning: this night is not recorded for the dashboard (${say(reason)}); --no-db silences this\n`,
  );
  return NONE;
}

export async function openCliDb(f: Flags): Promise<CliDb> {
  if (f["no-db"] === true) return NONE;
  let url: string;
  try {
    url = env().DATABASE_URL;
    if (providerOf(url) === "sqlite" && !existsSync(resolve(url.slice("file:".length))))
      return warn(`no database at ${url}; run npm start once or npm run db:deploy`);
  } catch (err) {
    return warn((err as Error).message);
  }
  const db = createDb(url);
  try {
    await db.sleepNight.count();
  } catch (err) {
    await db.$disconnect().catch(() => {});
    return warn(
      `the database at DATABASE_URL cannot record Sleep nights: ${(err as Error).message.split("\n").find((l) => l.trim()) ?? "unknown error"}`,
    );
  }
  // A night whose process died (killed, or the machine restarted) stops showing as running before this one starts.
  const staleAfterMs = env().SKILLOPT_STALE_AFTER_MS;
  const interrupted = await markDeadNightsInterrupted({ db, staleAfterMs, detectedBy: "sleep run" }).catch(() => 0);
  if (interrupted > 0) process.stderr.write(`[sleep] ${interrupted} night(s) whose process died marked interrupted\n`);
  const recorder = createNightRecorder({ db, trigger: "cli", heartbeatMs: heartbeatEveryMs(staleAfterMs) });
  return { db, recorder, close: () => db.$disconnect() };
}
