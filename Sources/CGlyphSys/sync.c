#define _GNU_SOURCE
#include <unistd.h>
#include "glyph_sys.h"

int glyph_syncfs(int fd) { return syncfs(fd); }

#include <sys/vfs.h>

long glyph_fs_type(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 ? (long)info.f_type : -1;
}
