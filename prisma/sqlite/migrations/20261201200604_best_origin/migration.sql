-- AlterTable
ALTER TABLE "Run" ADD COLUMN "bestBytes" INTEGER;
ALTER TABLE "Run" ADD COLUMN "bestMeasuredBy" TEXT;
ALTER TABLE "Run" ADD COLUMN "bestOrigin" TEXT;
