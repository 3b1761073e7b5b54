# SPDX-License-Identifier: BSD-3-Clause
# Finds the Thrust/CUB headers (CCCL from the CUDA toolkit, or Debian's libthrust-dev) and the
# threading runtime of the chosen host system. Defines:
#   TESSERA_THRUST_INCLUDE_DIR   directory holding thrust/version.h
#   TESSERA_HOST_THREADS_TARGET  OpenMP::OpenMP_CXX, TBB::tbb or empty (CPP)

set(_tessera_cccl_hints)
if(CUDAToolkit_INCLUDE_DIRS)
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    list(APPEND _tessera_cccl_hints "${dir}/cccl" "${dir}")
  endforeach()
endif()
find_path(TESSERA_THRUST_INCLUDE_DIR thrust/version.h
  HINTS ${_tessera_cccl_hints}
  PATHS /usr/local/cuda/include/cccl /usr/local/cuda/include /usr/include
  DOC "Directory holding thrust/version.h (CCCL)")
if(NOT TESSERA_THRUST_INCLUDE_DIR)
  message(FATAL_ERROR "tessera: Thrust headers not found. Install the CUDA toolkit (CCCL) or "
                      "Debian's libthrust-dev, or set TESSERA_THRUST_INCLUDE_DIR.")
endif()

if(TESSERA_HOST_SYSTEM STREQUAL "OMP")
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  set(TESSERA_HOST_THREADS_TARGET OpenMP::OpenMP_CXX)
elseif(TESSERA_HOST_SYSTEM STREQUAL "TBB")
  find_package(TBB REQUIRED)
  set(TESSERA_HOST_THREADS_TARGET TBB::tbb)
elseif(TESSERA_HOST_SYSTEM STREQUAL "CPP")
  set(TESSERA_HOST_THREADS_TARGET "")
else()
  message(FATAL_ERROR "TESSERA_HOST_SYSTEM must be OMP, TBB or CPP (got ${TESSERA_HOST_SYSTEM})")
endif()
