#!/usr/bin/env bash
# Print the path of the newest Python that Dossier supports (pyproject's requires-python:
# 3.11 to 3.13), or of the one version asked for: `find-python.sh 3.13`. Looks on PATH
# (python3.13, python3.12, python3.11, python3) and in pyenv's versions folder, and checks that the
# candidate really runs (a pyenv shim for a version that is not selected only prints an error).
set -euo pipefail
SUPPORTED=(3.13 3.12 3.11)
wanted=("${@:-${SUPPORTED[@]}}")
pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"

version_of() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null; }

# --system: the distribution's own python3 (/usr/bin/python3) if it is a supported version. `make
# bench` measures on it: it is what a server's `make install` finds, and its optimised build renders
# a sheet ~10 % faster than a pyenv build of the same version (docs/performance.md).
if [[ "${1:-}" == "--system" ]]; then
  system_version="$(version_of /usr/bin/python3 || true)"
  # Debian splits venv's pip bootstrap into python3-venv: without it no venv can be made.
  /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || system_version=""
  for version in "${SUPPORTED[@]}"; do
    if [[ "$system_version" == "$version" ]]; then
      echo /usr/bin/python3
      exit 0
    fi
  done
  echo "No supported system Python at /usr/bin/python3" >&2
  exit 1
fi

for version in "${wanted[@]}"; do
  candidates=("python$version" python3)
  for dir in "$pyenv_root"/versions/"$version".*/bin; do
    [[ -x "$dir/python$version" ]] && candidates+=("$dir/python$version")
  done
  for candidate in "${candidates[@]}"; do
    path=$(command -v "$candidate" 2>/dev/null) || continue
    if [[ "$(version_of "$path")" == "$version" ]]; then
      echo "$path"
      exit 0
    fi
  done
done
echo "No supported Python (${wanted[*]}) found; install one or set PYTHON=/path/to/python3.x" >&2
exit 1
