# Whether to build the Python module: PCRYPT_PYTHON (on by default) and pybind11 + the Python headers found,
# for Debian's /usr/bin/python3 (where python3-dask and friends live), not whatever `python3` comes first on
# PATH (a pyenv shim, say). One configure line either way. Sanitizer and fuzzer builds skip it: an
# instrumented module cannot be loaded into an uninstrumented interpreter. Cross builds skip it too: the
# host's Python headers are not the target's, and its tests would need a target Python under the emulator
# (scripts/test-arm64.sh prints this line).
set(PCRYPT_PYTHON_FOUND OFF)
if(NOT PCRYPT_PYTHON)
  message(STATUS "Python module: off (-DPCRYPT_PYTHON=OFF)")
elseif(NOT PCRYPT_SANITIZE STREQUAL "" OR PCRYPT_FUZZ)
  message(STATUS "Python module: skipped (sanitizer or fuzzer build)")
elseif(CMAKE_CROSSCOMPILING)
  message(STATUS "Python module: skipped (cross build for ${CMAKE_SYSTEM_PROCESSOR}: no target Python to "
                 "build against or to run its tests under the emulator)")
else()
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.9 QUIET COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(PCRYPT_PYTHON_FOUND ON)
    # The static libraries end up inside a shared object. Debian's compilers build PIE executables anyway,
    # so the CLI loses nothing.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    message(STATUS "Python module: built for ${Python_EXECUTABLE} (Python ${Python_VERSION}, pybind11 "
                   "${pybind11_VERSION}); docs/PYTHON.md installs it")
  else()
    message(STATUS "Python module: skipped (install python3-dev and pybind11-dev)")
  endif()
endif()
