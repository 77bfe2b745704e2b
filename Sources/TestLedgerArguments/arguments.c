#include "TestLedgerArguments.h"

#include <stddef.h>
#include <stdlib.h>  // defines __GLIBC__ where the C library is glibc

// Swift's runtime finds the arguments on Linux by reading /proc/self/maps, which a bare chroot or
// a minimal container lacks: `CommandLine.arguments` is then empty, and `testledger record -- …`
// would print the help and exit 0 having run nothing. glibc hands every constructor the
// arguments (musl does not): they are given to the runtime before anything reads them.
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((swiftcall));

static int seen = -1;

__attribute__((constructor)) static void testledger_keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
#if defined(__GLIBC__)
    if (argc > 0 && argv != NULL) {
        seen = argc;
        _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    }
#else
    (void)argc;
    (void)argv;
#endif
}

int testledger_arguments_seen(void) { return seen; }
