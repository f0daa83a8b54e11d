#!/usr/bin/env bash
# Builds a library of ASSETS annotated photos through the store (ratings, two keywords each, `x` on one in a
# hundred), then times `rating >= 4` and `ANY keywords == 'x'` through a real photolibd beside sqlite3 running the
# same statements on the same file; times a rating's write-back until its sidecar is renamed into place; and
# compares reference imports of PHOTOS camera-sized JPEGs with a darktable sidecar each against the same JPEGs
# without. Usage: Benchmarks/annotations.sh [ASSETS] [ROUNDS] [PHOTOS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd annotation-benchmark
make_work_folder annotations
photos=${3:-2000}
Benchmarks/make-photos.sh "$work/photos" "$photos"
.build/release/annotation-benchmark .build/release/photolibd "$work" "${1:-1000000}" "${2:-200}" "$work/photos"
