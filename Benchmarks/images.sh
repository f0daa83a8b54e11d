#!/usr/bin/env bash
# Makes camera-sized JPEGs once (Benchmarks/make-photos.sh), then times 256-pixel thumbnails through a real photolibd
# beside one `vipsthumbnail --size 256` process and ImageMagick's `mogrify -thumbnail` over the same files, cached
# requests from several clients, and the first (degraded) reply of opportunistic requests. Usage: Benchmarks/images.sh [PHOTOS] [CLIENTS]
source "$(dirname "${BASH_SOURCE[0]}")/lib/preamble.bash" setup
build_release photolibd image-benchmark
make_work_folder images

count=${1:-200}
Benchmarks/make-photos.sh "$work/photos" "$count"

.build/release/image-benchmark .build/release/photolibd "$work" "$count" "${2:-4}"
