-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "autoRestarts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "jobGen" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "requestHash" TEXT,
ADD COLUMN     "requestKey" TEXT;

-- AlterTable
ALTER TABLE "RunEvent" ADD COLUMN     "superseded" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "Run_requestKey_key" ON "Run"("requestKey");
