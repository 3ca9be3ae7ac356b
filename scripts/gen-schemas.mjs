// Writes one Prisma schema per provider from prisma/schema.template.prisma.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

const template = readFileSync("prisma/schema.template.prisma", "utf8");
const targets = [
  {
    dir: "prisma/sqlite",
    provider: "sqlite",
    output: "../../generated/prisma-sqlite",
    url: "file:./unused-see-prisma-config.db",
  },
  {
    dir: "prisma/postgres",
    provider: "postgresql",
    output: "../../generated/prisma-pg",
    url: "postgresql://unused-see-prisma-config@localhost/unused",
  },
];
for (const t of targets) {
  mkdirSync(t.dir, { recursive: true });
  const out =
    "// GENERATED from prisma/schema.template.prisma by scripts/gen-schemas.mjs - do not edit\n" +
    template.replaceAll("__PROVIDER__", t.provider).replaceAll("__OUTPUT__", t.output).replaceAll("__URL__", t.url);
  writeFileSync(`${t.dir}/schema.prisma`, out);
}
