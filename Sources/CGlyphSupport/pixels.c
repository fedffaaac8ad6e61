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
