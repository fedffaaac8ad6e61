#define _GNU_SOURCE
#include <unistd.h>
#include "glyph_support.h"

int glyph_syncfs(int fd) { return syncfs(fd); }
