#!/usr/bin/env bash
# Times PhotoKit's bytes and videos beside cat, cp and ffmpeg by hand: requestImageData of a 12-MP JPEG,
# writeData of a 100 MB video, a 720p export of a 1080p 30-s clip, requestAVAsset. Usage: Benchmarks/transfers.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product transfer-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-bench.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
Benchmarks/make-photos.sh "$work/photos" 1
.build/release/transfer-benchmark .build/release/photolibd "$work" "$work/photos/IMG_0000.jpg" "${1:-20}"
