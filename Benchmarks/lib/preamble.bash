# The start every benchmark script shares: strict mode, the checkout as the current folder, scripts/setup, the build
# environment with the benchmark products in the package, and the helpers below.
# Usage, first thing in Benchmarks/NAME.sh: source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" SETUP
# where SETUP is `setup` (scripts/setup), `setup --benchmarks` (also what report.sh plots with and the gallery's
# servers) or `no-setup` (a script report.sh runs after its own setup).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
case ${1:-} in
    setup) scripts/setup "${@:2}" ;;
    no-setup) ;;
    *) echo "Benchmarks/lib/preamble.bash: source it with setup [--benchmarks] or no-setup" >&2; exit 2 ;;
esac
source scripts/lib/environment.bash
export PHOTOLIBD_BENCHMARKS=1

# Builds PRODUCT... for release, one after another.
build_release() {
    local product
    for product in "$@"; do swift build -c release --product "$product"; done
}

# Sets `work` to BENCHMARK_DIR, or to a new folder /tmp/photolibd-NAME.XXXXXX, and says which.
# Usage: make_work_folder NAME
make_work_folder() {
    work=${BENCHMARK_DIR:-$(mktemp -d "/tmp/photolibd-$1.XXXXXX")}
    echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"
}
