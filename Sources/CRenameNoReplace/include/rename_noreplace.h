#ifndef BLURLABEL_RENAME_NOREPLACE_H
#define BLURLABEL_RENAME_NOREPLACE_H
/* Publishing a file only where nothing has its name yet, in one atomic step: Linux's
   renameat2(RENAME_NOREPLACE), a GNU extension that Swift's Glibc module does not declare. */

/* Renames `from` (relative to `from_dir`) to `to` (relative to `to_dir`) unless `to` exists.
   0 on success; -1 with errno set otherwise: EEXIST when something already has the name,
   EINVAL or ENOSYS when the file system or kernel cannot rename without replacing. */
int bl_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to);

#endif
