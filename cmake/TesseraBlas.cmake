# SPDX-License-Identifier: BSD-3-Clause
# Finds the optimised BLAS and LAPACK the product engine and the decompositions call on the host:
# OpenBLAS, OpenMP build (it shares the OpenMP pool of the host kernels: a GEMM called inside a
# parallel region runs on its calling thread, one outside uses every thread the pool has), and
# LAPACKE, the C interface of LAPACK (OpenBLAS's LAPACK answers its calls). Never the reference
# libblas: it is 30x slower, and a build that found only it must fail here, at configure time,
# naming the package to install. Defines:
#   TESSERA_BLAS_LIBRARIES     libraries to link (OpenBLAS, LAPACKE)
#   TESSERA_BLAS_INCLUDE_DIRS  directories holding cblas.h and lapacke.h
#   TESSERA_BLAS_NAME          what was found, for the configure log

set(_tessera_blas_help
    "install Debian's libopenblas-openmp-dev and liblapacke-dev (apt-get install "
    "libopenblas-openmp-dev liblapacke-dev), or set TESSERA_OPENBLAS_LIBRARY, "
    "TESSERA_CBLAS_INCLUDE_DIR, TESSERA_LAPACKE_LIBRARY and TESSERA_LAPACKE_INCLUDE_DIR")
# Debian installs each OpenBLAS flavour in its own directory; the OpenMP one first, so that the
# pthreads build (its own thread pool, which fights the OpenMP one) is never picked by accident.
set(_tessera_blas_dirs)
if(CMAKE_LIBRARY_ARCHITECTURE)
  list(APPEND _tessera_blas_dirs /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp)
endif()
find_library(TESSERA_OPENBLAS_LIBRARY NAMES openblas HINTS ${_tessera_blas_dirs}
             PATH_SUFFIXES openblas-openmp DOC "OpenBLAS, OpenMP build (Debian: libopenblas-openmp-dev)")
set(_tessera_cblas_dirs)
if(CMAKE_LIBRARY_ARCHITECTURE)
  list(APPEND _tessera_cblas_dirs /usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp)
endif()
find_path(TESSERA_CBLAS_INCLUDE_DIR cblas.h HINTS ${_tessera_cblas_dirs}
          PATH_SUFFIXES openblas-openmp openblas
          DOC "Directory holding OpenBLAS's cblas.h")
find_library(TESSERA_LAPACKE_LIBRARY NAMES lapacke DOC "LAPACKE (Debian: liblapacke-dev)")
find_path(TESSERA_LAPACKE_INCLUDE_DIR lapacke.h DOC "Directory holding lapacke.h")
foreach(_tessera_var TESSERA_OPENBLAS_LIBRARY TESSERA_CBLAS_INCLUDE_DIR TESSERA_LAPACKE_LIBRARY
                     TESSERA_LAPACKE_INCLUDE_DIR)
  if(NOT ${_tessera_var})
    message(FATAL_ERROR "tessera: no optimised BLAS/LAPACK found (${_tessera_var}); "
                        ${_tessera_blas_help})
  endif()
endforeach()

# The library found must be OpenBLAS (not the reference BLAS under another name) and its OpenMP
# build: openblas_get_parallel() says 2 there (1: pthreads, 0: serial).
include(CheckCXXSourceRuns)
set(CMAKE_REQUIRED_INCLUDES ${TESSERA_CBLAS_INCLUDE_DIR})
set(CMAKE_REQUIRED_LIBRARIES ${TESSERA_OPENBLAS_LIBRARY})
set(CMAKE_REQUIRED_QUIET ON)
if(NOT DEFINED TESSERA_OPENBLAS_IS_OPENMP)
  check_cxx_source_runs([=[
    #include <cblas.h>
    int main(void) { return openblas_get_parallel() == 2 ? 0 : 1; }
  ]=] TESSERA_OPENBLAS_IS_OPENMP)
endif()
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)
if(NOT TESSERA_OPENBLAS_IS_OPENMP)
  message(FATAL_ERROR "tessera: ${TESSERA_OPENBLAS_LIBRARY} is not OpenBLAS's OpenMP build "
                      "(openblas_get_parallel() != 2); " ${_tessera_blas_help})
endif()

set(TESSERA_BLAS_LIBRARIES ${TESSERA_LAPACKE_LIBRARY} ${TESSERA_OPENBLAS_LIBRARY})
set(TESSERA_BLAS_INCLUDE_DIRS ${TESSERA_CBLAS_INCLUDE_DIR} ${TESSERA_LAPACKE_INCLUDE_DIR})
list(REMOVE_DUPLICATES TESSERA_BLAS_INCLUDE_DIRS)
set(TESSERA_BLAS_NAME "OpenBLAS (OpenMP) with LAPACKE")
message(STATUS "tessera: BLAS/LAPACK: ${TESSERA_BLAS_NAME}: ${TESSERA_OPENBLAS_LIBRARY}, "
               "${TESSERA_LAPACKE_LIBRARY}")
unset(_tessera_blas_help)
unset(_tessera_blas_dirs)
unset(_tessera_cblas_dirs)
unset(_tessera_var)
