#!/bin/sh
# Runs `skillopt sleep <args>` from a SkillOpt checkout: $SKILLOPT_SLEEP_REPO, else the checkout this
# plugin folder lives in (plugins/claude-code inside the repository).
here=$(cd "$(dirname "$0")" && pwd)
repo="${SKILLOPT_SLEEP_REPO:-$(cd "$here/../../.." && pwd)}"
if [ ! -f "$repo/scripts/cli.ts" ] || [ ! -f "$repo/node_modules/tsx/dist/loader.mjs" ]; then
  echo "skillopt-sleep: no SkillOpt checkout with installed dependencies at '$repo'." >&2
  echo "Set SKILLOPT_SLEEP_REPO to the folder where you cloned SkillOpt and ran npm install." >&2
  exit 2
fi
exec node --import "$repo/node_modules/tsx/dist/loader.mjs" "$repo/scripts/cli.ts" sleep "$@"
