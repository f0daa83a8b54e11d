#!/usr/bin/env bash
# Builds a 100,000-asset library of real, referenced photos through the store, then times the gallery in headless
# Chromium (navigation to a screen of thumbnails, scrubber jumps, dropped photos appearing, the heap after scrolling
# everything) and cached thumbnails under wrk beside a static file server. Usage: Benchmarks/gallery.sh [ASSETS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup --benchmarks
build_release photolibd photolib-web gallery-benchmark-library
make_work_folder gallery
python3 Benchmarks/gallery_benchmark.py .build/release "$work" "${1:-100000}"
