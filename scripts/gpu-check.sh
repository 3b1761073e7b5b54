#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# GPU verification kit (issue 7). Two halves:
#
#   scripts/gpu-check.sh stage
#       On the build machine: copies what the GPU machine lacks into gpu-stage/ (git-ignored):
#       GoogleTest sources, Google Benchmark (headers, shared library, CMake package), xtensor /
#       xtl / xsimd and nlohmann-json headers with their CMake packages, Random123's headers,
#       OpenBLAS (OpenMP) and LAPACKE (compressed).
#       Prints its size.
#
#   scripts/gpu-check.sh run [--dry-run] [--out DIR] [--targets "T1 T2 ..."]
#       On the GPU machine (nvcc, CMake, ninja, PyTorch; no network): builds GoogleTest from the
#       staged sources, configures tessera for sm_90 against gpu-stage/, builds on every core,
#       runs the whole test suite (a skipped CUDA test fails the check), the CUDA benchmarks and
#       tools/gpu/torch_peer.py (the same cases with torch CUDA), and prints one summary table;
#       then the host benchmarks at 1/2/4/8/16 threads (bench/scaling.py's table).
#       Raw logs go to DIR (default: $OUT when set, else gpu-check-out/). --dry-run stops after
#       the build, so the kit can be checked on a machine without a GPU; --targets builds only
#       those targets (CI's dry run builds one target per staged dependency).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly ROOT=$PWD
readonly STAGE=$ROOT/gpu-stage
readonly PREFIX=$STAGE/prefix
readonly MULTIARCH=lib/x86_64-linux-gnu
readonly MULTIARCH_INCLUDE=x86_64-linux-gnu

log() { printf '\n[gpu-check] %s\n' "$*"; }

