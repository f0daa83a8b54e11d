#!/usr/bin/env bash
# Builds a 100,000-asset library through the store and times FetchAssets over the socket of a real
# photolibd beside the sqlite3 command line on the same file. Usage: Benchmarks/fetch.sh [ASSETS] [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product fetch-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-bench.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
.build/release/fetch-benchmark .build/release/photolibd "$work" "${1:-100000}" "${2:-200}"
