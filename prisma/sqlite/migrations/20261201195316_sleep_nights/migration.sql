-- CreateTable
CREATE TABLE "SleepProject" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "directory" TEXT NOT NULL,
    "transcriptSource" TEXT NOT NULL DEFAULT 'claude',
    "transcriptHome" TEXT NOT NULL DEFAULT '',
    "targetSkillPath" TEXT NOT NULL DEFAULT '',
    "tasksFile" TEXT NOT NULL DEFAULT '',
    "backend" TEXT NOT NULL DEFAULT 'mock',
    "model" TEXT NOT NULL DEFAULT '',
    "lookbackHours" INTEGER NOT NULL DEFAULT 72,
    "cronPattern" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "SleepNight" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT,
    "projectDir" TEXT NOT NULL,
    "night" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "dryRun" BOOLEAN NOT NULL DEFAULT false,
    "backend" TEXT NOT NULL DEFAULT '',
    "nSessions" INTEGER NOT NULL DEFAULT 0,
    "nTasks" INTEGER NOT NULL DEFAULT 0,
    "nTrain" INTEGER NOT NULL DEFAULT 0,
    "nVal" INTEGER NOT NULL DEFAULT 0,
    "nTest" INTEGER NOT NULL DEFAULT 0,
    "baselineScore" REAL,
    "candidateScore" REAL,
    "accepted" BOOLEAN NOT NULL DEFAULT false,
    "gateAction" TEXT NOT NULL DEFAULT '',
    "editsAccepted" INTEGER NOT NULL DEFAULT 0,
    "editsRejected" INTEGER NOT NULL DEFAULT 0,
    "editsUnmatched" INTEGER NOT NULL DEFAULT 0,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "stagingDir" TEXT NOT NULL DEFAULT '',
    "evidencePath" TEXT NOT NULL DEFAULT '',
    "liveSkillPath" TEXT NOT NULL DEFAULT '',
    "reportJson" TEXT NOT NULL DEFAULT '{}',
    "error" TEXT NOT NULL DEFAULT '',
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "adoptedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "SleepNight_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "SleepProject" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SleepGateRow" (
    "nightId" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "trial" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "baselineScore" REAL,
    "candidateScore" REAL,
    "status" TEXT NOT NULL,

    PRIMARY KEY ("nightId", "ord"),
    CONSTRAINT "SleepGateRow_nightId_fkey" FOREIGN KEY ("nightId") REFERENCES "SleepNight" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SleepProject_directory_key" ON "SleepProject"("directory");

-- CreateIndex
CREATE INDEX "SleepNight_projectId_createdAt_idx" ON "SleepNight"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "SleepNight_createdAt_idx" ON "SleepNight"("createdAt");
