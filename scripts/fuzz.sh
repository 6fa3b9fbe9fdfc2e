#!/usr/bin/env bash
# Run the libFuzzer harnesses of tests/fuzz (built by `make fuzz` into BUILD_DIR), each for
# SECONDS, one after the other, and print one line per harness: executions, coverage (cov:
# edges, ft: features) and the corpus size. Usage:
#   scripts/fuzz.sh BUILD_DIR SECONDS [HARNESS...]      (default: every harness)
# New corpus entries go to BUILD_DIR/corpus/<harness> (not the repository); a crash is written
# to BUILD_DIR/artifacts/<harness>-crash-<sha1> and makes the script exit 1 after the others
# ran. To keep one as a regression: copy it to tests/fuzz/regress/<harness>/<what-it-breaks>,
# fix the library, and the replay tests (ctest -L fuzz) run it from then on.
# Environment: FUZZ_FLAGS (extra libFuzzer flags, e.g. -runs=10000000), FUZZ_LOGS (where the
# libFuzzer logs go; default BUILD_DIR/logs).
set -uo pipefail

BUILD=${1:?usage: scripts/fuzz.sh BUILD_DIR SECONDS [HARNESS...]}
SECS=${2:?usage: scripts/fuzz.sh BUILD_DIR SECONDS [HARNESS...]}
shift 2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HARNESSES=("$@")
[ ${#HARNESSES[@]} -eq 0 ] && HARNESSES=(npy_header wire npy_edges ogb typed_import edgelist mtx planetoid manifest typed_manifest book dataset typed_files supervision)

# a request for an absurd amount of memory is a status (FO_ENOMEM) in fanout, as on a real
# machine: let malloc return NULL rather than abort inside ASan
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
printf '%-11s %12s %8s %8s %8s %s\n' harness executions exec/s cov ft corpus
for h in "${HARNESSES[@]}"; do
  exe="$BUILD/tests/fuzz/fuzz_$h"
  [ -x "$exe" ] || { echo "fuzz: $exe not built (make fuzz)" >&2; exit 2; }
  logs=${FUZZ_LOGS:-$BUILD/logs}
  mkdir -p "$BUILD/corpus/$h" "$BUILD/artifacts" "$logs"
  log="$logs/$h.log"
  maxlen=()
  case $h in book | dataset) maxlen=(-max_len=1024) ;; esac
  dirs=("$BUILD/corpus/$h" "$ROOT/tests/fuzz/corpus/$h")
  [ -d "$ROOT/tests/fuzz/regress/$h" ] && dirs+=("$ROOT/tests/fuzz/regress/$h")
  # the harness's fixtures and work files (tests/fuzz/fuzz.c) live here; libFuzzer's exit
  # skips the harness's own clean-up, so the script removes them
  base=/dev/shm
  [ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
  tmp=$(mktemp -d "$base/fo-fuzz-run.XXXXXX")
  # shellcheck disable=SC2086
  FO_FUZZ_TMPDIR=$tmp "$exe" -max_total_time="$SECS" -print_final_stats=1 -timeout=60 "${maxlen[@]}" \
    -artifact_prefix="$BUILD/artifacts/$h-" ${FUZZ_FLAGS:-} "${dirs[@]}" >"$log" 2>&1
  rc=$?
  rm -rf "$tmp"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  printf '%-11s %12s %8s %8s %8s %s\n' "$h" "${execs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}"
  if [ $rc -ne 0 ]; then
    failed+=("$h")
    echo "fuzz: $h FAILED (exit $rc): $(grep -E 'SUMMARY|ERROR:' "$log" | head -2 | tr '\n' ' ')" >&2
    echo "fuzz:   log $log; input: $(grep -o "Test unit written to [^ ]*" "$log" | tail -1)" >&2
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in: ${failed[*]}" >&2
  exit 1
fi
