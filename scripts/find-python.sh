#!/usr/bin/env bash
# Print the path of the Python that Dossier's venv is made with: the distribution's own python3
# (/usr/bin/python3) when it is a supported version (pyproject's requires-python: 3.11 to 3.13) and
# can make a venv, otherwise the newest supported one found; or of the one version asked for:
# `find-python.sh 3.13`. For each version the distribution's build (/usr/bin/python3.X) comes first,
# then PATH (python3.X, python3) and pyenv's versions folder; each candidate is checked to really
# run (a pyenv shim for a version that is not selected only prints an error).
#
# Why the distribution's first: it is what a server's `make install` finds, and it is built with
# profile-guided and link-time optimisation, where pyenv builds neither and links libpython as a
# shared library: on the 2-core machine the suite took ~20 % less CPU on Debian's 3.11 than on
# pyenv's 3.11 or 3.13 (docs/testing.md).
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

# The default: the distribution's python3 if it is supported and has venv.
if [[ $# -eq 0 ]]; then
  system_version="$(version_of /usr/bin/python3 || true)"
  if [[ -n "$system_version" ]] && /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null; then
    for version in "${SUPPORTED[@]}"; do
      [[ "$system_version" == "$version" ]] && { echo /usr/bin/python3; exit 0; }
    done
  fi
fi

for version in "${wanted[@]}"; do
  candidates=("/usr/bin/python$version" "python$version" python3)
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
