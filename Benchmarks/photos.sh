#!/usr/bin/env bash
# Times the Photos module beside the raw socket on a library built through the store (100,000 assets by
# default) and the memory of holding the whole fetch result. Usage: Benchmarks/photos.sh [ASSETS] [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product photos-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-bench.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
.build/release/photos-benchmark .build/release/photolibd "$work" "${1:-100000}" "${2:-20}"
