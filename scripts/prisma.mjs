#!/usr/bin/env node
// Prisma CLI with the config that matches DATABASE_URL:
//   DATABASE_URL=file:./.skillopt/skillopt.db        node scripts/prisma.mjs migrate deploy
//   DATABASE_URL=postgresql://u:p@h/db     node scripts/prisma.mjs migrate deploy
import { spawnSync } from "node:child_process";

const url = process.env.DATABASE_URL ?? "file:./.skillopt/skillopt.db";
const config = url.startsWith("file:")
  ? "prisma/sqlite.config.ts"
  : /^postgres(ql)?:\/\//.test(url)
    ? "prisma/postgres.config.ts"
    : null;
if (!config) {
  console.error(`DATABASE_URL must start with file: or postgresql:// (got ${url.split(":")[0]}:)`);
  process.exit(2);
}
const r = spawnSync(
  process.execPath,
  ["node_modules/prisma/build/index.js", ...process.argv.slice(2), "--config", config],
  {
    stdio: "inherit",
    env: { CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1", ...process.env, DATABASE_URL: url },
  },
);
process.exit(r.status ?? 1);
