#!/usr/bin/env bash
# Times PhotoKit's bytes and videos beside cat, cp and ffmpeg by hand: requestImageData of a 12-MP JPEG,
# writeData of a 100 MB video, a 720p export of a 1080p 30-s clip, requestAVAsset. Usage: Benchmarks/transfers.sh [ROUNDS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd transfer-benchmark
make_work_folder bench
Benchmarks/make-photos.sh "$work/photos" 1
.build/release/transfer-benchmark .build/release/photolibd "$work" "$work/photos/IMG_0000.jpg" "${1:-20}"
