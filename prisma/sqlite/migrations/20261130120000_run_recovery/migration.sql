-- AlterTable
ALTER TABLE "Run" ADD COLUMN "autoRestarts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "jobGen" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "requestKey" TEXT;
ALTER TABLE "Run" ADD COLUMN "requestHash" TEXT;

-- AlterTable
ALTER TABLE "RunEvent" ADD COLUMN "superseded" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "Run_requestKey_key" ON "Run"("requestKey");
