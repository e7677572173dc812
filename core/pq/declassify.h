// Marks a value computed from secrets as public for the constant-time test (tests/test_pq_mlkem_ct.cc),
// which runs ML-KEM under valgrind memcheck with its secret inputs marked undefined. Only values the
// algorithm publishes anyway are declassified (e.g. rho, which becomes part of the encapsulation key).
// Outside valgrind the client request is a few no-op instructions. Built with the requests where CMake found
// valgrind's header (core/CMakeLists.txt says why it decides, not __has_include).
#pragma once

#include <cstddef>

#if defined(PCRYPT_HAVE_VALGRIND_MEMCHECK)
#include <valgrind/memcheck.h>
#define PCRYPT_DECLASSIFY(ptr, len) VALGRIND_MAKE_MEM_DEFINED((ptr), (len))
#else
#define PCRYPT_DECLASSIFY(ptr, len) ((void)(ptr), (void)(len))
#endif
