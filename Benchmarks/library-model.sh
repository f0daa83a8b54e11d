#!/usr/bin/env bash
# Builds a 1,000,000-asset library through the store (videos, screenshots, Live Photos, panoramas, bursts, RAW
# pairs, favorites, hidden and trashed assets), then times a predicate fetch and the smart albums' counts over the
# socket of a real photolibd beside the sqlite3 command line on the same file, and prints the daemon's resident
# memory. Usage: Benchmarks/library-model.sh [ASSETS] [ROUNDS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd library-model-benchmark
make_work_folder bench
.build/release/library-model-benchmark .build/release/photolibd "$work" "${1:-1000000}" "${2:-200}"
