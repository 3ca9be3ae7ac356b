-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "note" TEXT;

-- CreateTable
CREATE TABLE "RunTag" (
    "runId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "RunTag_pkey" PRIMARY KEY ("runId","tag")
);

-- CreateIndex
CREATE INDEX "RunTag_tag_idx" ON "RunTag"("tag");

-- AddForeignKey
ALTER TABLE "RunTag" ADD CONSTRAINT "RunTag_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
