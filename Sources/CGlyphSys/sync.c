// Flushing files to disk, and the kind of file system a descriptor is on.
//
// Linux: syncfs(2) flushes a whole file system at once (a batch of files costs two calls), and
// fstatfs(2) names the file system (/proc and /sys are refused). Elsewhere (macOS, the BSDs), and on
// Linux when built with GLYPH_PORTABLE_SYNC (`GLYPHAUDIT_PORTABLE_SYNC=1 swift build`, which `make test`
// uses to run the kill tests on this path too), only POSIX is used: each file is flushed on its own
// and then its folder, with fcntl(F_FULLFSYNC) where the system has it (macOS: fsync alone leaves
// the data in the drive's cache).
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "glyph_sys.h"

#if defined(__linux__) && !defined(GLYPH_PORTABLE_SYNC)
int glyph_has_syncfs(void) { return 1; }
int glyph_syncfs(int fd) { return syncfs(fd); }
#else
int glyph_has_syncfs(void) { return 0; }
int glyph_syncfs(int fd) {
    (void)fd;
    errno = ENOSYS;
    return -1;
}
#endif

int glyph_fsync(int fd) {
#ifdef F_FULLFSYNC
    // Some file systems (network shares, FAT) refuse F_FULLFSYNC: fsync is then the best there is.
    if (fcntl(fd, F_FULLFSYNC) == 0) return 0;
#endif
    return fsync(fd);
}

#if defined(__linux__)
#include <sys/vfs.h>

long glyph_fs_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (long)info.f_type : -1;
}
#else
// Elsewhere there is no /proc or /sys to refuse (and f_type numbers mean other things).
long glyph_fs_type(int fd) {
    (void)fd;
    return -1;
}
#endif
