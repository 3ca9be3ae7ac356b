-- CreateIndex
CREATE INDEX "EvalResult_runId_label_step_status_hard_itemId_skillHash_idx" ON "EvalResult"("runId", "label", "step", "status", "hard", "itemId", "skillHash");
