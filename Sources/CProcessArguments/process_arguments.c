// The process's arguments for Swift's `CommandLine`, kept from glibc instead of searched for.
//
// The Swift runtime's own CommandLine.cpp (in libswiftCore.a) finds argv at start-up by reading
// /proc/self/maps line by line with sscanf and scanning the main thread's stack: about 0.23 M
// instructions and a /proc read in every process, before main (Benchmarks/run-oneshot). glibc
// passes argc and argv to every ELF constructor, so this file keeps them and defines the two
// functions that object file provides; the linker then has no reason to take CommandLine.cpp.o
// out of the archive. C, because a Swift function cannot be an ELF constructor with arguments.
// Linked into the blurlabel executable only (Package.swift); with a shared libswiftCore (debug
// builds, tests) the executable's definitions are the ones the standard library finds first.

#include "process_arguments.h"

static int kept_argc;
static char **kept_argv;
static int override_argc;
static char **override_argv;

__attribute__((constructor)) static void keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    kept_argc = argc;
    kept_argv = argv;
}

char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (override_argv) {
        *outArgLen = override_argc;
        return override_argv;
    }
    static char *empty[] = {0};
    if (!kept_argv) {
        *outArgLen = 0;
        return empty;
    }
    *outArgLen = kept_argc;
    return kept_argv;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}

int bl_process_arguments_kept(void) { return kept_argv != 0; }
