-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "bestBytes" INTEGER,
ADD COLUMN     "bestMeasuredBy" TEXT,
ADD COLUMN     "bestOrigin" TEXT;
