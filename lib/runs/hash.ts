/** The engine's skill hash, for server code that must not import the engine runtime. */
export { skillHash } from "../engine/scoring";
