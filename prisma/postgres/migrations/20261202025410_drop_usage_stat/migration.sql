-- DropForeignKey
ALTER TABLE "UsageStat" DROP CONSTRAINT "UsageStat_runId_fkey";

-- DropTable
DROP TABLE "UsageStat";
