/* PCRYPT_API marks what libpcrypt exports; every public header, C and C++, takes it from here.
 *
 * libpcrypt is built with hidden visibility, so only what carries PCRYPT_API is in libpcrypt.so.1's symbol
 * table (the ABI baseline, docs/LIBRARY.md "Stability"). A program linking the static libpcrypt.a defines
 * PCRYPT_STATIC (pkg-config --cflags and the CMake package say so), and then the mark is empty: nothing of
 * the library becomes part of the program's own exports. */
#ifndef PCRYPT_EXPORT_H
#define PCRYPT_EXPORT_H

#if defined(PCRYPT_BUILDING_LIBRARY) || !defined(PCRYPT_STATIC)
#define PCRYPT_API __attribute__((visibility("default")))
#else
#define PCRYPT_API
#endif

#endif /* PCRYPT_EXPORT_H */
