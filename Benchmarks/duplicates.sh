#!/usr/bin/env bash
# Calibrates the duplicate threshold: the fingerprints of a corpus of copies and near-misses made from real photos and
# video frames (Tests/Interop/duplicate_corpus.py), beside ImageHash's phash (PyPI) on the same files; then all groups
# of ASSETS random fingerprints made afresh and new assets checked one by one. Usage: Benchmarks/duplicates.sh [ASSETS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup --benchmarks
build_release photolibd duplicate-benchmark
make_work_folder duplicates
python3 Tests/Interop/duplicate_corpus.py make "$work/corpus" >/dev/null
echo "== ours (threshold, precision, recall)"
.build/release/duplicate-benchmark calibrate "$work/corpus" .build/release/photolibd
echo "== peer: ImageHash phash"
python3 Tests/Interop/duplicate_corpus.py peer "$work/corpus"
.build/release/duplicate-benchmark scale "$work/scale" "${1:-1000000}"
