#ifndef C_TRANSACTIONKIT_MISUSE_HOOK_H
#define C_TRANSACTIONKIT_MISUSE_HOOK_H

#include <stdbool.h>

// The atomics the core uses below its own availability floor.
#include "CTransactionKitAtomics.h"

// How the core finds out, at the moment of a misuse and only then, whether a
// test runner can record it as a test failure, without depending on Testing
// or XCTest.
//
// `transactionkit_record_misuse` is defined by TransactionKitTesting (which
// links Testing and XCTest). It records the misuse as a failure of the
// running test and returns true, or returns false when no test is running.
// A program that does not link TransactionKitTesting has no such symbol:
// on ELF platforms the weak reference below is then null, on Darwin the
// lookup finds nothing, and the core stops the process as it always did.
// Nothing here runs until a misuse happens: correct programs pay nothing.

#if defined(__APPLE__)
#include <dlfcn.h>
#else
extern bool transactionkit_record_misuse(const char *message, const char *fileID, long line)
    __attribute__((weak));
#endif

static inline bool transactionkit_record_misuse_if_testing(const char *message, const char *fileID, long line) {
#if defined(__APPLE__)
    bool (*record)(const char *, const char *, long) =
        (bool (*)(const char *, const char *, long))dlsym(RTLD_DEFAULT, "transactionkit_record_misuse");
    return record ? record(message, fileID, line) : false;
#else
    return transactionkit_record_misuse ? transactionkit_record_misuse(message, fileID, line) : false;
#endif
}

#endif
