#!/usr/bin/env bash
# Times the Photos module beside the raw socket on a library built through the store (100,000 assets by
# default) and the memory of holding the whole fetch result. Usage: Benchmarks/photos.sh [ASSETS] [ROUNDS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd photos-benchmark
make_work_folder bench
.build/release/photos-benchmark .build/release/photolibd "$work" "${1:-100000}" "${2:-20}"
