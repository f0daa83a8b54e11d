#!/usr/bin/env bash
# Makes camera-sized JPEGs once (Benchmarks/make-photos.sh), then times 256-pixel thumbnails through a real photolibd
# beside one `vipsthumbnail --size 256` process and ImageMagick's `mogrify -thumbnail` over the same files, cached
# requests from several clients, and the first (degraded) reply of opportunistic requests. Usage: Benchmarks/images.sh [PHOTOS] [CLIENTS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1
swift build -c release --product photolibd
swift build -c release --product image-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-images.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"

count=${1:-200}
Benchmarks/make-photos.sh "$work/photos" "$count"

.build/release/image-benchmark .build/release/photolibd "$work" "$count" "${2:-4}"
