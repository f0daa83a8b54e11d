#!/usr/bin/env bash
# Times 1,000,000 reverse geocoding lookups (LOOKUPS) on points near real places beside reverse_geocoder (PyPI) on the
# same points, with each one's load time and resident memory added. Usage: Benchmarks/places.sh [LOOKUPS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup --benchmarks
build_release place-benchmark
make_work_folder places
.build/release/place-benchmark .build/places/places.sqlite "$work" "${1:-1000000}"
