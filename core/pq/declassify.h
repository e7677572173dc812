// Marks a value computed from secrets as public for the constant-time test (tests/test_pq_mlkem_ct.cc),
// which runs ML-KEM under valgrind memcheck with its secret inputs marked undefined. Only values the
// algorithm publishes anyway are declassified (e.g. rho, which becomes part of the encapsulation key).
// Outside valgrind the client request is a few no-op instructions.
#pragma once

#include <cstddef>

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define PCRYPT_DECLASSIFY(ptr, len) VALGRIND_MAKE_MEM_DEFINED((ptr), (len))
#else
#define PCRYPT_DECLASSIFY(ptr, len) ((void)(ptr), (void)(len))
#endif
