#!/usr/bin/env bash
# Builds a 1,000,000-asset library through the store (videos, screenshots, Live Photos, panoramas, bursts, RAW
# pairs, favorites, hidden and trashed assets), then times a predicate fetch and the smart albums' counts over the
# socket of a real photolibd beside the sqlite3 command line on the same file, and prints the daemon's resident
# memory. Usage: Benchmarks/library-model.sh [ASSETS] [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product library-model-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-bench.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
.build/release/library-model-benchmark .build/release/photolibd "$work" "${1:-1000000}" "${2:-200}"
