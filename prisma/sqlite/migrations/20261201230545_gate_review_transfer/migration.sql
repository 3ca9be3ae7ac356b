-- CreateTable
CREATE TABLE "GateReview" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "mode" TEXT NOT NULL,
    "requestJson" TEXT NOT NULL,
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deadlineAt" DATETIME,
    "decision" TEXT,
    "note" TEXT,
    "author" TEXT,
    "editedSkill" TEXT,
    "decidedAt" DATETIME,
    CONSTRAINT "GateReview_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TransferCell" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "skill" TEXT NOT NULL,
    "skillHash" TEXT NOT NULL,
    "targetBackend" TEXT NOT NULL,
    "targetModel" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "hard" REAL,
    "soft" REAL,
    "nItems" INTEGER,
    "nUnanswered" INTEGER,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL,
    "errorMessage" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "TransferCell_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "GateReview_decision_deadlineAt_idx" ON "GateReview"("decision", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "GateReview_runId_step_key" ON "GateReview"("runId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "TransferCell_runId_skill_targetBackend_targetModel_key" ON "TransferCell"("runId", "skill", "targetBackend", "targetModel");
