#!/usr/bin/env bash
# Counts the copied blocks of code in the project: the working tree as git tracks it (plus new files
# git does not ignore), without tests/, bench/ and migrations, searched by the `duplicates` command
# for runs of 10 or more shared lines. The first line of its answer is the count of pairs
# (issue 19: 31 at f72bfd7; 19 after the engine contract, branch contract).
# Usage: bash scripts/clones.sh [extra duplicates options, e.g. --most 40]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "scripts/clones.sh needs the duplicates command" >&2; exit 1; }
out="$(mktemp -d "${TMPDIR:-/tmp}/clones.XXXXXX")"
trap 'rm -rf "$out"' EXIT
# Tracked and untracked-but-not-ignored files as they are in the working tree (deleted ones skipped).
git ls-files -z --cached --others --exclude-standard \
  | grep -zv -E '^(tests|bench)/|(^|/)migrations/' \
  | while IFS= read -r -d '' path; do [ -f "$path" ] && printf '%s\0' "$path"; done \
  | xargs -0 cp --parents -t "$out"
duplicates --repo "$out" --min-lines 10 --most 200 --seconds 120 "$@"
