-- CreateTable
CREATE TABLE "FanOutResult" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FanOutResult_pkey" PRIMARY KEY ("runId","key","itemId")
);

-- AddForeignKey
ALTER TABLE "FanOutResult" ADD CONSTRAINT "FanOutResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