copy_into_prefix() {  # copy_into_prefix ABSOLUTE_PATH...: same layout under $PREFIX (from /usr)
  local path rel
  for path in "$@"; do
    [[ -e $path ]] || { echo "missing on this machine: $path" >&2; return 1; }
    rel=${path#/usr/}
    mkdir -p "$PREFIX/$(dirname "$rel")"
    cp -a "$path" "$PREFIX/$rel"
  done
}

stage() {
  rm -rf "$STAGE"
  mkdir -p "$STAGE/src" "$PREFIX"
  cp -a /usr/src/googletest "$STAGE/src/googletest"
  copy_into_prefix /usr/include/benchmark /usr/$MULTIARCH/cmake/benchmark \
    /usr/$MULTIARCH/libbenchmark.so /usr/$MULTIARCH/libbenchmark.so.1debian \
    /usr/$MULTIARCH/libbenchmark.so.1.7.1 /usr/$MULTIARCH/libbenchmark_main.a
  copy_into_prefix /usr/include/xtensor /usr/include/xtl /usr/include/xsimd \
    /usr/$MULTIARCH/cmake/xtensor /usr/share/cmake/xtl /usr/$MULTIARCH/cmake/xsimd
  copy_into_prefix /usr/include/nlohmann /usr/share/cmake/nlohmann_json
  copy_into_prefix /usr/include/Random123
  # OpenBLAS (OpenMP build) and LAPACKE with the Fortran runtime they need, as Debian lays them
  # out; the libraries travel xz-compressed (36 MiB of OpenBLAS is 5 MiB) and run() unpacks them.
  copy_into_prefix /usr/include/$MULTIARCH_INCLUDE/openblas-openmp /usr/include/lapack.h \
    /usr/include/lapacke.h /usr/include/lapacke_config.h /usr/include/lapacke_mangling.h \
    /usr/include/lapacke_utils.h
  local blas_libs=(/usr/$MULTIARCH/openblas-openmp/libopenblas.so
    /usr/$MULTIARCH/openblas-openmp/libopenblas.so.0 /usr/$MULTIARCH/openblas-openmp/libopenblasp-r0.3.21.so
    /usr/$MULTIARCH/openblas-openmp/libblas.so.3 /usr/$MULTIARCH/openblas-openmp/liblapack.so.3
    /usr/$MULTIARCH/liblapacke.so /usr/$MULTIARCH/liblapacke.so.3 /usr/$MULTIARCH/liblapacke.so.3.11.0
    /usr/$MULTIARCH/libtmglib.so.3 /usr/$MULTIARCH/libtmglib.so.3.11.0
    /usr/$MULTIARCH/libgfortran.so.5 /usr/$MULTIARCH/libgfortran.so.5.0.0
    /usr/$MULTIARCH/libquadmath.so.0 /usr/$MULTIARCH/libquadmath.so.0.0.0)
  copy_into_prefix "${blas_libs[@]}"
  ln -sf openblas-openmp/libblas.so.3 "$PREFIX/$MULTIARCH/libblas.so.3"
  ln -sf openblas-openmp/liblapack.so.3 "$PREFIX/$MULTIARCH/liblapack.so.3"
  tar -C "$PREFIX" -cJf "$STAGE/blas-libs.tar.xz" "${blas_libs[@]/#\/usr\//}"
  (cd "$PREFIX" && rm -f "${blas_libs[@]/#\/usr\//}")
  log "staged into $STAGE: $(du -sh "$STAGE" | cut -f1) (the repository plus this must stay under 64 MiB)"
}

run() {
  local dry_run=0 out=${OUT:-$ROOT/gpu-check-out} targets=""
  while (($#)); do
    case $1 in
      --dry-run) dry_run=1 ;;
      --out) out=$2; shift ;;
      --targets) targets=$2; shift ;;
      *) echo "unknown argument: $1" >&2; return 2 ;;
    esac
    shift
  done
  [[ -d $STAGE/src/googletest ]] || { echo "run '$0 stage' on the build machine first" >&2; return 1; }
  mkdir -p "$out"
  local jobs build=${GPU_CHECK_BUILD:-$ROOT/build-gpu} t0=$SECONDS
  jobs=${GPU_CHECK_JOBS:-$(nproc)}
  # CMake 4 refuses projects that ask for policies older than 3.5; these ask for 3.5 or later,
  # but the setting keeps an older pin in a staged package from stopping the run.
  local -a common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_POLICY_VERSION_MINIMUM=3.5)
  log "GoogleTest from the staged sources"
  if [[ ! -f $PREFIX/include/gtest/gtest.h ]]; then
    cmake -S "$STAGE/src/googletest" -B "$STAGE/build-gtest" "${common[@]}" \
      -DCMAKE_INSTALL_PREFIX="$PREFIX" -DBUILD_GMOCK=OFF >"$out/gtest-build.log" 2>&1
    cmake --build "$STAGE/build-gtest" -j "$jobs" >>"$out/gtest-build.log" 2>&1
    cmake --install "$STAGE/build-gtest" >>"$out/gtest-build.log" 2>&1
  fi
  if [[ -f $STAGE/blas-libs.tar.xz && ! -e $PREFIX/$MULTIARCH/liblapacke.so.3 ]]; then
    tar -C "$PREFIX" -xJf "$STAGE/blas-libs.tar.xz"
  fi
  # The staged OpenBLAS/LAPACKE (and their Fortran runtime) for the configure check, the link
  # and the tests.
  export LD_LIBRARY_PATH=$PREFIX/$MULTIARCH:$PREFIX/$MULTIARCH/openblas-openmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  log "configure + build tessera for sm_90 ($jobs jobs${targets:+, targets: $targets})"
  # Only the staged prefix is searched (no system paths), so a dependency the stage forgot
  # fails here, on the build machine, instead of on the GPU machine.
  cmake -S "$ROOT" -B "$build" "${common[@]}" -DTESSERA_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DTESSERA_BUILD_BENCH=ON \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_FIND_USE_CMAKE_SYSTEM_PATH=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON >"$out/configure.log" 2>&1 ||
    { tail -30 "$out/configure.log"; return 1; }
  local -a target_args=()
  if [[ -n $targets ]]; then read -ra target_args <<<"$targets"; target_args=(--target "${target_args[@]}"); fi
  cmake --build "$build" -j "$jobs" "${target_args[@]}" >"$out/build.log" 2>&1 ||
    { grep -E 'error|FAILED' "$out/build.log" | head -40; return 1; }
  log "built in $((SECONDS - t0)) s"
  if ((dry_run)); then
    log "dry run: configured and built for sm_90 from gpu-stage/ only; nothing run"
    return 0
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1 || true
  log "tests on the GPU"
  local test_rc=0
  ctest --test-dir "$build" -j 8 --timeout 300 --output-on-failure >"$out/ctest.log" 2>&1 ||
    test_rc=$?
  local skipped
  # Tests of the no-GPU behaviour (named *WithoutGpu*) skip themselves where a GPU exists.
  skipped=$(grep '(Skipped)' "$out/ctest.log" | grep -vc 'WithoutGpu' || true)
  log "tests done at $((SECONDS - t0)) s; CUDA benchmarks and the torch CUDA peer"
  local bench name
  local -a results=()
  for bench in "$build"/bench/bench_*; do
    name=$(basename "$bench")
    [[ -x $bench && $name != *_torch* ]] || continue
    "$bench" --benchmark_filter='Cuda' --benchmark_min_time=0.2 --benchmark_repetitions=3 \
      --benchmark_out="$out/$name.json" --benchmark_out_format=json >>"$out/bench.log" 2>&1 ||
      echo "$name failed (see bench.log)" >&2
    results+=("$out/$name.json")
  done
  python3 "$ROOT/tools/gpu/torch_peer.py" --out "$out/torch_cuda.json" >"$out/torch.log" 2>&1 ||
    echo "torch peer failed (see torch.log)" >&2
  host_scaling "$build" "$out"
  python3 "$ROOT/tools/gpu/summary.py" --ctest "$out/ctest.log" --tessera "${results[@]}" \
    --torch "$out/torch_cuda.json" | tee "$out/summary.md"
  log "finished in $((SECONDS - t0)) s"
  if ((test_rc != 0 || skipped != 0)); then
    log "FAILED: ctest exit $test_rc, $skipped skipped test(s) (no skips allowed on a GPU)"
    grep -E '\(Skipped\)|\(Failed\)|\(Timeout\)|\*\*\*' "$out/ctest.log" | head -40
    return 1
  fi
  log "passed"
}

