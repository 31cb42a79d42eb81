#!/bin/bash
# Builds the conformance adapters of docs/conformance.md from the peers' public sources,
# outside this repository. Nothing of a peer is ever copied into the repository.
#
#   tests/engines/peers/build.sh quuxplusone SOURCE OUT   SOURCE: a checkout of Quuxplusone/Hanabi
#   tests/engines/peers/build.sh hanabi-rs   SOURCE OUT   SOURCE: a checkout of WuTheFWasThat/hanabi.rs
#
# writes OUT/quuxplusone-engine or OUT/hanabi-rs-engine. Needs Debian's g++ and
# nlohmann-json3-dev (Quuxplusone), or Debian's cargo, rustc and librust-fnv-dev,
# librust-log-dev, librust-serde-json-dev (hanabi.rs; offline, from Debian's crate registry
# under /usr/share/cargo/registry). The suite's tests/test_conformance_peers.py finds the
# adapters in $HANABI_REF_PEERS (OUT) and skips when they are not there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 3 ]] || { echo "usage: build.sh quuxplusone|hanabi-rs SOURCE OUT" >&2; exit 2; }
peer=$1 source=$(cd "$2" && pwd) out=$3
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $peer in
quuxplusone)
  [[ -f $source/HanabiServer.cc && -f $source/Hanabi.h ]] || { echo "build.sh: $source has no HanabiServer.cc" >&2; exit 1; }
  # The server as its Makefile builds it by default (its checks on, -Wno-sign-compare), and
  # libstdc++'s bounds checks so that an access past a vector's end stops the process.
  g++ -std=c++14 -O2 -D_GLIBCXX_ASSERTIONS -Wno-sign-compare -I"$source" \
    -o "$out/quuxplusone-engine" "$here/quuxplusone/engine.cc" "$source/HanabiServer.cc"
  ;;
hanabi-rs)
  [[ -f $source/src/game.rs ]] || { echo "build.sh: $source has no src/game.rs" >&2; exit 1; }
  work=$out/hanabi-rs-build
  mkdir -p "$work/src" "$work/.cargo"
  cp "$here/hanabi_rs/Cargo.toml" "$work/Cargo.toml"
  cp "$here/hanabi_rs/main.rs" "$work/src/main.rs"
  cp "$source/src/game.rs" "$work/src/game.rs"  # the peer's engine, unchanged, in the build folder only
  cat >"$work/.cargo/config.toml" <<'EOF'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
EOF
  # Debian's toolchain when installed (a rustup toolchain earlier on PATH works as well)
  cargo=cargo rustc=rustc
  [[ -x /usr/bin/cargo && -x /usr/bin/rustc ]] && cargo=/usr/bin/cargo rustc=/usr/bin/rustc
  (cd "$work" && RUSTC=$rustc "$cargo" build --release --offline --quiet)
  cp "$work/target/release/hanabi-rs-engine" "$out/hanabi-rs-engine"
  ;;
*)
  echo "build.sh: unknown peer $peer (quuxplusone, hanabi-rs)" >&2
  exit 2
  ;;
esac
