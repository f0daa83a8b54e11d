#!/usr/bin/env bash
# Times RAW renditions with a release photolibd on 24-MP DNG files with an embedded preview (made from synthetic
# Bayer data with pidng): a 256-pixel thumbnail beside exiftool + vipsthumbnail, a full-size decode beside LibRaw's
# dcraw_emu. Usage: Benchmarks/raw.sh [FILES]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd photolibd-raw raw-benchmark
make_work_folder raw
mkdir -p "$work/dng"
files=()
# Each orientation makes a file of its own content, so none is a duplicate of another.
for orientation in $(seq 1 "${1:-4}" | awk '{ print ($1 - 1) % 8 + 1 }'); do
    file="$work/dng/IMG_$orientation.dng"
    [[ -e $file ]] || python3 Tests/Interop/raw_fixture.py make "$file" 6000 4000 "$orientation" 1620 1080
    files+=("$file")
done
.build/release/raw-benchmark .build/release/photolibd "$work" "${files[@]}"
