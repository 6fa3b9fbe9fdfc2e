# fanout: the two set-up commands of README.md (`make demo`, `make test`) and their parts.
# CMake does the real build; this file only strings the steps together.

JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
BUILD     ?= build
ASAN      ?= build-asan
TSAN      ?= build-tsan
WERROR    := $(if $(CI),ON,OFF)
FANOUT    := $(BUILD)/fanout
DEMO      := $(BUILD)/demo
FUZZ      ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all bootstrap build demo test test-asan test-tsan fuzz bench clean

all: build

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFO_WERROR=$(WERROR) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# Import the Cora graph shipped in data/, sample one batch, run a short benchmark.
demo: build
	@mkdir -p $(DEMO)
	$(FANOUT) import --format planetoid data/cora/cora.content.gz data/cora/cora.cites \
	  --undirected --csc --csr --force -o $(DEMO)/cora
	$(FANOUT) info $(DEMO)/cora
	$(FANOUT) verify $(DEMO)/cora
	$(FANOUT) sample $(DEMO)/cora --fanout 3,2 --seeds 0,1 --seed 7 --json
	$(FANOUT) bench $(DEMO)/cora --fanout 15,10,5 --batch-size 128 --seed 1

# The whole CTest suite, then again under AddressSanitizer + UndefinedBehaviorSanitizer, then
# the threaded tests (label "threads") under ThreadSanitizer, then a bounded fuzzing pass
# (15 s per harness).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=15

test-asan: bootstrap
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DFO_SANITIZE="address;undefined" \
	  -DFO_BUILD_BENCH=OFF -DFO_WERROR=$(WERROR) >/dev/null
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j $(JOBS) -LE netns

# Under ThreadSanitizer, mpi_transfer (a peer frozen in the middle of a large message, timed
# against twice a 3 s deadline) and the netns tests (4 s deadlines) miss their deadlines from
# TSan's slowdown alone; they run in the plain build and (mpi_transfer) under ASan.
test-tsan: bootstrap
	cmake -S . -B $(TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFO_SANITIZE=thread \
	  -DFO_BUILD_BENCH=OFF -DFO_WERROR=$(WERROR) >/dev/null
	cmake --build $(TSAN) -j $(JOBS)
	cd $(TSAN) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  ctest --output-on-failure -j $(JOBS) -L threads -LE netns -E '^mpi_transfer$$'

# libFuzzer harnesses of tests/fuzz (clang, ASan + UBSan) in $(FUZZ)/, each run for
# FUZZ_SECONDS (scripts/fuzz.sh; FUZZ_FLAGS passes libFuzzer flags). The corpus and regression
# inputs are also replayed by ctest (label fuzz) in every build.
fuzz: bootstrap
	cmake -S . -B $(FUZZ) -DCMAKE_C_COMPILER=clang -DFO_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DFO_WERROR=$(WERROR) >/dev/null
	cmake --build $(FUZZ) -j $(JOBS)
	scripts/fuzz.sh $(FUZZ) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN) $(TSAN) $(FUZZ)
