#!/usr/bin/env bash
# Makes camera-sized JPEGs once (about 12 MP, EXIF with an embedded thumbnail, those numbered *0, *4 and *8 turned by
# Orientation 6), then times 256-pixel thumbnails through a real photolibd beside one `vipsthumbnail --size 256`
# process and ImageMagick's `mogrify -thumbnail` over the same files, cached requests from several clients, and
# the first (degraded) reply of opportunistic requests. Usage: Benchmarks/images.sh [PHOTOS] [CLIENTS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product photolibd
swift build -c release --product image-benchmark
work=${BENCHMARK_DIR:-$(mktemp -d /tmp/photolibd-images.XXXXXX)}
echo "work directory: $work (reused when run again with BENCHMARK_DIR=$work)"

count=${1:-200}
photos="$work/photos"
if [[ $(find "$photos" -name '*.jpg' 2>/dev/null | wc -l) -lt $count ]]; then
    echo "making $count photos of 4000x3000 in $photos"
    mkdir -p "$photos" "$work/scratch"
    # A texture like a photo's: blurred colour noise, shifted for each photo so that no two are alike.
    for band in r g b; do vips gaussnoise "$work/scratch/$band.v" 4000 3000 --sigma 60 --mean 128; done
    vips bandjoin "$work/scratch/r.v $work/scratch/g.v $work/scratch/b.v" "$work/scratch/rgb.v"
    vips gaussblur "$work/scratch/rgb.v" "$work/scratch/blur.v" 1.5
    vips cast "$work/scratch/blur.v" "$work/scratch/base.v" uchar
    for ((i = 0; i < count; i++)); do
        vips wrap "$work/scratch/base.v" "$work/scratch/shifted.v" --x $((i * 37)) --y $((i * 23))
        vips copy "$work/scratch/shifted.v" "$photos/IMG_$(printf %04d "$i").jpg[Q=90]"
    done
    vipsthumbnail --size 160 -o "$work/scratch/thumb-%s.jpg[strip]" "$photos"/*.jpg
    exiftool -q -overwrite_original -Make=Camera -Model=Benchmark "-DateTimeOriginal=2024:06:01 12:00:00" \
        -GPSLatitude=48.85 -GPSLatitudeRef=N -GPSLongitude=2.29 -GPSLongitudeRef=E \
        "-ThumbnailImage<=$work/scratch/thumb-%f.jpg" "$photos"
    exiftool -q -overwrite_original -Orientation#=6 "$photos"/IMG_*[048].jpg
    rm -rf "$work/scratch"
fi

.build/release/image-benchmark .build/release/photolibd "$work" "$count" "${2:-4}"
