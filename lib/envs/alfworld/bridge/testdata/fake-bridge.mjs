// A stand-in for alfworld_bridge.py in tests: the same JSON-lines protocol on a two-step game
// ("go to shelf 1", then "take key 1 from shelf 1" wins). ALFWORLD_FAKE_MODE selects a failure:
// missing (answers an error, as without the alfworld package), crash (exits on the first step),
// silent (never answers), garbage (writes a non-JSON line).
import { createInterface } from "node:readline";
import { existsSync } from "node:fs";

const mode = process.env.ALFWORLD_FAKE_MODE ?? "ok";
const gamefile = process.argv[process.argv.indexOf("--gamefile") + 1] ?? "";
const send = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

if (mode === "missing") {
  send({ error: "the alfworld package is not installed (No module named 'alfworld')" });
  process.exit(2);
}
if (!existsSync(gamefile)) {
  send({ error: `game file not found: ${gamefile}` });
  process.exit(2);
}
let at = null;
let won = false;
const state = (observation) => {
  const admissible = [
    "look",
    "inventory",
    ...(at === "shelf 1" ? ["take key 1 from shelf 1"] : ["go to shelf 1"]),
    "help",
  ];
  return { observation, admissible, won, done: won };
};
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  if (mode === "silent") return;
  if (mode === "garbage") return void process.stdout.write("Traceback (most recent call last): boom\n");
  if (req.op === "reset") {
    at = null;
    return send(state("-= Welcome =-\nYou are in a tiny room. You see a shelf 1.\n\nYour task is to: find the key."));
  }
  if (req.op === "step") {
    if (mode === "crash") {
      process.stderr.write("Segmentation fault in the planner\n");
      process.exit(3);
    }
    if (req.action === "go to shelf 1" && at === null) {
      at = "shelf 1";
      return send(state("You arrive at shelf 1. On the shelf 1, you see a key 1."));
    }
    if (req.action === "take key 1 from shelf 1" && at === "shelf 1") {
      won = true;
      return send(state("You pick up the key 1 from the shelf 1."));
    }
    return send(state("Nothing happens."));
  }
  if (req.op === "close") {
    send({ closed: true });
    process.exit(0);
  }
  send({ error: `unknown op ${req.op}` });
});
