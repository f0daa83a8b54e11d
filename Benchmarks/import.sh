#!/usr/bin/env bash
# Times watched-folder ingest with a release photolibd: copy-mode throughput of 2,000 camera-sized JPEGs beside
# sha256sum, drop-to-event latency at 10 files/s beside inotifywait, and start-up reconciliation of 100,000 unchanged
# files. Needs about 25 GB of disk. Usage: Benchmarks/import.sh [throughput|latency|reconcile]...
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd import-benchmark
make_work_folder import-bench
for benchmark in "${@:-throughput latency reconcile}"; do
    for name in $benchmark; do
        echo "== $name"
        .build/release/import-benchmark "$name" .build/release/photolibd "$work"
    done
done
