#!/usr/bin/env bash
# Builds the web player page in web/www/ (cargo profile `web`: opt-level z,
# fat LTO, one codegen unit; the sprite-only player: profile `web-sprite`,
# the same at opt-level 3):
#   pkg/             an npm-style package (web/package.sh): wasm-bindgen's
#                    --target web output (animkit_web.js, animkit_web_bg.wasm,
#                    TypeScript declarations animkit_web.d.ts) and package.json
#   examples/*.animb the repository's examples, compiled by animc
#   examples/index.json their names
# Then serve it: python3 -m http.server -d web/www 8000
#
# Options: --sprite-only builds the sprite-only player into pkg-sprite/
# instead (no renderer: `cargo build --no-default-features`);
# --playground builds the player with the compiler (feature `compiler`:
# `compile` and `format`) into pkg-playground/, copies the examples'
# sources into sources/ (with sources/index.json, for playground.html's
# menu) and prints the wasm's gzipped size; --no-opt skips wasm-opt;
# --simd (with --sprite-only) builds the sprite-only player with wasm
# SIMD128 (`-C target-feature=+simd128`, profile `web-sprite-simd`, its
# own target folder so the plain build stays cached) into
# pkg-sprite-simd/: an experiment for web_bench (issue 47 part 4, see
# BENCHMARKS.md), not what the page loads. Needs the
# wasm32-unknown-unknown target and a wasm-bindgen CLI of the version
# web/Cargo.toml pins.
set -euo pipefail
cd "$(dirname "$0")/.."

features=()
profile=web
out=web/www/pkg
package=(animkit-web "animkit bundles in a browser: the player on WebGL2 and SpriteBatch for games")
opt=1
playground=0
simd=0
for a in "$@"; do
  case "$a" in
    --sprite-only) features=(--no-default-features); profile=web-sprite; out=web/www/pkg-sprite
      package=(animkit-web-sprite "animkit sprite state machines in a browser: the sprite-only player, no renderer") ;;
    --playground) features=(--features compiler); out=web/www/pkg-playground; playground=1
      package=(animkit-web-playground "the animkit player and compiler in a browser: compile and format with animc's diagnostics") ;;
    --no-opt) opt=0 ;;
    --simd) simd=1 ;;
    *) echo "web/build.sh: unknown option $a" >&2; exit 2 ;;
  esac
done

simd_opt=()
if [ "$simd" = 1 ]; then
  if [ "$profile" != web-sprite ]; then
    echo "web/build.sh: --simd goes with --sprite-only" >&2
    exit 2
  fi
  profile=web-sprite-simd
  out=web/www/pkg-sprite-simd
  package=(animkit-web-sprite-simd "the sprite-only player built with wasm SIMD128 (an experiment, see BENCHMARKS.md)")
  # For the wasm target only (build scripts and proc macros stay native).
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
  simd_opt=(--enable-simd)
fi

pinned=$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' web/Cargo.toml)
wbg=${WASM_BINDGEN:-wasm-bindgen}
command -v "$wbg" >/dev/null || wbg="$HOME/.cargo/bin/wasm-bindgen"
have=$("$wbg" --version | awk '{print $2}')
if [ "$have" != "$pinned" ]; then
  echo "web/build.sh: wasm-bindgen CLI $have, but web/Cargo.toml pins $pinned: cargo install wasm-bindgen-cli --version $pinned" >&2
  exit 1
fi

# `cargo rustc --crate-type cdylib`, not `cargo build`: web/Cargo.toml
# declares the library both `cdylib` (for this page) and `rlib` (for the
# native tests), and Cargo silently drops the profile's `lto` for a
# library of several crate types (cargo#9672), so `cargo build` would
# link without LTO. Building the cdylib alone keeps it.
cargo rustc --profile "$profile" --target wasm32-unknown-unknown -p animkit-web --lib --crate-type cdylib "${features[@]}"
target=${CARGO_TARGET_DIR:-target}
wasm="$target/wasm32-unknown-unknown/$profile/animkit_web.wasm"
rm -rf "$out"
if [ "$opt" = 1 ] && command -v wasm-opt >/dev/null; then
  # wasm-opt runs on rustc's output, before wasm-bindgen: binaryen 108
  # (Debian's) breaks wasm-bindgen's externref table when run after it
  # ("WebAssembly.Table.set(): Argument 1 is invalid for table").
  mkdir -p "$target/web-opt"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue "${simd_opt[@]}" "$wasm" -o "$target/web-opt/animkit_web.wasm"
  wasm="$target/web-opt/animkit_web.wasm"
fi
"$wbg" --target web --out-dir "$out" "$wasm"
bash web/package.sh "$out" "${package[@]}"

# The examples, as bundles (the full player only).
if [ ${#features[@]} -eq 0 ]; then
  cargo build -q --bin animc
  mkdir -p web/www/examples
  rm -f web/www/examples/*.animb
  names=()
  for src in examples/*.anim examples/*.slap examples/*.draw; do
    [ -e "$src" ] || continue
    base=$(basename "$src")
    "$target/debug/animc" "$src" -o "web/www/examples/${base%.*}.animb"
    names+=("\"${base%.*}.animb\"")
  done
  (IFS=,; echo "[${names[*]}]") > web/www/examples/index.json
fi
ls -l "$out"/*.wasm
if [ "$playground" = 1 ]; then
  # The playground's examples menu: the sources themselves, and a list.
  mkdir -p web/www/sources
  rm -f web/www/sources/*
  names=()
  for src in examples/*.anim examples/*.slap examples/*.draw; do
    [ -e "$src" ] || continue
    cp "$src" web/www/sources/
    names+=("\"$(basename "$src")\"")
  done
  (IFS=,; echo "[${names[*]}]") > web/www/sources/index.json
  echo "gzipped: $(gzip -9 -c "$out"/animkit_web_bg.wasm | wc -c) bytes"
fi
