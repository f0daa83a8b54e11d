#!/usr/bin/env bash
# Observe delivery latency: one observer holding a 1,000,000-asset result (favorite toggle and insertion),
# then 1 and 1,000 observers with two queries each at one change per 10 ms.
# Usage: Benchmarks/observers.sh [ASSETS] [ROUNDS] [OBSERVERS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd observer-benchmark
make_work_folder observers
photos="$work/photos"
if [[ ! -d $photos ]]; then
    mkdir -p "$photos"
    for i in $(seq -w 1 ${2:-200}); do vips gaussnoise "$photos/new$i.jpg" 64 48; done
fi
ulimit -n 65536 || true
.build/release/observer-benchmark .build/release/photolibd "$work" "$photos" "${1:-1000000}" "${2:-200}" "${3:-1000}"
