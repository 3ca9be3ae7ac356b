import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3ForCli } from "../lib/db/prisma-cli-adapters";

// DATABASE_URL like file:./.skillopt/skillopt.db, relative to the directory prisma runs from.
const url = process.env.DATABASE_URL?.startsWith("file:") ? process.env.DATABASE_URL : "file:./.skillopt/skillopt.db";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "sqlite/schema.prisma",
  migrations: { path: "sqlite/migrations" },
  adapter: async () => {
    mkdirSync(dirname(url.slice("file:".length)), { recursive: true }); // better-sqlite3 creates no folders
    // A running worker may hold the write lock for a moment: wait for it rather than fail the migration.
    return new PrismaBetterSQLite3ForCli({ url, timeout: 30_000 });
  },
});
