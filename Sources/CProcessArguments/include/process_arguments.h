#ifndef BL_PROCESS_ARGUMENTS_H
#define BL_PROCESS_ARGUMENTS_H

// The Swift runtime's entry points for `CommandLine` (see process_arguments.c).
char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen);
void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

/// 1 when glibc handed the arguments to this file's constructor (always, on Linux with glibc).
int bl_process_arguments_kept(void);

#endif
