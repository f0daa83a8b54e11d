#!/usr/bin/env bash
# Times watched-folder ingest with a release photolibd: copy-mode throughput of 2,000 camera-sized JPEGs beside
# sha256sum, drop-to-event latency at 10 files/s beside inotifywait, and start-up reconciliation of 100,000 unchanged
# files. Needs about 25 GB of disk. Usage: Benchmarks/import.sh [throughput|latency|reconcile]...
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product import-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-import-bench.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
for benchmark in "${@:-throughput latency reconcile}"; do
    for name in $benchmark; do
        echo "== $name"
        .build/release/import-benchmark "$name" .build/release/photolibd "$work"
    done
done
