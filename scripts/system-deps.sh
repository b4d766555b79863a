#!/usr/bin/env bash
# Debian packages Dossier needs: Pango + harfbuzz-subset for WeasyPrint, poppler for looking at PDFs,
# and (with --browser) Debian's Chromium for the browser tests. Installs what is missing when root.
set -euo pipefail
want=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core)
[[ "${1:-}" == "--browser" ]] && want+=(chromium)
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
if [[ $(id -u) -eq 0 ]]; then
  echo "Installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Missing Debian packages: ${missing[*]} (install them with: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
