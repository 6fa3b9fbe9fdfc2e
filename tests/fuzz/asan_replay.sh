#!/usr/bin/env bash
# Build replay binaries of the fuzz harnesses with the fuzz build's instrumentation (ASan, UBSan,
# coverage callbacks) but without libFuzzer: tests/fuzz/replay_main.c linked against
# BUILD_DIR/libfanout.a (make fuzz). Replaying a fixed corpus with them gives a repeatable CPU
# cost per input under the sanitizers (no mutation, no corpus growth), to compare library or
# harness changes by `/usr/bin/time -f '%U %S'` where instruction counters are not available
# (perf stat -e instructions is not supported on the development host; valgrind does not run
# ASan binaries). Usage, from the repository root:
#   tests/fuzz/asan_replay.sh BUILD_DIR OUT_DIR HARNESS...   -> OUT_DIR/r_<harness>
#   ASAN_OPTIONS=allocator_may_return_null=1 FO_FUZZ_TMPDIR=$(mktemp -d /dev/shm/x.XXXX) \
#     /usr/bin/time -f '%U %S' OUT_DIR/r_typed_import tests/fuzz/corpus/typed_import
set -euo pipefail
BUILD=${1:?usage: tests/fuzz/asan_replay.sh BUILD_DIR OUT_DIR HARNESS...}
OUT=${2:?usage: tests/fuzz/asan_replay.sh BUILD_DIR OUT_DIR HARNESS...}
shift 2
mkdir -p "$OUT"
MPI_INC=$(pkg-config --cflags-only-I ompi-c 2>/dev/null || echo -I/usr/lib/x86_64-linux-gnu/openmpi/include)
MPI_LIB=$(pkg-config --libs ompi-c 2>/dev/null || echo -L/usr/lib/x86_64-linux-gnu/openmpi/lib -lmpi)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
for h in "$@"; do
  # shellcheck disable=SC2086
  clang -O2 -g -std=c11 -D_GNU_SOURCE -fvisibility=hidden -fsanitize=fuzzer-no-link $SAN \
    -Iinclude -Isrc -Itests/fuzz $MPI_INC "tests/fuzz/fuzz_$h.c" tests/fuzz/replay_main.c \
    -o "$OUT/r_$h" "$BUILD/tests/fuzz/libfo_fuzz_support.a" "$BUILD/libfanout.a" \
    $MPI_LIB -lhwloc -ljansson -lxxhash -lz -lm -ldl
done
