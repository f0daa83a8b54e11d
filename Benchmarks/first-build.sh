#!/usr/bin/env bash
# Times the compiling of a first scripts/run-daemon, each build from a fresh clone with an empty .build, one after
# another: what it builds now (debug), what it built before (release, at BASELINE: by default 669cf4d, the last commit
# whose run-daemon built for release), and the release build of the same products now (what the package and the
# benchmarks build). Packages are resolved before the clock starts: fetching is not compiling. Run it with nothing else
# on the machine; it takes about 15 minutes on two cores. Usage: Benchmarks/first-build.sh [BASELINE]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
# The builds timed are of the default package, as a user's first run-daemon builds it.
unset PHOTOLIBD_BENCHMARKS
baseline=${1:-669cf4d}
work=$(mktemp -d /tmp/photolibd-first-build.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Clones REVISION into NAME and prints the seconds that building run-daemon's four products in CONFIGURATION takes.
time_build() {
    local name=$1 revision=$2 configuration=$3
    git clone -q . "$work/$name" && git -C "$work/$name" checkout -q --detach "$revision"
    cd "$work/$name"
    swift package resolve >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; exit 1; }
    local start
    start=$(date +%s.%N)
    if [[ -f scripts/lib/build-products.bash ]]; then
        source scripts/lib/build-products.bash
    else
        # What run-daemon ran before build-products.bash existed.
        build_products() {
            local product
            for product in photolibd photolibd-raw photolib photolib-web; do swift build -c "$1" --product "$product"; done
        }
    fi
    build_products "$configuration" >>"$work/$name.log" 2>&1 || { tail -20 "$work/$name.log" >&2; exit 1; }
    echo "$(date +%s.%N) - $start" | bc
}

now_debug=$(time_build now-debug HEAD debug)
printf 'scripts/run-daemon now (debug, HEAD):            %6.1f s\n' "$now_debug"
before=$(time_build before "$baseline" release)
printf 'scripts/run-daemon before (release, %s):   %6.1f s\n' "$baseline" "$before"
now_release=$(time_build now-release HEAD release)
printf 'release build of the same products now (HEAD): %6.1f s\n' "$now_release"
printf 'a first scripts/run-daemon compiles for %.2f× the time it did (target ≤ 0.5×); %.2f× of a release build now\n' \
    "$(echo "$now_debug / $before" | bc -l)" "$(echo "$now_debug / $now_release" | bc -l)"
