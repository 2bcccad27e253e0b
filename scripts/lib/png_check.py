"""Checks that a PNG screenshot is not blank: prints its size, distinct colours and the share
of pixels that differ from the most common colour; exits 1 below the given thresholds. With
--differ, checks that two screenshots of the same size differ (the page animates): prints how
many pixels differ; exits 1 when none does.

    python3 png_check.py SHOT.png [MIN_COLOURS (16)] [MIN_SHARE (0.02)]
    python3 png_check.py --differ A.png B.png

Reads 8-bit RGB or RGBA, non-interlaced PNGs (what Chromium writes) with the standard library
only."""
import struct
import sys
import zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("unsupported PNG kind (depth %d, colour %d)" % (depth, colour))
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r[i:i + 3]) for r in rows for i in range(0, stride, bpp)]


def differ(a, b):
    wa, ha, pa = pixels(a)
    wb, hb, pb = pixels(b)
    if (wa, ha) != (wb, hb):
        print("%s and %s: sizes differ (%dx%d, %dx%d)" % (a, b, wa, ha, wb, hb))
        sys.exit(1)
    n = sum(1 for x, y in zip(pa, pb) if x != y)
    print("%s and %s: %d of %d pixels differ (%.2f%%)" % (a, b, n, len(pa), 100.0 * n / len(pa)))
    if n == 0:
        print("the same picture: nothing moved")
        sys.exit(1)


def main():
    if sys.argv[1] == "--differ":
        differ(sys.argv[2], sys.argv[3])
        return
    path = sys.argv[1]
    min_colours = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    min_share = float(sys.argv[3]) if len(sys.argv) > 3 else 0.02
    width, height, px = pixels(path)
    counts = Counter(px)
    share = 1.0 - counts.most_common(1)[0][1] / len(px)
    print("%s: %dx%d, %d colours, %.1f%% of pixels differ from the background"
          % (path, width, height, len(counts), 100.0 * share))
    if len(counts) < min_colours or share < min_share:
        print("blank: fewer than %d colours or under %.1f%% drawn" % (min_colours, 100 * min_share))
        sys.exit(1)


if __name__ == "__main__":
    main()
