#define _GNU_SOURCE
#include <stdio.h>
#include "rename_noreplace.h"

int bl_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to) {
    return renameat2(from_dir, from, to_dir, to, RENAME_NOREPLACE);
}
