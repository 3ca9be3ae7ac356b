/** System prompts of both kinds for the latency tests (imported by tests only). */
import { analystPrompt, targetPrompt } from "./testing";

export const targetSystem = targetPrompt(true).system;
export const analystPromptSystem = analystPrompt().system;
