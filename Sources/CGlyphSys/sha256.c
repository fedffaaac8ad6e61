// SHA-256 (FIPS 180-4) with the x86 SHA extensions (SHA-NI), for `SHA256.hex` in GlyphCore: a run
// under --incremental digests the inputs of every variant, and a font, image or input file is hashed
// whole. Where the processor lacks SHA-NI, SSE4.1 or SSSE3 (checked with cpuid once per process, by
// the caller) or the build is not for x86_64, `glyph_sha256` returns 0 and GlyphCore uses its
// portable Swift implementation, which stays the reference the tests compare this one with.
// The arm64 build (macOS) compiles only the stubs below; the arm64 SHA instructions are not used.
#include <stdint.h>
#include "glyph_sys.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

int glyph_sha256_hardware(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 19)) || !(c & (1u << 9))) return 0;  // SSE4.1, SSSE3
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 29)) ? 1 : 0;  // SHA
}

// `blocks` 64-byte blocks at `p` into `state` (h0…h7). The state is kept as the two vectors the
// instructions work on, ABEF and CDGH; each step does four rounds, scheduling the message four
// words at a time (sha256msg1 + alignr + sha256msg2).
__attribute__((target("sha,sse4.1,ssse3")))
static void compress(uint32_t state[8], const uint8_t *p, size_t blocks) {
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);  // big-endian words
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);  // CDAB
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); // EFGH
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);                                             // ABEF
    s1 = _mm_blend_epi16(s1, t, 0xF0);                                                  // CDGH
    for (; blocks > 0; blocks--, p += 64) {
        const __m128i abef = s0, cdgh = s1;
        __m128i m[4];  // m[i & 3]: words 4i…4i+3 of the schedule
        for (int i = 0; i < 4; i++) m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), swap);
        for (int i = 0; i < 16; i++) {
            if (i >= 4) {
                // W[t…t+3] from W[t-16…t-13] (m[i&3]), W[t-15…] (σ0, msg1), W[t-7…t-4] (alignr), W[t-2], W[t-1] (σ1, msg2).
                __m128i w = _mm_sha256msg1_epu32(m[i & 3], m[(i + 1) & 3]);
                w = _mm_add_epi32(w, _mm_alignr_epi8(m[(i + 3) & 3], m[(i + 2) & 3], 4));
                m[i & 3] = _mm_sha256msg2_epu32(w, m[(i + 3) & 3]);
            }
            __m128i msg = _mm_add_epi32(m[i & 3], _mm_loadu_si128((const __m128i *)&K[4 * i]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, msg);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(msg, 0x0E));
        }
        s0 = _mm_add_epi32(s0, abef);
        s1 = _mm_add_epi32(s1, cdgh);
    }
    t = _mm_shuffle_epi32(s0, 0x1B);   // FEBA
    s1 = _mm_shuffle_epi32(s1, 0xB1);  // DCHG
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(t, s1, 0xF0));  // DCBA
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(s1, t, 8));     // HGFE
}

int glyph_sha256(const void *data, size_t count, uint8_t digest[32]) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = data;
    size_t full = count / 64;
    if (full > 0) compress(h, p, full);
    // The tail: the remaining bytes, 0x80, zeros, the length in bits (big-endian), in one or two blocks.
    uint8_t tail[128] = {0};
    size_t rest = count - 64 * full;
    if (rest > 0) memcpy(tail, p + 64 * full, rest);
    tail[rest] = 0x80;
    size_t blocks = rest < 56 ? 1 : 2;
    uint64_t bits = (uint64_t)count * 8;
    for (int i = 0; i < 8; i++) tail[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(h, tail, blocks);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)h[i];
    }
    return 1;
}

#else

int glyph_sha256_hardware(void) { return 0; }

int glyph_sha256(const void *data, size_t count, uint8_t digest[32]) {
    (void)data;
    (void)count;
    (void)digest;
    return 0;
}

#endif