# The host benchmarks at 1, 2, 4, 8 and 16 threads (the GPU machine has 16 cores; the build
# machine only 2): tessera's host kernels against the hand-written OpenMP loop and libtorch at
# the same thread count. One JSON per thread count, and a table of time per thread count.
host_scaling() {  # host_scaling BUILD OUT
  local build=$1 out=$2 threads bench name
  log "host scaling: 1/2/4/8/16 threads"
  for threads in 1 2 4 8 16; do
    for bench in "$build"/bench/bench_expr "$build"/bench/bench_nonzero \
      "$build"/bench/bench_scatter "$build"/bench/bench_searchsorted \
      "$build"/bench/bench_ragged_reduce "$build"/bench/bench_indexing; do
      [[ -x $bench ]] || continue
      name=$(basename "$bench")
      OMP_NUM_THREADS=$threads TESSERA_BENCH_TORCH_THREADS=$threads "$bench" \
        --benchmark_filter='-Cuda' --benchmark_min_time=0.1 --benchmark_repetitions=3 \
        --benchmark_out="$out/host_${name}_t$threads.json" --benchmark_out_format=json \
        >>"$out/host_scaling.log" 2>&1 || echo "$name at $threads threads failed" >&2
    done
  done
  python3 "$ROOT/bench/scaling.py" "$out"/host_*_t*.json | tee "$out/host_scaling.md" ||
    echo "scaling table failed" >&2
}

case ${1:-} in
  stage) stage ;;
  run) shift; run "$@" ;;
  *) sed -n '2,17p' "$0"; exit 2 ;;
esac
