#!/usr/bin/env bash
# Playwright drives Debian's Chromium (/usr/bin/chromium); nothing is downloaded by Playwright.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ]; then
  echo "Chromium is missing: installing Debian's chromium with apt-get" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  echo "Chromium is missing: installing Debian's chromium with sudo apt-get" >&2
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing and this user cannot install it. Run as root:" >&2
  echo "  apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
[ -x /usr/bin/chromium ] || { echo "apt-get ran but /usr/bin/chromium is still missing" >&2; exit 1; }
