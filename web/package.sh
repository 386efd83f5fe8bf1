#!/usr/bin/env bash
# Makes the wasm-bindgen output in DIR an npm-style package (called by
# web/build.sh): writes DIR/package.json (NAME, the workspace's version and
# licence, `module`/`types`/`exports`/`files` for the ES module, its wasm
# and its TypeScript declarations) and prints the package's sizes (each
# file and the whole, raw and `gzip -9`).
#
#   web/package.sh DIR NAME DESCRIPTION
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
name=$2
description=$3

for f in animkit_web.js animkit_web_bg.wasm animkit_web.d.ts; do
  if [ ! -e "$dir/$f" ]; then
    echo "web/package.sh: $dir/$f is missing (wasm-bindgen writes it; the .d.ts unless --no-typescript)" >&2
    exit 1
  fi
done
# [workspace.package] in the root Cargo.toml: web/Cargo.toml inherits both.
field() { sed -n "/^\[workspace.package\]/,/^\[/ s/^$1 = \"\(.*\)\"/\1/p" Cargo.toml; }
version=$(field version)
license=$(field license)
[ -n "$version" ] || { echo "web/package.sh: no version in Cargo.toml's [workspace.package]" >&2; exit 1; }

files=()
for f in $(cd "$dir" && ls | sort); do
  [ "$f" = package.json ] || files+=("\"$f\"")
done
{
  echo "{"
  echo "  \"name\": \"$name\","
  echo "  \"version\": \"$version\","
  echo "  \"description\": \"$description\","
  echo "  \"license\": \"$license\","
  echo "  \"type\": \"module\","
  echo "  \"module\": \"animkit_web.js\","
  echo "  \"types\": \"animkit_web.d.ts\","
  echo "  \"exports\": { \".\": { \"types\": \"./animkit_web.d.ts\", \"default\": \"./animkit_web.js\" } },"
  echo "  \"files\": [$(IFS=,; echo "${files[*]}" | sed 's/,/, /g')],"
  echo "  \"sideEffects\": false"
  echo "}"
} > "$dir/package.json"

total=0
gz_total=0
for f in "$dir"/*; do
  [ -f "$f" ] || continue
  raw=$(wc -c < "$f")
  gz=$(gzip -9 -c "$f" | wc -c)
  total=$((total + raw))
  gz_total=$((gz_total + gz))
  printf '%8d B  %8d B gzipped  %s\n' "$raw" "$gz" "$f"
done
printf '%8d B  %8d B gzipped  %s (the package: %s %s)\n' "$total" "$gz_total" "$dir" "$name" "$version"
