#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds and runs the libFuzzer targets of tests/fuzz (clang, ASan + UBSan).
#
#   scripts/fuzz.sh [--build DIR] [--seconds N | --runs N] [--jobs J] [--no-build] [TARGET...]
#
# TARGET: searchsorted bucketize nonzero scatter ragged npy (default: all). Each target runs for
# N seconds (default 20) or N executions, J at a time (default 2), starting from the seed corpus
# tests/fuzz/seeds/TARGET (made by tools/fuzz_seeds.py from the golden cases, for npy from files
# NumPy wrote) copied into DIR/corpus/TARGET, which keeps what a run finds for the next one.
# Crash inputs land in DIR/crashes/. Prints executions, seconds and exec/s per target; exits
# non-zero when any target found a crash, leak, timeout or wrong answer. DIR (default
# build-fuzz) is configured when it has no build.ninja: CC=clang CXX=clang++ -DTESSERA_FUZZ=ON
# -DTESSERA_SANITIZE=address,undefined -DTESSERA_CUDA=OFF, -O1 -g1; an existing tree (CI's
# sanitize tree) is used as it is.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly ROOT=$PWD
BUILD=$ROOT/build-fuzz
SECONDS_EACH=20
RUNS=""
JOBS=2
DO_BUILD=1
TARGETS=()
while (($#)); do
  case $1 in
    --build) BUILD=$(realpath -m "$2"); shift 2 ;;
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --no-build) DO_BUILD=0; shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
((${#TARGETS[@]})) || TARGETS=(searchsorted bucketize nonzero scatter ragged npy)

if ((DO_BUILD)); then
  if [[ ! -f $BUILD/build.ninja ]]; then
    CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -G Ninja -DTESSERA_FUZZ=ON \
      -DTESSERA_SANITIZE=address,undefined -DTESSERA_CUDA=OFF -DTESSERA_BUILD_BENCH=OFF \
      -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_EXAMPLES=OFF \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
  fi
  cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]/#/fuzz_}"
fi

# A run must fail on the first report. allocator_may_return_null: a request beyond memory is
# the library's to report (as tessera::Error), not ASan's to abort on. Leaks are findings.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:allocator_may_return_null=1:print_stacktrace=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The host kernels' OpenMP pool: two threads, so parallel paths (and their races) run too.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

mkdir -p "$BUILD/crashes" "$BUILD/logs"
run_one() {  # run_one TARGET: fuzz it, leave its log in $BUILD/logs/TARGET.log
  local t=$1 corpus=$BUILD/corpus/$1
  mkdir -p "$corpus"
  if [[ -d $ROOT/tests/fuzz/seeds/$t ]]; then cp -n "$ROOT/tests/fuzz/seeds/$t"/* "$corpus"/ 2>/dev/null || true; fi
  local -a limit
  if [[ -n $RUNS ]]; then limit=(-runs="$RUNS"); else limit=(-max_total_time="$SECONDS_EACH"); fi
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: ASan's shadow included.
  # -entropic=0: the entropic schedule's bookkeeping (UpdateFeatureFrequency, AddRareFeature)
  # took 53 % of fuzz_searchsorted's time in perf; without it the targets run ~3.5x as many
  # inputs per second. FUZZ_FLAGS adds (or overrides) libFuzzer flags.
  # shellcheck disable=SC2086
  "$BUILD/tests/fuzz/fuzz_$t" "${limit[@]}" -timeout=10 -rss_limit_mb=4096 -max_len=1024 \
    -entropic=0 ${FUZZ_FLAGS:-} \
    -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$t-" "$corpus" \
    >"$BUILD/logs/$t.log" 2>&1
}

declare -A PIDS=()
status=0
running=0
for t in "${TARGETS[@]}"; do
  run_one "$t" &
  PIDS[$t]=$!
  running=$((running + 1))
  if ((running >= JOBS)); then
    wait -n || true
    running=$((running - 1))
  fi
done
declare -A RC=()
for t in "${TARGETS[@]}"; do
  if wait "${PIDS[$t]}"; then RC[$t]=0; else RC[$t]=$?; fi
done

printf '\n%-13s %12s %8s %10s %8s  %s\n' target executions seconds exec/s corpus result
for t in "${TARGETS[@]}"; do
  log=$BUILD/logs/$t.log
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}' || true)
  [[ -n $runs ]] || runs=$(grep -o '#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
  [[ -n $secs && $secs != 0 ]] || secs=${SECONDS_EACH}
  corpus=$(find "$BUILD/corpus/$t" -type f | wc -l)
  if ((RC[$t] == 0)); then result=ok; else result="FAILED (rc ${RC[$t]}, see $log)"; status=1; fi
  printf '%-13s %12s %8s %10s %8s  %s\n' "$t" "${runs:-?}" "$secs" \
    "$(( ${runs:-0} / (secs > 0 ? secs : 1) ))" "$corpus" "$result"
done
if ((status)); then
  for t in "${TARGETS[@]}"; do
    if ((RC[$t] != 0)); then
      echo "---- $t (last 40 lines of $BUILD/logs/$t.log)"
      tail -40 "$BUILD/logs/$t.log"
    fi
  done
fi
exit "$status"
