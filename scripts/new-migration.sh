#!/usr/bin/env bash
# Create a new migration for BOTH providers from prisma/schema.template.prisma.
# usage: PG_URL=postgresql://user:pw@127.0.0.1:5432/anydb scripts/new-migration.sh add_note
# (Postgres needs a server where the user may CREATE DATABASE: a throwaway shadow DB is made there.)
# Do NOT use `prisma migrate dev` (broken with the JS schema engine in 6.19.3: P1014 / "null pointer passed to rust").
set -euo pipefail
name=${1:?usage: scripts/new-migration.sh NAME}
: "${PG_URL:?set PG_URL (a PostgreSQL server for the shadow database)}"
node scripts/gen-schemas.mjs
ts=$(date -u +%Y%m%d%H%M%S)
for p in sqlite postgres; do
  if [ "$p" = sqlite ]; then url="file:./.skillopt/.migrate-scratch.db"; else url="$PG_URL"; fi
  sql=$(DATABASE_URL="$url" CHECKPOINT_DISABLE=1 node node_modules/prisma/build/index.js migrate diff \
        --config "prisma/$p.config.ts" --from-migrations "prisma/$p/migrations" \
        --to-schema-datamodel "prisma/$p/schema.prisma" --script 2>/dev/null)
  if grep -q "This is an empty migration" <<<"$sql"; then echo "$p: no schema changes"; continue; fi
  dir="prisma/$p/migrations/${ts}_${name}"
  mkdir -p "$dir"
  printf '%s\n' "$sql" > "$dir/migration.sql"
  echo "$p: wrote $dir/migration.sql"
done
rm -f .skillopt/.migrate-scratch.db
