#!/usr/bin/env bash
# A fresh clone installs and runs with the pnpm a newcomer is likely to have: the pinned 10.x and the
# current 12.x (pnpm 11 needs Node 22 and cannot run on Node 20 at all). Each version is installed
# into its own prefix, so the machine's global pnpm is left alone. The clone's path has spaces and
# non-ASCII letters, and the demo runs twice (its workspace and audit log already exist the second time).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-pnpm-XXXXXX")
trap 'rm -rf "$work"' EXIT
for version in 10.34.8 12.23.0; do
  printf '\n== pnpm %s on a fresh clone\n' "$version"
  npm install --prefix "$work/pnpm-$version" --no-audit --no-fund "pnpm@$version" >/dev/null
  pnpm="$work/pnpm-$version/node_modules/.bin/pnpm"
  clone="$work/a clone ü $version"
  git clone --quiet "$repo" "$clone"
  (cd "$clone" && "$pnpm" install --frozen-lockfile 2>&1 | tee "$work/install-$version.log" | tail -n 2)
  if grep -qi "ignored build scripts" "$work/install-$version.log"; then
    echo "pnpm $version warned about build scripts" >&2
    exit 1
  fi
  (cd "$clone" && "$pnpm" -s gatehouse --version && GATEHOUSE_HOME="$work/home-$version" "$pnpm" demo >/dev/null)
  (cd "$clone" && GATEHOUSE_HOME="$work/home-$version" "$pnpm" demo >/dev/null) || { echo "pnpm demo failed the second time" >&2; exit 1; }
  echo "pnpm $version: install, gatehouse --version and pnpm demo (twice) ok"
done
