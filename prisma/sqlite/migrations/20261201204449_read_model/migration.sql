-- AlterTable
ALTER TABLE "Run" ADD COLUMN "bestOrigin" TEXT;
ALTER TABLE "Run" ADD COLUMN "bestMeasuredBy" TEXT;
ALTER TABLE "Run" ADD COLUMN "bestBytes" INTEGER;
ALTER TABLE "Run" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'dashboard';
ALTER TABLE "Run" ADD COLUMN "outDir" TEXT;

-- CreateTable
CREATE TABLE "RunArtifact" (
    "runId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("runId", "name"),
    CONSTRAINT "RunArtifact_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Backfill: runs stored before export rows existed keep their downloads (copied once from their last saved state).
INSERT INTO "RunArtifact" ("runId", "name", "content", "contentHash", "updatedAt")
SELECT c."runId", c."key", c."value", CASE WHEN c."key" = 'best_skill.md' THEN COALESCE(r."bestSkillHash", '') ELSE '' END, CURRENT_TIMESTAMP
FROM "Checkpoint" c JOIN "Run" r ON r."id" = c."runId"
WHERE c."key" IN ('best_skill.md', 'summary.json');
