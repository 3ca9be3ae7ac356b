-- The runs table's default order (newest first: COALESCE(startedAt, createdAt) DESC, then createdAt, id),
-- read from an index: a first page over 10,000 runs walks 50 entries instead of sorting every row.
-- An expression index Prisma's schema cannot state (see the note at model Run in schema.template.prisma).
CREATE INDEX "Run_started_sort_idx" ON "Run" (COALESCE("startedAt", "createdAt") DESC, "createdAt" DESC, "id" DESC);
