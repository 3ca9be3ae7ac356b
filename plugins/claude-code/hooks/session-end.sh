#!/bin/sh
# SkillOpt-Sleep SessionEnd hook. It runs asynchronously after a Claude Code session ends and does one
# thing only: append "<UTC time><TAB><working folder>" to ~/.skillopt-sleep/session-end.log, so the next
# night knows there is something new to read. It never runs a model, never reads the transcript and
# never fails the session.
dir="${HOME:-}/.skillopt-sleep"
[ -n "${HOME:-}" ] || exit 0
mkdir -p "$dir" 2>/dev/null || exit 0
# A folder name with a tab or a line break must not split the record.
where=$(printf '%s' "${PWD:-}" | tr '\t\r\n' '   ')
printf '%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$where" >> "$dir/session-end.log" 2>/dev/null
exit 0
