#!/usr/bin/env bash
# Times the build of a first scripts/run-daemon: what it builds (debug, by default), from a fresh clone of HEAD with
# an empty .build, beside the release build of the same products in another fresh clone (what it built before, and
# what the package and the benchmarks build). Packages are resolved before the clock starts: fetching is not
# compiling. Run it with nothing else on the machine. Usage: Benchmarks/first-build.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
source scripts/lib/environment.bash
work=$(mktemp -d /tmp/photolibd-first-build.XXXXXX)
trap 'rm -rf "$work"' EXIT

declare -A seconds
for configuration in debug release; do
    git clone -q . "$work/$configuration"
    (
        cd "$work/$configuration"
        source scripts/lib/build-products.bash
        swift package resolve >/dev/null
        start=$(date +%s.%N)
        build_products "$configuration" >"$work/$configuration.log" 2>&1 || { tail -20 "$work/$configuration.log" >&2; exit 1; }
        echo "$(date +%s.%N) - $start" | bc >"$work/$configuration.seconds"
    )
    seconds[$configuration]=$(<"$work/$configuration.seconds")
    printf '%-8s first build of photolibd, photolibd-raw, photolib, photolib-web: %6.1f s\n' "$configuration" "${seconds[$configuration]}"
done
printf 'scripts/run-daemon (debug) against the release build: %.2f× (target ≤ 0.5×)\n' \
    "$(echo "${seconds[debug]} / ${seconds[release]}" | bc -l)"
