// PNG encode and decode through libpng's full API. libpng reports errors with longjmp,
// which Swift cannot catch, so the calls live here behind plain status codes.
#include "glyph_support.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *message;
    size_t size;
} error_sink;

static void on_error(png_structp png, png_const_charp message) {
    error_sink *sink = (error_sink *)png_get_error_ptr(png);
    if (sink && sink->message && sink->size > 0) {
        snprintf(sink->message, sink->size, "%s", message);
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

void glyph_buffer_free(glyph_buffer *buffer) {
    if (buffer) {
        free(buffer->data);
        buffer->data = NULL;
        buffer->length = 0;
        buffer->capacity = 0;
    }
}

static void write_to_buffer(png_structp png, png_bytep data, png_size_t length) {
    glyph_buffer *out = (glyph_buffer *)png_get_io_ptr(png);
    if (out->length + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity < out->length + length) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, data, length);
    out->length += length;
}

static void flush_nothing(png_structp png) { (void)png; }

int glyph_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int has_alpha,
                     int compression_level, int filters, int strategy, glyph_buffer *out, char *error,
                     size_t error_size) {
    error_sink sink = {error, error_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) {
        snprintf(error, error_size, "cannot create a PNG writer");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile row = NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        snprintf(error, error_size, "cannot create PNG info");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        /* on_error has written libpng's message into `error`. */
        png_destroy_write_struct(&png, &info);
        free(row);
        glyph_buffer_free(out);
        return -1;
    }
    png_set_write_fn(png, out, write_to_buffer, flush_nothing);
    png_set_compression_level(png, compression_level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, has_alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (has_alpha) {
        for (uint32_t y = 0; y < height; y++) {
            png_write_row(png, (png_const_bytep)(rgba + (size_t)y * width * 4));
        }
    } else {
        row = malloc((size_t)width * 3);
        if (!row) png_error(png, "out of memory");
        for (uint32_t y = 0; y < height; y++) {
            const uint8_t *src = rgba + (size_t)y * width * 4;
            for (uint32_t x = 0; x < width; x++) {
                row[x * 3] = src[x * 4];
                row[x * 3 + 1] = src[x * 4 + 1];
                row[x * 3 + 2] = src[x * 4 + 2];
            }
            png_write_row(png, row);
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    return 0;
}

typedef struct {
    const uint8_t *bytes;
    size_t length;
    size_t offset;
} read_source;

static void read_from_memory(png_structp png, png_bytep data, png_size_t length) {
    read_source *src = (read_source *)png_get_io_ptr(png);
    if (src->offset + length > src->length) png_error(png, "the file ends early (truncated PNG)");
    memcpy(data, src->bytes + src->offset, length);
    src->offset += length;
}

int glyph_png_size(const uint8_t *bytes, size_t length, uint32_t *width, uint32_t *height) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (length < 24 || memcmp(bytes, signature, 8) != 0 || memcmp(bytes + 12, "IHDR", 4) != 0) return -1;
    *width = ((uint32_t)bytes[16] << 24) | ((uint32_t)bytes[17] << 16) | ((uint32_t)bytes[18] << 8) | bytes[19];
    *height = ((uint32_t)bytes[20] << 24) | ((uint32_t)bytes[21] << 16) | ((uint32_t)bytes[22] << 8) | bytes[23];
    return 0;
}

int glyph_png_decode(const uint8_t *bytes, size_t length, uint8_t *rgba, uint32_t width, uint32_t height,
                     char *error, size_t error_size) {
    if (length == 0) {
        snprintf(error, error_size, "the file is empty");
        return -1;
    }
    if (length < 8 || png_sig_cmp((png_const_bytep)bytes, 0, 8) != 0) {
        snprintf(error, error_size, "not a PNG file (bad signature)");
        return -1;
    }
    /* Every chunk's length must fit in the bytes that follow it, before libpng sees the file:
       libpng allocates what a chunk header claims (this version's eXIf handler ignores
       png_set_chunk_malloc_max), so a 59-byte file could ask for 1.7 GB. With this check no chunk
       is larger than the file. */
    for (size_t at = 8; at + 8 <= length;) {
        uint32_t chunk = ((uint32_t)bytes[at] << 24) | ((uint32_t)bytes[at + 1] << 16) |
                         ((uint32_t)bytes[at + 2] << 8) | bytes[at + 3];
        if ((size_t)chunk > length - at - 8 || length - at - 8 - chunk < 4) {
            snprintf(error, error_size, "a chunk at byte %zu claims %u bytes, more than the file holds", at, chunk);
            return -1;
        }
        if (memcmp(bytes + at + 4, "IEND", 4) == 0) break;
        at += 12 + (size_t)chunk;
    }
    error_sink sink = {error, error_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    if (!png) {
        snprintf(error, error_size, "cannot create a PNG reader");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        snprintf(error, error_size, "cannot create PNG info");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        /* on_error has written libpng's message into `error`. */
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        return -1;
    }
    read_source source = {bytes, length, 0};
    png_set_read_fn(png, &source, read_from_memory);
    /* zlib's Adler-32 of the inflated rows is not computed: every IDAT chunk's CRC-32 is still checked
       (a corrupt byte is an error, as before), and the inflated rows are a function of those checked
       bytes, so the Adler-32 could only catch an encoder that wrote a wrong one. It cost 5-7 % of an
       incremental run's CPU (flat images inflate fast, the checksum is per output byte). */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    /* The caller refuses sizes past Limits.pngSide from the header already; these keep libpng itself
       bounded too: no image past 8192 px on a side, no ancillary chunk (or its decompressed text or
       profile) past 8 MB, at most 1000 ancillary chunks kept. A chunk whose length field asks for
       gigabytes is an error, not an allocation. */
    png_set_user_limits(png, 8192, 8192);
    png_set_chunk_malloc_max(png, 8u << 20);
    png_set_chunk_cache_max(png, 1000);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    /* 16-bit channels to 8 bits rounded to nearest, v * 255 / 65535 (libpng's scale_16), not the
       high byte (strip_16 truncates: 0x80FF would read as 0x80 instead of 0x81). tRNS is matched
       against the 16-bit value before scaling (libpng expands it first). */
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unsupported PNG pixel layout");
    /* The caller's buffer holds the size the header declares (glyph_png_size), read the same way. */
    if (w != width || h != height || (w > 0 && h > 0 && !rgba)) png_error(png, "the image is not the size its header declares");
    rows = malloc(sizeof(png_bytep) * (h ? h : 1));
    if (!rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = rgba + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return 0;
}
