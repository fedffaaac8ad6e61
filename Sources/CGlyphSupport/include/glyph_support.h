#ifndef GLYPH_SUPPORT_H
#define GLYPH_SUPPORT_H
#include <stddef.h>
#include <stdint.h>

/// A growable byte buffer owned by C; free with glyph_buffer_free.
typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} glyph_buffer;

void glyph_buffer_free(glyph_buffer *buffer);

/// Encodes straight (non-premultiplied) RGBA8 pixels as a PNG.
/// `has_alpha` 0 writes an RGB PNG (alpha dropped), 1 an RGBA PNG. `filters` is a libpng filter
/// mask (PNG_ALL_FILTERS = 0xF8, PNG_FILTER_SUB = 0x10, PNG_FILTER_NONE = 0x08); `strategy` a zlib
/// strategy (0 default, 3 Z_RLE).
/// Returns 0 on success; on failure writes a message into `error` (size `error_size`) and returns -1.
int glyph_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                     int compression_level, int filters, int strategy, glyph_buffer *out, char *error,
                     size_t error_size);

/// Decodes any PNG (palette, grey, 16-bit, with or without tRNS, interlaced) into straight RGBA8;
/// 16-bit channels are rounded to the nearest 8-bit value (v * 255 / 65535).
/// Gamma chunks are ignored, so the bytes are what the file stores (as pngjs and Pillow read them).
/// The pixels go into `rgba`, `width` × `height` × 4 bytes: the size the header declares
/// (glyph_png_size); any other size is an error. 0 on success; on failure -1 and a message.
int glyph_png_decode(const uint8_t *bytes, size_t length, uint8_t *rgba, uint32_t width, uint32_t height,
                     char *error, size_t error_size);

/// Reads only the header: width and height. Returns 0 on success.
int glyph_png_size(const uint8_t *bytes, size_t length, uint32_t *width, uint32_t *height);

/// Pixel loops (pixels.c). RGBA8: straight (not premultiplied) r, g, b, a bytes, rows packed.
/// ARGB32: cairo's premultiplied native-endian 32-bit pixels, rows `stride` bytes apart.

/// 1 when every pixel's alpha is 255 (also for no pixels), else 0.
int glyph_rgba_opaque(const uint8_t *rgba, size_t pixels);

/// ARGB32 to RGBA8: each colour channel `(c × 255 + a / 2) / a`, kept as it is where a is 0 or 255.
void glyph_argb32_to_rgba(const uint8_t *argb, size_t stride, size_t width, size_t height, uint8_t *rgba);

/// RGBA8 to ARGB32: each colour channel `(c × a + 127) / 255` when `rounded`, else `c × a / 255`.
void glyph_rgba_to_argb32(const uint8_t *rgba, size_t width, size_t height, uint8_t *argb, size_t stride,
                          int rounded);

/// Sets every pixel to one colour.
void glyph_rgba_fill(uint8_t *rgba, size_t pixels, uint8_t r, uint8_t g, uint8_t b, uint8_t a);

/// Two RGBA8 images of the same size compared row by row in one pass. For each row y,
/// `spans[2y]` and `spans[2y + 1]` are its first differing pixel and one past its last (both 0 when
/// the row is the same in both). `key` is a 128-bit hash of every byte of `a` and, for each row that
/// differs, of the row's number, its span and `b`'s bytes in the span: equal keys mean (but for a
/// chance collision) equal `a` and equal `b`, since `b` equals `a` outside the spans. Returns the
/// number of rows that differ.
size_t glyph_rgba_row_spans(const uint8_t *a, const uint8_t *b, size_t width, size_t height, int32_t *spans,
                            uint64_t key[2]);

#endif
