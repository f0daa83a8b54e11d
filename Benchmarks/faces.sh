#!/usr/bin/env bash
# Times finding and describing the faces of a 12-megapixel photo with dlib's HOG and CNN detectors, on renditions of
# 640, 1,024 and 1,600 pixels, in CPU time of one core (issue 49's target: 250 ms a photo), with each rendition's cost.
# Usage: Benchmarks/faces.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release face-benchmark
make_work_folder faces
# One core, as the target says: OpenBLAS would otherwise spread the descriptor's and the CNN's work over every core.
OPENBLAS_NUM_THREADS=1 .build/release/face-benchmark "$work"
