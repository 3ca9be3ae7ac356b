#!/usr/bin/env python3
"""Bridge between SkillOpt (TypeScript) and one real ALFWorld game.

Usage: alfworld_bridge.py --gamefile PATH  (a game.tw-pddl file or the trial folder holding one)

Reads one JSON request per line on stdin and writes one JSON answer per line on stdout:
  {"op": "reset"}                    -> {"observation", "admissible", "won", "done"}
  {"op": "step", "action": "..."}    -> {"observation", "admissible", "won", "done"}
  {"op": "close"}                    -> {"closed": true}, then exit
Any problem is answered as {"error": "..."}; nothing else is written to stdout.
Needs the `alfworld` package (with TextWorld) and the game files from `alfworld-download`.
"""
import argparse
import json
import os
import sys


def send(payload):
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def game_path(raw):
    path = os.path.expandvars(os.path.expanduser(raw))
    if os.path.isdir(path):
        path = os.path.join(path, "game.tw-pddl")
    return path


def make_env(gamefile):
    import textworld
    import textworld.gym
    from alfworld.agents.environment.alfred_tw_env import AlfredDemangler, AlfredInfos

    infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=["gamefile"])
    env_id = textworld.gym.register_game(
        gamefile, infos, max_episode_steps=100000, wrappers=[AlfredDemangler(), AlfredInfos]
    )
    return textworld.gym.make(env_id)


def first(value):
    # Some TextWorld versions batch infos even for one game.
    if isinstance(value, (list, tuple)) and len(value) == 1 and not isinstance(value[0], str):
        return value[0]
    return value


def state(observation, infos, done):
    admissible = first(infos.get("admissible_commands")) or []
    won = bool(first(infos.get("won")))
    return {
        "observation": first(observation) if not isinstance(observation, str) else observation,
        "admissible": [a for a in admissible if a != "help"],
        "won": won,
        "done": bool(first(done)) or won,
    }


def serve(env):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            send({"error": "request is not JSON"})
            continue
        op = request.get("op")
        try:
            if op == "reset":
                observation, infos = env.reset()
                send(state(observation, infos, False))
            elif op == "step":
                out = env.step(str(request.get("action", "")))
                observation, infos, done = out[0], out[-1], out[2]
                if len(out) == 5:  # gymnasium style: obs, reward, terminated, truncated, infos
                    done = out[2] or out[3]
                send(state(observation, infos, done))
            elif op == "close":
                env.close()
                send({"closed": True})
                return
            else:
                send({"error": "unknown op %r" % (op,)})
        except Exception as err:  # noqa: BLE001 - every failure must reach the caller as data
            send({"error": "%s: %s" % (type(err).__name__, err)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gamefile", required=True)
    args = parser.parse_args()
    gamefile = game_path(args.gamefile)
    try:
        import alfworld  # noqa: F401
        import textworld  # noqa: F401
    except ImportError as err:
        send({"error": "the alfworld package is not installed (%s); install it with "
                       "'pip install alfworld' and fetch the games with 'alfworld-download'" % err})
        return 2
    if not os.path.isfile(gamefile):
        send({"error": "game file not found: %s (is ALFWORLD_DATA right?)" % gamefile})
        return 2
    try:
        env = make_env(gamefile)
    except Exception as err:  # noqa: BLE001
        send({"error": "cannot load the game %s: %s: %s" % (gamefile, type(err).__name__, err)})
        return 2
    serve(env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
