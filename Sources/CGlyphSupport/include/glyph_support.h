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
/// On success *rgba is malloc'd (free with glyph_free) and 0 is returned; on failure -1 and a message.
int glyph_png_decode(const uint8_t *bytes, size_t length, uint8_t **rgba, uint32_t *width,
                     uint32_t *height, char *error, size_t error_size);

/// Reads only the header: width and height. Returns 0 on success.
int glyph_png_size(const uint8_t *bytes, size_t length, uint32_t *width, uint32_t *height);

void glyph_free(void *pointer);

#endif
