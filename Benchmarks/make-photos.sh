#!/usr/bin/env bash
# Makes COUNT camera-sized JPEGs in DIRECTORY unless it holds them already: about 12 MP, EXIF with an embedded
# thumbnail, camera and place, those numbered *0, *4 and *8 turned by Orientation 6.
# Usage: Benchmarks/make-photos.sh DIRECTORY COUNT
set -euo pipefail
photos=$1 count=$2
if [[ $(find "$photos" -name '*.jpg' 2>/dev/null | wc -l) -ge $count ]]; then exit 0; fi
echo "making $count photos of 4000x3000 in $photos"
scratch="$photos/.scratch"
mkdir -p "$photos" "$scratch"
# A texture like a photo's: blurred colour noise, shifted for each photo so that no two are alike.
for band in r g b; do vips gaussnoise "$scratch/$band.v" 4000 3000 --sigma 60 --mean 128; done
vips bandjoin "$scratch/r.v $scratch/g.v $scratch/b.v" "$scratch/rgb.v"
vips gaussblur "$scratch/rgb.v" "$scratch/blur.v" 1.5
vips cast "$scratch/blur.v" "$scratch/base.v" uchar
for ((i = 0; i < count; i++)); do
    vips wrap "$scratch/base.v" "$scratch/shifted.v" --x $((i * 37)) --y $((i * 23))
    vips copy "$scratch/shifted.v" "$photos/IMG_$(printf %04d "$i").jpg[Q=90]"
done
vipsthumbnail --size 160 -o "$scratch/thumb-%s.jpg[strip]" "$photos"/*.jpg
exiftool -q -overwrite_original -Make=Camera -Model=Benchmark -LensModel="Benchmark 24-70mm" -FNumber=2.8 \
    -ExposureTime=1/250 -ISO=200 -FocalLength=35 -FocalLengthIn35mmFormat=52 "-DateTimeOriginal=2024:06:01 12:00:00" \
    -GPSLatitude=48.85 -GPSLatitudeRef=N -GPSLongitude=2.29 -GPSLongitudeRef=E \
    "-ThumbnailImage<=$scratch/thumb-%f.jpg" "$photos"
exiftool -q -overwrite_original -Orientation#=6 "$photos"/IMG_*[048].jpg
rm -rf "$scratch"
