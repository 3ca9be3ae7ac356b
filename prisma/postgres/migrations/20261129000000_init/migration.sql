-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
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
    "baselineScore" DOUBLE PRECISION,
    "currentScore" DOUBLE PRECISION,
    "bestScore" DOUBLE PRECISION,
    "bestStep" INTEGER,
    "bestSkillHash" TEXT,
    "testInitial" DOUBLE PRECISION,
    "testBest" DOUBLE PRECISION,
    "testFinal" DOUBLE PRECISION,
    "stepsDone" INTEGER NOT NULL DEFAULT 0,
    "stepsTotal" INTEGER NOT NULL DEFAULT 0,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "numEpochs" INTEGER NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "errorMessage" TEXT,
    "stopReason" TEXT,
    "workerId" TEXT,
    "heartbeatAt" TIMESTAMP(3),
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "lastEventSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunEvent" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunEvent_pkey" PRIMARY KEY ("runId","seq")
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
    "trainHard" DOUBLE PRECISION,
    "trainSoft" DOUBLE PRECISION,
    "selectionHard" DOUBLE PRECISION,
    "selectionSoft" DOUBLE PRECISION,
    "candidateScore" DOUBLE PRECISION,
    "currentScore" DOUBLE PRECISION,
    "bestScore" DOUBLE PRECISION,
    "candidateHash" TEXT,
    "recordJson" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Step_pkey" PRIMARY KEY ("runId","step")
);

-- CreateTable
CREATE TABLE "SkillVersion" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "parentHash" TEXT,
    "selectionHard" DOUBLE PRECISION,
    "selectionSoft" DOUBLE PRECISION,
    "gateScore" DOUBLE PRECISION,
    "status" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SkillVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Edit" (
    "id" TEXT NOT NULL,
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

    CONSTRAINT "Edit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalResult" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "skillHash" TEXT NOT NULL,
    "split" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "hard" DOUBLE PRECISION NOT NULL,
    "soft" DOUBLE PRECISION NOT NULL,
    "status" TEXT NOT NULL,
    "prediction" TEXT,
    "reference" TEXT,
    "failReason" TEXT,
    "trajectory" TEXT,
    "latencyMs" INTEGER,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,

    CONSTRAINT "EvalResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("runId","key")
);

-- CreateTable
CREATE TABLE "CheckpointRow" (
    "runId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "CheckpointRow_pkey" PRIMARY KEY ("runId","key","ord")
);

-- CreateTable
CREATE TABLE "UsageStat" (
    "runId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UsageStat_pkey" PRIMARY KEY ("runId","stage")
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

-- AddForeignKey
ALTER TABLE "RunEvent" ADD CONSTRAINT "RunEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Step" ADD CONSTRAINT "Step_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SkillVersion" ADD CONSTRAINT "SkillVersion_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Edit" ADD CONSTRAINT "Edit_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalResult" ADD CONSTRAINT "EvalResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Checkpoint" ADD CONSTRAINT "Checkpoint_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckpointRow" ADD CONSTRAINT "CheckpointRow_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageStat" ADD CONSTRAINT "UsageStat_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

