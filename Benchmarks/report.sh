#!/usr/bin/env bash
# Runs the benchmarks against their peers and writes Benchmarks/REPORT.md (one table of figures and ratios, the
# machine, date and commit) with plots in Benchmarks/report/. The full run (10k, 100k and 1M assets; 2,000 camera
# JPEGs) takes about twenty minutes on 2 cores (measured: 18) and 25 GB of disk; --quick runs the same benchmarks
# on 10k and 100k assets and fewer files, in about ten minutes. Usage: Benchmarks/report.sh [--quick]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup --benchmarks
quick=false
[[ ${1:-} == --quick ]] && quick=true
build_release photolibd photolibd-raw fetch-benchmark observer-benchmark photos-benchmark image-benchmark \
    import-benchmark edit-benchmark raw-benchmark annotation-benchmark photolib-web gallery-benchmark-library \
    transfer-benchmark place-benchmark

make_work_folder report
mkdir -p "$work"
export BENCHMARK_RECORD="$work/record.jsonl"
rm -f "$BENCHMARK_RECORD"
log="$work/report.log"
: >"$log"
run() {
    echo "== $*" | tee -a "$log"
    "$@" 2>&1 | tee -a "$log"
}
daemon=.build/release/photolibd
if $quick; then sizes=(10000 100000) photos=24 files=200; else sizes=(10000 100000 1000000) photos=200 files=2000; fi

for size in "${sizes[@]}"; do
    run .build/release/fetch-benchmark "$daemon" "$work/library-$size" "$size" 50
done
for size in "${sizes[@]:1}"; do
    run .build/release/photos-benchmark "$daemon" "$work/library-$size" "$size" "$([[ $size == 1000000 ]] && echo 8 || echo 20)"
done

mkdir -p "$work/observer-photos"
for i in $(seq -w 1 50); do [[ -e $work/observer-photos/new$i.jpg ]] || vips gaussnoise "$work/observer-photos/new$i.jpg" 64 48; done
ulimit -n 65536 || true
for size in "${sizes[@]}"; do
    run .build/release/observer-benchmark "$daemon" "$work/observers-$size" "$work/observer-photos" "$size" 50 \
        "$([[ $size == "${sizes[-1]}" ]] && echo 1000 || echo 100)"
done

Benchmarks/make-photos.sh "$work/images/photos" "$photos"
run .build/release/image-benchmark "$daemon" "$work/images" "$photos" 4
BENCHMARK_DIR="$work/images" run Benchmarks/edits.sh "$(( photos < 20 ? photos : 20 ))"
run .build/release/import-benchmark throughput "$daemon" "$work/import" "$files"
run .build/release/import-benchmark latency "$daemon" "$work/import"
run .build/release/annotation-benchmark "$daemon" "$work/annotations" "${sizes[-1]}" 50 "$work/import/throughput/photos"
BENCHMARK_DIR="$work/raw" run Benchmarks/raw.sh "$($quick && echo 4 || echo 8)"
run .build/release/transfer-benchmark "$daemon" "$work/transfers" "$work/images/photos/IMG_0000.jpg" "$($quick && echo 10 || echo 20)"
run .build/release/place-benchmark .build/places/places.sqlite "$work/places" "$($quick && echo 100000 || echo 1000000)"
run python3 Benchmarks/gallery_benchmark.py .build/release "$work/gallery" 100000

# Debian's own Python, which has its matplotlib (python3 on PATH may be another).
/usr/bin/python3 Benchmarks/report.py "$BENCHMARK_RECORD" Benchmarks/REPORT.md Benchmarks/report "$($quick && echo quick || echo full)"
echo "wrote Benchmarks/REPORT.md and Benchmarks/report/*.png (log: $log)"
