-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "bestBytes" INTEGER,
ADD COLUMN     "bestMeasuredBy" TEXT,
ADD COLUMN     "bestOrigin" TEXT,
ADD COLUMN     "outDir" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'dashboard';
