#ifndef GLYPH_SYS_H
#define GLYPH_SYS_H

#include <stddef.h>
#include <stdint.h>

/// 1 when `glyph_syncfs` flushes a whole file system (Linux, unless built with GLYPH_PORTABLE_SYNC);
/// 0 when every file must be flushed on its own (`glyph_fsync`) and then its folder.
int glyph_has_syncfs(void);

/// syncfs(2): flushes the file system holding `fd` (Swift's Glibc module does not declare it). Where
/// `glyph_has_syncfs()` is 0 it does nothing and returns -1 (ENOSYS).
int glyph_syncfs(int fd);

/// Flushes one file (or folder) to the disk: fcntl(F_FULLFSYNC) where the system has it (macOS),
/// fsync(2) otherwise or when the file system refuses F_FULLFSYNC.
int glyph_fsync(int fd);

/// fstatfs(2)'s f_type of the file system holding `fd` (PROC_SUPER_MAGIC, SYSFS_MAGIC, …) on Linux;
/// -1 on error, and always -1 elsewhere (no /proc or /sys to tell apart).
long glyph_fs_type(int fd);

/// 1 when this processor has the x86 SHA extensions with SSE4.1 and SSSE3 (cpuid), so that
/// `glyph_sha256` computes digests; always 0 on other architectures (sha256.c).
int glyph_sha256_hardware(void);

/// The SHA-256 of `count` bytes at `data` into `digest` with the SHA extensions; returns 1. Call only
/// where `glyph_sha256_hardware()` is 1. Returns 0, writing nothing, when not built for x86_64.
int glyph_sha256(const void *data, size_t count, uint8_t digest[32]);

#endif
