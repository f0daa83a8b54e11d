#!/usr/bin/env bash
# Times 1,000,000 reverse geocoding lookups (LOOKUPS) on points near real places beside reverse_geocoder (PyPI) on the
# same points, with each one's load time and resident memory added; then the backfill of ASSETS located assets of a
# library from before places. Usage: Benchmarks/places.sh [LOOKUPS] [ASSETS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup --benchmarks
build_release place-benchmark place-backfill-benchmark
make_work_folder places
.build/release/place-benchmark .build/places/places.sqlite "$work" "${1:-1000000}"
.build/release/place-backfill-benchmark .build/places/places.sqlite "$work/backfill" "${2:-1000000}"
