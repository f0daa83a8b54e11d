#!/usr/bin/env bash
# Times basic edits through a real photolibd beside vips, the thumbnail of an edit after its commit, and what reading
# camera data costs imports, on camera-sized JPEGs (Benchmarks/make-photos.sh). Usage: Benchmarks/edits.sh [PHOTOS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" no-setup
build_release photolibd edit-benchmark
make_work_folder edits

count=${1:-20}
Benchmarks/make-photos.sh "$work/photos" "$count"
if [[ ! -d "$work/photos-without-camera" ]]; then
    cp -r "$work/photos" "$work/photos-without-camera.partial"
    exiftool -q -overwrite_original -Make= -Model= -LensModel= -FNumber= -ExposureTime= -ISO= -FocalLength= \
        -FocalLengthIn35mmFormat= "$work/photos-without-camera.partial"
    mv "$work/photos-without-camera.partial" "$work/photos-without-camera"
fi

.build/release/edit-benchmark .build/release/photolibd "$work" "$count"
