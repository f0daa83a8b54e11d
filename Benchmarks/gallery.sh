#!/usr/bin/env bash
# Builds a 100,000-asset library of real, referenced photos through the store, then times the gallery in headless
# Chromium (navigation to a screen of thumbnails, scrubber jumps, dropped photos appearing, the heap after scrolling
# everything) and cached thumbnails under wrk beside a static file server. Usage: Benchmarks/gallery.sh [ASSETS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup --benchmarks
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
for product in photolibd photolib-web gallery-benchmark-library; do
    swift build -c release --product "$product"
done
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-gallery.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
python3 Benchmarks/gallery_benchmark.py .build/release "$work" "${1:-100000}"
