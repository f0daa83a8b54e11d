#!/usr/bin/env python3
"""Real DNG files for the RAW tests, and what an independent reader (rawpy, LibRaw's Python binding) sees in them.

    raw_fixture.py make OUT.dng WIDTH HEIGHT ORIENTATION [PREVIEW_WIDTH PREVIEW_HEIGHT]
        A DNG of synthetic 12-bit Bayer data (pidng), with an EXIF orientation and, when asked, a JPEG preview in
        a second IFD (made with the vips command).
    raw_fixture.py bomb OUT.dng WIDTH HEIGHT
        a small DNG whose header claims WIDTH x HEIGHT sensor pixels (a decompression bomb)
    raw_fixture.py sizes FILE        the upright width and height rawpy decodes FILE to, as JSON
    raw_fixture.py compare FILE IMAGE
        the mean absolute difference (0-255) between rawpy's decode of FILE (camera white balance, 8 bits) and
        IMAGE, an image file of the same size (converted with the vips command)
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import rawpy


def make(path, width, height, orientation, preview=None):
    from pidng.core import RAW2DNG, DNGTags, Tag
    from pidng.defs import CalibrationIlluminant, CFAPattern, DNGVersion, PhotometricInterpretation, PreviewColorSpace

    y, x = np.mgrid[0:height, 0:width]
    bayer = (((x * 3000) // width + (y * 1000) // height) % 4096).astype(np.uint16)
    tags = DNGTags()
    for tag, value in [
        (Tag.ImageWidth, width), (Tag.ImageLength, height), (Tag.TileWidth, width), (Tag.TileLength, height),
        (Tag.Orientation, orientation), (Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array),
        (Tag.SamplesPerPixel, 1), (Tag.BitsPerSample, 12), (Tag.CFARepeatPatternDim, [2, 2]),
        (Tag.CFAPattern, CFAPattern.GBRG), (Tag.BlackLevel, 0), (Tag.WhiteLevel, 4095),
        (Tag.ColorMatrix1, [[19549, 10000], [-7877, 10000], [-2582, 10000], [-5724, 10000], [10121, 10000],
                            [1917, 10000], [-1267, 10000], [-110, 10000], [6621, 10000]]),
        (Tag.CalibrationIlluminant1, CalibrationIlluminant.D65), (Tag.AsShotNeutral, [[1, 1], [1, 1], [1, 1]]),
        (Tag.Make, "Synthetic"), (Tag.Model, "Bayer One"), (Tag.DNGVersion, DNGVersion.V1_4),
        (Tag.DNGBackwardVersion, DNGVersion.V1_2), (Tag.PreviewColorSpace, PreviewColorSpace.sRGB),
    ]:
        tags.set(tag, value)
    converter = RAW2DNG()
    converter.options(tags, path="", compress=False)
    # pidng names its output *.dng; the file then takes the name asked for (IMG_0001.DNG, say).
    partial = path + ".partial.dng"
    converter.convert(bayer, filename=partial)
    os.replace(partial, path)
    if preview:
        add_preview(path, *preview)


def add_preview(path, width, height):
    """Links a second IFD holding a JPEG preview (NewSubfileType 1, as cameras write theirs) after IFD0."""
    with tempfile.TemporaryDirectory() as scratch:
        jpeg_path = os.path.join(scratch, "preview.jpg")
        subprocess.run(["vips", "gaussnoise", jpeg_path, str(width), str(height)], check=True)
        jpeg = open(jpeg_path, "rb").read()
    data = bytearray(open(path, "rb").read())
    first = struct.unpack_from("<I", data, 4)[0]
    count = struct.unpack_from("<H", data, first)[0]
    next_pointer = first + 2 + count * 12
    data += b"\0" * (len(data) % 2)
    jpeg_offset = len(data)
    data += jpeg + b"\0" * (len(jpeg) % 2)
    entries = [(254, 4, 1), (256, 4, width), (257, 4, height), (259, 3, 7), (262, 3, 6), (273, 4, jpeg_offset),
               (277, 3, 3), (279, 4, len(jpeg))]
    ifd = len(data)
    data += struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        data += struct.pack("<HHI", tag, kind, 1) + struct.pack("<HH" if kind == 3 else "<I", *((value, 0) if kind == 3 else (value,)))
    data += struct.pack("<I", 0)
    struct.pack_into("<I", data, next_pointer, ifd)
    open(path, "wb").write(data)


def claim_size(path, width, height):
    """Rewrites IFD0's ImageWidth and ImageLength (LONG values) to claim another size."""
    data = bytearray(open(path, "rb").read())
    first = struct.unpack_from("<I", data, 4)[0]
    for entry in range(struct.unpack_from("<H", data, first)[0]):
        offset = first + 2 + entry * 12
        tag, kind = struct.unpack_from("<HH", data, offset)
        if tag in (256, 257):
            value = width if tag == 256 else height
            struct.pack_into("<HHII", data, offset, tag, 4, 1, value)
    open(path, "wb").write(data)


def decoded(path):
    with rawpy.imread(path) as raw:
        return raw.postprocess(use_camera_wb=True, output_bps=8)


def read_ppm(path):
    data = open(path, "rb").read()
    fields, index = [], 0
    while len(fields) < 4:
        while data[index:index + 1].isspace() or data[index:index + 1] == b"#":
            if data[index:index + 1] == b"#":
                index = data.index(b"\n", index)
            index += 1
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    width, height = int(fields[1]), int(fields[2])
    return np.frombuffer(data[index + 1:], dtype=np.uint8, count=width * height * 3).reshape(height, width, 3)


def main(arguments):
    if arguments[0] == "make":
        preview = (int(arguments[5]), int(arguments[6])) if len(arguments) > 6 else None
        make(arguments[1], int(arguments[2]), int(arguments[3]), int(arguments[4]), preview)
    elif arguments[0] == "bomb":
        make(arguments[1], 64, 64, 1)
        claim_size(arguments[1], int(arguments[2]), int(arguments[3]))
    elif arguments[0] == "sizes":
        image = decoded(arguments[1])
        print(json.dumps({"width": image.shape[1], "height": image.shape[0]}))
    elif arguments[0] == "compare":
        reference = decoded(arguments[1]).astype(np.int16)
        with tempfile.TemporaryDirectory() as scratch:
            ppm = os.path.join(scratch, "image.ppm")
            subprocess.run(["vips", "copy", arguments[2], ppm], check=True)
            ours = read_ppm(ppm).astype(np.int16)
        if ours.shape != reference.shape:
            print(json.dumps({"error": f"sizes differ: {ours.shape} against {reference.shape}"}))
        else:
            print(json.dumps({"meanDifference": float(np.abs(ours - reference).mean())}))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
