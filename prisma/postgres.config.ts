import { defineConfig } from "prisma/config";
import { PrismaPgForCli } from "../lib/db/prisma-cli-adapters";

// Every command with this config connects to DATABASE_URL (even `migrate diff --from-empty`).
const url = process.env.DATABASE_URL ?? "";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "postgres/schema.prisma",
  migrations: { path: "postgres/migrations" },
  adapter: async () => {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw new Error("DATABASE_URL must be postgresql://... for prisma/postgres.config.ts");
    return new PrismaPgForCli(url);
  },
});
