-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "env" TEXT NOT NULL,
    "configJson" TEXT NOT NULL,
    "sourceYaml" TEXT NOT NULL,
    "optimizerBackend" TEXT NOT NULL,
    "optimizerModel" TEXT NOT NULL,
    "targetBackend" TEXT NOT NULL,
    "targetModel" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "seedSkill" TEXT NOT NULL,
    "baselineScore" REAL,
    "currentScore" REAL,
    "bestScore" REAL,
    "bestStep" INTEGER,
    "bestSkillHash" TEXT,
    "testInitial" REAL,
    "testBest" REAL,
    "testFinal" REAL,
    "stepsDone" INTEGER NOT NULL DEFAULT 0,
    "stepsTotal" INTEGER NOT NULL DEFAULT 0,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "numEpochs" INTEGER NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" REAL,
    "errorMessage" TEXT,
    "stopReason" TEXT,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "lastEventSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "RunEvent" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("runId", "seq"),
    CONSTRAINT "RunEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Step" (
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "stepInEpoch" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "budget" INTEGER,
    "nFailurePatches" INTEGER NOT NULL DEFAULT 0,
    "nSuccessPatches" INTEGER NOT NULL DEFAULT 0,
    "nMerged" INTEGER NOT NULL DEFAULT 0,
    "nRanked" INTEGER NOT NULL DEFAULT 0,
    "nApplied" INTEGER NOT NULL DEFAULT 0,
    "nSkipped" INTEGER NOT NULL DEFAULT 0,
    "trainHard" REAL,
    "trainSoft" REAL,
    "selectionHard" REAL,
    "selectionSoft" REAL,
    "candidateScore" REAL,
    "currentScore" REAL,
    "bestScore" REAL,
    "candidateHash" TEXT,
    "recordJson" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("runId", "step"),
    CONSTRAINT "Step_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SkillVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "parentHash" TEXT,
    "selectionHard" REAL,
    "selectionSoft" REAL,
    "gateScore" REAL,
    "status" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SkillVersion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Edit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "ord" INTEGER NOT NULL,
    "stage" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "op" TEXT NOT NULL,
    "target" TEXT,
    "content" TEXT,
    "rationale" TEXT,
    "support" INTEGER,
    "mergeLevel" INTEGER,
    "applyStatus" TEXT,
    "gateStatus" TEXT,
    CONSTRAINT "Edit_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EvalResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "skillHash" TEXT NOT NULL,
    "split" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "hard" REAL NOT NULL,
    "soft" REAL NOT NULL,
    "status" TEXT NOT NULL,
    "prediction" TEXT,
    "reference" TEXT,
    "failReason" TEXT,
    "trajectory" TEXT,
    "latencyMs" INTEGER,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    CONSTRAINT "EvalResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("runId", "key"),
    CONSTRAINT "Checkpoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CheckpointRow" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "value" TEXT NOT NULL,

    PRIMARY KEY ("runId", "key", "ord"),
    CONSTRAINT "CheckpointRow_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UsageStat" (
    "runId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("runId", "stage"),
    CONSTRAINT "UsageStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_env_idx" ON "Run"("env");

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "SkillVersion_runId_contentHash_idx" ON "SkillVersion"("runId", "contentHash");

-- CreateIndex
CREATE UNIQUE INDEX "SkillVersion_runId_kind_step_key" ON "SkillVersion"("runId", "kind", "step");

-- CreateIndex
CREATE UNIQUE INDEX "Edit_runId_step_stage_ord_key" ON "Edit"("runId", "step", "stage", "ord");

-- CreateIndex
CREATE INDEX "EvalResult_runId_skillHash_split_idx" ON "EvalResult"("runId", "skillHash", "split");

-- CreateIndex
CREATE UNIQUE INDEX "EvalResult_runId_step_label_itemId_key" ON "EvalResult"("runId", "step", "label", "itemId");

