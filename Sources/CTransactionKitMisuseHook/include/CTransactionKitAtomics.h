#ifndef C_TRANSACTIONKIT_ATOMICS_H
#define C_TRANSACTIONKIT_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

// Atomic operations on a word of memory, for the core's atomics
// (AtomicInt.swift and the transaction's lifecycle), on every platform the
// package supports: Synchronization's `Atomic` needs iOS 18 and macOS 15,
// and these compile to the same instructions.
//
// The word is plain memory that only these functions touch once it is
// shared. `order` is one of the `__ATOMIC_*` constants (the Swift side
// passes a literal, so each call inlines to one instruction sequence).
// Header-only inline functions: the Swift compiler inlines them into its
// callers, so an atomic costs what it costs in C.

static inline intptr_t transactionkit_atomic_load(const intptr_t *word, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_load_n(word, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_load_n(word, __ATOMIC_ACQUIRE);
    default: return __atomic_load_n(word, __ATOMIC_SEQ_CST);
    }
}

static inline void transactionkit_atomic_store(intptr_t *word, intptr_t value, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: __atomic_store_n(word, value, __ATOMIC_RELAXED); break;
    case __ATOMIC_RELEASE: __atomic_store_n(word, value, __ATOMIC_RELEASE); break;
    default: __atomic_store_n(word, value, __ATOMIC_SEQ_CST); break;
    }
}

static inline intptr_t transactionkit_atomic_exchange(intptr_t *word, intptr_t value, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_exchange_n(word, value, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_exchange_n(word, value, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE: return __atomic_exchange_n(word, value, __ATOMIC_RELEASE);
    case __ATOMIC_ACQ_REL: return __atomic_exchange_n(word, value, __ATOMIC_ACQ_REL);
    default: return __atomic_exchange_n(word, value, __ATOMIC_SEQ_CST);
    }
}

/// Adds `delta` (wrapping) and returns the previous value.
static inline intptr_t transactionkit_atomic_fetch_add(intptr_t *word, intptr_t delta, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_fetch_add(word, delta, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_fetch_add(word, delta, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE: return __atomic_fetch_add(word, delta, __ATOMIC_RELEASE);
    case __ATOMIC_ACQ_REL: return __atomic_fetch_add(word, delta, __ATOMIC_ACQ_REL);
    default: return __atomic_fetch_add(word, delta, __ATOMIC_SEQ_CST);
    }
}

/// Stores `desired` if the word holds `*expected` and returns true;
/// otherwise stores the word's value in `*expected` and returns false.
/// `order` applies on success; a failure loads with relaxed ordering, or
/// acquiring ordering when the success ordering acquires.
static inline bool transactionkit_atomic_compare_exchange(
    intptr_t *word, intptr_t *expected, intptr_t desired, int order) {
    switch (order) {
    case __ATOMIC_RELAXED:
        return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE:
        return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE:
        return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    case __ATOMIC_ACQ_REL:
        return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    default:
        return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
}

/// The two words a transaction's misuse check reads from any thread: its
/// lifecycle state and the thread (or task) that owns it.
typedef struct {
    intptr_t state;
    intptr_t owner;
} transactionkit_transaction_words;

#endif
