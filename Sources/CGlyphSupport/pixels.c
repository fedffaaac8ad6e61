// Pixel loops every render goes through. In C they run at one speed in every build: a debug build
// of the same loops in Swift (the one `make test` runs) spends most of its time in retain, release
// and unspecialised generics. Each function is the exact arithmetic the Swift it replaced did.
#include "glyph_support.h"
#include <string.h>

int glyph_rgba_opaque(const uint8_t *rgba, size_t pixels) {
    for (size_t i = 0; i < pixels; i++) {
        if (rgba[i * 4 + 3] != 255) return 0;
    }
    return 1;
}

void glyph_argb32_to_rgba(const uint8_t *argb, size_t stride, size_t width, size_t height, uint8_t *rgba) {
    for (size_t y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(const void *)(argb + y * stride);
        uint8_t *out = rgba + y * width * 4;
        for (size_t x = 0; x < width; x++, out += 4) {
            uint32_t p = row[x];
            uint32_t a = p >> 24;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (a == 255 || a == 0) {
                // Nothing to divide: the bytes b, g, r, a reordered to r, g, b, a in one store.
                uint32_t straight = ((p >> 16) & 0xFF) | (p & 0xFF00FF00u) | ((p & 0xFF) << 16);
                memcpy(out, &straight, 4);
                continue;
            }
#endif
            uint32_t r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            if (a != 255 && a != 0) {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
            }
            out[0] = (uint8_t)r;
            out[1] = (uint8_t)g;
            out[2] = (uint8_t)b;
            out[3] = (uint8_t)a;
        }
    }
}

void glyph_rgba_to_argb32(const uint8_t *rgba, size_t width, size_t height, uint8_t *argb, size_t stride,
                          int rounded) {
    uint32_t bias = rounded ? 127 : 0;
    for (size_t y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(void *)(argb + y * stride);
        const uint8_t *in = rgba + y * width * 4;
        for (size_t x = 0; x < width; x++) {
            uint32_t a = in[3];
            uint32_t r = (in[0] * a + bias) / 255, g = (in[1] * a + bias) / 255, b = (in[2] * a + bias) / 255;
            row[x] = a << 24 | r << 16 | g << 8 | b;
            in += 4;
        }
    }
}

void glyph_rgba_fill(uint8_t *rgba, size_t pixels, uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    for (size_t i = 0; i < pixels; i++) {
        rgba[i * 4] = r;
        rgba[i * 4 + 1] = g;
        rgba[i * 4 + 2] = b;
        rgba[i * 4 + 3] = a;
    }
}

// glyph_rgba_row_spans: the multiply-fold mix of wyhash, four chains
// over 32-byte blocks of each row, so that the comparison and the hash read each row once.
static const uint64_t k0 = 0xa0761d6478bd642fULL, k1 = 0xe7037ed1a0b428dbULL,
                      k2 = 0x8ebc6af09c88c6e3ULL, k3 = 0x589965cc75374cc3ULL;

static inline uint64_t mix(uint64_t a, uint64_t b) {
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

size_t glyph_rgba_row_spans(const uint8_t *a, const uint8_t *b, size_t width, size_t height, int32_t *spans,
                            uint64_t key[2]) {
    const size_t n = width * 4;
    uint64_t h0 = mix(k0, (uint64_t)width ^ k1), h1 = mix(k2, (uint64_t)height ^ k3);
    uint64_t h2 = mix(k1, (uint64_t)width ^ k2), h3 = mix(k3, (uint64_t)height ^ k0);
    uint64_t s0 = mix(k3, k1), s1 = mix(k0, k2);  // b's spans
    size_t differing = 0;
    for (size_t y = 0; y < height; y++) {
        const uint8_t *ra = a + y * n, *rb = b + y * n;
        size_t first = n, last = 0;  // bytes: the first and the last differing 32-byte block (or pixel)
        size_t i = 0;
        for (; i + 32 <= n; i += 32) {
            uint64_t a0 = load64(ra + i), a1 = load64(ra + i + 8), a2 = load64(ra + i + 16), a3 = load64(ra + i + 24);
            uint64_t d = (a0 ^ load64(rb + i)) | (a1 ^ load64(rb + i + 8)) | (a2 ^ load64(rb + i + 16))
                         | (a3 ^ load64(rb + i + 24));
            if (d) {
                if (first == n) first = i;
                last = i + 32;
            }
            h0 = mix(a0 ^ k1 ^ h0, a1 ^ k0);
            h1 = mix(a1 ^ k3 ^ h1, a0 ^ k2);
            h2 = mix(a2 ^ k1 ^ h2, a3 ^ k0);
            h3 = mix(a3 ^ k3 ^ h3, a2 ^ k2);
        }
        for (; i < n; i += 4) {
            uint32_t pa = load32(ra + i);
            if (pa != load32(rb + i)) {
                if (first == n) first = i;
                last = i + 4;
            }
            h0 = mix(pa ^ k1 ^ h0, (uint64_t)i ^ k0);
        }
        if (first == n) {
            spans[2 * y] = 0;
            spans[2 * y + 1] = 0;
            continue;
        }
        // To the pixel: the blocks' equal pixels at either end.
        while (load32(ra + first) == load32(rb + first)) first += 4;
        while (load32(ra + last - 4) == load32(rb + last - 4)) last -= 4;
        spans[2 * y] = (int32_t)(first / 4);
        spans[2 * y + 1] = (int32_t)(last / 4);
        differing++;
        s0 = mix(s0 ^ (uint64_t)y, ((uint64_t)first << 32 | last) ^ k1);
        // The span's bytes of b, 16 at a time in two chains, then a pixel at a time.
        size_t j = first;
        for (; j + 16 <= last; j += 16) {
            uint64_t b0 = load64(rb + j), b1 = load64(rb + j + 8);
            s0 = mix(b0 ^ k3 ^ s0, b1 ^ k2);
            s1 = mix(b1 ^ k0 ^ s1, b0 ^ k1);
        }
        for (; j < last; j += 4) {
            uint32_t pb = load32(rb + j);
            s0 = mix(pb ^ k3 ^ s0, (uint64_t)j ^ k2);
            s1 = mix(s1 ^ k0, pb ^ s0);
        }
    }
    h0 = mix(h0 ^ k2, h2 ^ k3);
    h1 = mix(h1 ^ k0, h3 ^ k1);
    key[0] = mix(h0 ^ s0, h1 ^ k3);
    key[1] = mix(h1 ^ s1, h0 ^ k0);
    return differing;
}
