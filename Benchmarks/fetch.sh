#!/usr/bin/env bash
# Builds a 100,000-asset library through the store and times FetchAssets over the socket of a real
# photolibd beside the sqlite3 command line on the same file. Usage: Benchmarks/fetch.sh [ASSETS] [ROUNDS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd fetch-benchmark
make_work_folder bench
.build/release/fetch-benchmark .build/release/photolibd "$work" "${1:-100000}" "${2:-200}"
