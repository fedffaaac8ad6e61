#!/usr/bin/env python3
"""Writes the generated seeds of Fuzz/corpus/png: one small PNG of each colour type and bit depth
the decoder converts (grey 1-16, grey+alpha, RGB, RGBA, palette with and without tRNS), Adam7
interlaced ones, and the header of a 30000 x 30000 image (a memory bomb: the decoder must refuse
it from its header). Run from the repository root: python3 Fuzz/png-seeds.py"""
import struct, zlib

SIG = b'\x89PNG\r\n\x1a\n'
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)

def pack_row(samples, depth):
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b''.join(struct.pack('>H', s) for s in samples)
    out, per = bytearray(), 8 // depth
    for i in range(0, len(samples), per):
        b = 0
        for j, v in enumerate(samples[i:i + per]):
            b |= (v & ((1 << depth) - 1)) << (8 - depth * (j + 1))
        out.append(b)
    return bytes(out)

def encode(w, h, depth, ctype, interlace=False, plte=None, trns=None):
    top = (1 << depth) - 1
    def pixel(x, y):
        return [((x * 37 + y * 53 + c * 91) % (top + 1)) for c in range(CHANNELS[ctype])]
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = bytearray()
    for (x0, y0, dx, dy) in passes:
        xs, ys = range(x0, w, dx), range(y0, h, dy)
        if not xs or not ys:
            continue
        for y in ys:
            raw += b'\x00' + pack_row([s for x in xs for s in pixel(x, y)], depth)
    out = SIG + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 1 if interlace else 0))
    if plte is not None:
        out += chunk(b'PLTE', plte)
    if trns is not None:
        out += chunk(b'tRNS', trns)
    return out + chunk(b'IDAT', zlib.compress(bytes(raw), 9)) + chunk(b'IEND', b'')

seeds = {}
for depth in (1, 2, 4, 8, 16):
    seeds['gen-grey%d' % depth] = encode(7, 5, depth, 0)
for depth in (8, 16):
    seeds['gen-greyalpha%d' % depth] = encode(7, 5, depth, 4)
    seeds['gen-rgb%d' % depth] = encode(7, 5, depth, 2)
    seeds['gen-rgba%d' % depth] = encode(7, 5, depth, 6)
for depth in (1, 2, 4, 8):
    n = 1 << depth
    plte = bytes((i * 40) % 256 for i in range(3 * n))
    seeds['gen-palette%d' % depth] = encode(7, 5, depth, 3, plte=plte)
seeds['gen-palette8-trns'] = encode(7, 5, 8, 3, plte=bytes(range(256)) * 3, trns=bytes([0, 128, 255]))
seeds['gen-grey8-trns'] = encode(7, 5, 8, 0, trns=struct.pack('>H', 37))
seeds['gen-rgb8-trns'] = encode(7, 5, 8, 2, trns=struct.pack('>HHH', 0, 91, 182))
seeds['gen-rgba8-interlaced'] = encode(9, 9, 8, 6, interlace=True)
seeds['gen-grey2-interlaced'] = encode(9, 9, 2, 0, interlace=True)
seeds['gen-empty-0x0'] = SIG + chunk(b'IHDR', struct.pack('>IIBBBBB', 0, 0, 8, 6, 0, 0, 0)) + chunk(b'IEND', b'')
# The header of a 30000 x 30000 RGBA image and a few bytes of data: 3.6 GB if decoded.
seeds['regress-header-30000x30000'] = (SIG + chunk(b'IHDR', struct.pack('>IIBBBBB', 30000, 30000, 8, 6, 0, 0, 0))
                                       + chunk(b'IDAT', zlib.compress(b'\x00' * 64)) + chunk(b'IEND', b''))
for name, data in seeds.items():
    with open('Fuzz/corpus/png/' + name + '.png', 'wb') as f:
        f.write(data)
