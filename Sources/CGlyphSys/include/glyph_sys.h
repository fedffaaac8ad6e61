#ifndef GLYPH_SYS_H
#define GLYPH_SYS_H

/// syncfs(2): flushes the file system holding `fd` (Swift's Glibc module does not declare it).
int glyph_syncfs(int fd);

/// fstatfs(2)'s f_type of the file system holding `fd` (PROC_SUPER_MAGIC, SYSFS_MAGIC, …); -1 on error.
long glyph_fs_type(int fd);

#endif
