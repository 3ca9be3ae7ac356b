-- CreateTable
CREATE TABLE "GateReview" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "mode" TEXT NOT NULL,
    "requestJson" TEXT NOT NULL,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" TIMESTAMP(3),
    "decision" TEXT,
    "note" TEXT,
    "author" TEXT,
    "editedSkill" TEXT,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "GateReview_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TransferCell" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "skill" TEXT NOT NULL,
    "skillHash" TEXT NOT NULL,
    "targetBackend" TEXT NOT NULL,
    "targetModel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "hard" DOUBLE PRECISION,
    "soft" DOUBLE PRECISION,
    "nItems" INTEGER,
    "nUnanswered" INTEGER,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "TransferCell_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GateReview_decision_deadlineAt_idx" ON "GateReview"("decision", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "GateReview_runId_step_key" ON "GateReview"("runId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "TransferCell_runId_skill_targetBackend_targetModel_key" ON "TransferCell"("runId", "skill", "targetBackend", "targetModel");

-- AddForeignKey
ALTER TABLE "GateReview" ADD CONSTRAINT "GateReview_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TransferCell" ADD CONSTRAINT "TransferCell_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
