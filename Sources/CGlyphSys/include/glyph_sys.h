#ifndef GLYPH_SYS_H
#define GLYPH_SYS_H

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

#endif
