/**
 * The first line of the LLM-judge system prompt (custom datasets, metric "judge"). Shared so the
 * simulated optimizer can recognise a grading request, as it recognises the engine's prompts.
 */
export const JUDGE_SIGNATURE = "You grade one answer to a question for an evaluation harness.";
