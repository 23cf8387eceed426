# rtipc top-level commands. Everything builds through CMake; this file only
# names the configurations and installs missing Debian packages first.
#   make check   build Release, ASan+UBSan and TSan, run every test in each
#                (model checks in Release; the differential suite compares the
#                Linux port with the recorded FreeRTOS V11.3.0 output), the
#                bare-metal Cortex-M3 checks under QEMU (check-mcu), the
#                two-hart RV32 target under QEMU (check-rv32), the checks
#                that need a FreeRTOS kernel (check-freertos: skipped, saying
#                so, when FREERTOS_KERNEL_PATH is not set), the ESP32 app under
#                QEMU (check-esp32: skipped, saying so, without ESP32_TOOLS),
#                then the fuzzers briefly
#   make check-freertos  with FREERTOS_KERNEL_PATH=<FreeRTOS-Kernel checkout>:
#                the differential suite against that kernel, the FreeRTOS
#                port's checks on the POSIX simulator (rtipc_freertos_check) and
#                the Cortex-M3 FreeRTOS firmwares under QEMU
#                (scripts/check-freertos.sh; FREERTOS_CHECKS="sim diff cm3"
#                picks some); without the variable it prints what it skipped
#   make record-kernel-output  with FREERTOS_KERNEL_PATH: record that kernel's
#                output of the differential suite in
#                tests/differential/kernel-output/ (after editing scenarios)
#   make build   Release build only
#   make install install the library (static and shared), its headers, the
#                CMake package and rtipc.pc under PREFIX (default /usr/local),
#                staged under DESTDIR when set: builds what it installs, so it
#                works after `make bench` too
#   make bench   build Release and run the default rtipc-bench suite; tables on
#                stdout and in results/latest.txt, JSON in results/latest.json,
#                the HTML report in results/index.html (each file replaced only
#                by a complete one: scripts/keep-output.sh, bench/results/outfile.h)
#   make check-fuzz  the libFuzzer harnesses, FUZZ_SECONDS each (part of check)
#   make fuzz    the same for FUZZ_LONG_SECONDS each, keeping what they find
#   make soak    build Release and run rtipc-soak for DURATION (default 30m);
#                output in results/soak-<date>.txt, JSON in results/soak-latest.json
#   make mcu     build rtipc-cm3-bare-bench for Cortex-M3 and run it twice under
#                QEMU (mps2-an385); tables on stdout, JSON in
#                results/mcu-latest.json, code sizes in results/mcu-size.*
#                (MCU_TIMEOUT seconds per QEMU run, default 120)
#   make check-rv32  the two-hart RV32 target under QEMU virt (docs/rv32-virt.md):
#                the bare-metal lock-free firmware and fault report, then, with
#                FREERTOS_KERNEL_PATH (and the community ports beside it, or
#                FREERTOS_PORTS_PATH), the FreeRTOS SMP boot, conformance and
#                cross-core stress firmwares and rtipc-bench's quick suite on
#                them, validated and audited (scripts/check-rv32.sh); part of
#                `make check`
#   make check-esp32  with ESP32_TOOLS=<folder laid out as ../shared/vendor/esp32>:
#                the ESP-IDF component and the ESP32 app built with that
#                ESP-IDF, the app run on Espressif's QEMU with both cores, its
#                JSON validated, audited and compared (scripts/check-esp32.sh,
#                docs/esp32.md), then in direct mode on the ESP32 and the S3
#                (round-trip's ratios at most 1.10x), then on the ESP32 with
#                ESP-IDF's default sdkconfig and with the Arduino core's
#                values (the whole quick suite); part of `make check`
#   make check-arduino  with ESP32_TOOLS: the Arduino library assembled
#                (scripts/arduino-library.sh) and compiled as the Arduino IDE
#                compiles it, with the Arduino core's settings
#                (scripts/check-arduino.sh, docs/arduino.md); part of `make check`
#   make check-builds  rtipc built as its users build it: the library alone
#                with a C compiler, as a subproject (no -Werror on a consumer),
#                rtipc-bench with RTIPC_BENCH_PEERS=OFF, the tree with clang-19
#                (scripts/check-builds.sh); part of `make check`
#   make clean   remove build/

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build

# Stress tests move 10^6 messages per primitive in the Release build; the
# sanitizer builds run them at this fraction (races show at any count, and the
# instrumented runs are 5-20x slower).
SANITIZER_STRESS_SCALE ?= 0.2

# Timing assertions (timeouts, tick phases, watchdog silence) can miss on a
# noisy shared VM; a failing test is run once more and fails only if it fails
# again. A real bug that shows only once in two runs is still reported in the
# log as the first failure.
CTEST_FLAGS ?= --repeat until-pass:2

BUILD_DEPS := cmake make gcc g++ clang libclang-rt-14-dev pkg-config libcmocka-dev libcjson-dev
# The HTML report's charts (gnuplot), and its test (xmllint, headless Chromium).
BUILD_DEPS += gnuplot-nox libxml2-utils chromium
# rtipc-bench scope's sigrok session reader, and sigrok-cli for its tests.
BUILD_DEPS += libsigrok-dev sigrok-cli
# Per-operation instruction counts (tests/perf).
BUILD_DEPS += valgrind
# The lock-free queue libraries rtipc-bench's `peers` experiment measures
# (ck_ring, boost::lockfree::spsc_queue, atomic_queue, moodycamel's
# ReaderWriterQueue and ConcurrentQueue, userspace RCU's cds_wfcq).
BUILD_DEPS += libck-dev libboost-dev libatomic-queue-dev libreaderwriterqueue-dev libconcurrentqueue-dev liburcu-dev
# Model checker for the lock-free protocols (tests/model, CTest label model).
BUILD_DEPS += spin
# The bare-metal Cortex-M3 target under QEMU (make mcu, docs/mcu.md).
BUILD_DEPS += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# The two-hart RV32 target under QEMU's virt machine (make check-rv32, docs/rv32-virt.md).
BUILD_DEPS += gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc
SHELL := /bin/bash

.PHONY: all build install bench check check-release check-asan check-tsan check-fuzz fuzz deps clean soak mcu check-mcu \
        check-freertos record-kernel-output check-rv32 check-esp32 check-arduino check-builds

# Extra options for rtipc-bench (e.g. BENCH_FLAGS="--cpus 2,3 --tick-hz 100").
BENCH_FLAGS ?=
RESULTS ?= results

all: build

deps:
	@./scripts/install-deps.sh $(BUILD_DEPS)

# rtipc's own gate: warnings are errors and every part that is on must
# build (a consumer's build has neither: CMakeLists.txt, RTIPC_WERROR).
OWN_GATE := -DRTIPC_WERROR=ON -DRTIPC_REQUIRE_DEPS=ON

# configure DIR, then build it: $(call cmake_build,dir,extra cmake args)
define cmake_build
	cmake -S . -B $(BUILD)/$(1) -DCMAKE_BUILD_TYPE=$(2) $(OWN_GATE) $(3) >/dev/null
	cmake --build $(BUILD)/$(1) -j$(JOBS)
endef

build: deps
	$(call cmake_build,release,Release,-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++)

# Where `make install` puts rtipc; DESTDIR stages it (packaging).
PREFIX ?= /usr/local
DESTDIR ?=
install: deps
	cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release $(OWN_GATE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD)/release -j$(JOBS) --target rtipc_static rtipc_shared
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)/release

bench: deps
	cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release $(OWN_GATE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null
	cmake --build $(BUILD)/release -j$(JOBS) --target rtipc-bench
	@mkdir -p $(RESULTS)
	scripts/keep-output.sh $(RESULTS)/latest.txt $(BUILD)/release/bench/rtipc-bench run --json $(RESULTS)/latest.json --csv $(RESULTS)/latest.csv --report $(RESULTS) $(BENCH_FLAGS)

# Soak: every object under randomized load for DURATION (seconds, or 30m, 2h).
DURATION ?= 30m
SOAK_FLAGS ?=
soak: deps
	cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release $(OWN_GATE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null
	cmake --build $(BUILD)/release -j$(JOBS) --target rtipc-soak
	@mkdir -p $(RESULTS)
	set -o pipefail; $(BUILD)/release/tests/soak/rtipc-soak --duration $(DURATION) --json $(RESULTS)/soak-latest.json $(SOAK_FLAGS) 2>&1 | tee $(RESULTS)/soak-$$(date -u +%Y%m%d-%H%M%S).txt

# Tests run one at a time: stress and timing tests need both cores.
check-release: deps
	$(call cmake_build,release,Release,-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++)
	cd $(BUILD)/release && ctest --output-on-failure $(CTEST_FLAGS)

check-asan: deps
	$(call cmake_build,asan,RelWithDebInfo,-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DRTIPC_SANITIZE=address)
	cd $(BUILD)/asan && RTIPC_STRESS_SCALE=$(SANITIZER_STRESS_SCALE) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure $(CTEST_FLAGS)

check-tsan: deps
	$(call cmake_build,tsan,RelWithDebInfo,-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRTIPC_SANITIZE=thread)
	cd $(BUILD)/tsan && RTIPC_STRESS_SCALE=$(SANITIZER_STRESS_SCALE) TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --output-on-failure $(CTEST_FLAGS)

# libFuzzer harnesses (tests/fuzz/README.md): clang, ASan + UBSan, each
# harness run FUZZ_SECONDS after replaying its checked-in corpus; `make fuzz`
# runs FUZZ_LONG_SECONDS per harness and keeps what it finds in
# $(BUILD)/fuzz/corpus-*.
FUZZ_SECONDS ?= 60
FUZZ_LONG_SECONDS ?= 900
define fuzz_build
	cmake -S . -B $(BUILD)/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo $(OWN_GATE) -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DRTIPC_FUZZ=ON -DRTIPC_BUILD_TESTS=OFF -DRTIPC_BUILD_BENCH=OFF >/dev/null
	cmake --build $(BUILD)/fuzz -j$(JOBS) --target fuzz_api fuzz_compare_json
endef

check-fuzz: deps
	$(fuzz_build)
	FUZZ_BUILD_DIR=$(BUILD)/fuzz tests/fuzz/run.sh $(FUZZ_SECONDS)

fuzz: deps
	$(fuzz_build)
	FUZZ_BUILD_DIR=$(BUILD)/fuzz FUZZ_KEEP_CORPUS=1 tests/fuzz/run.sh $(FUZZ_LONG_SECONDS)

# Bare-metal Cortex-M3 (docs/mcu.md): the firmware, and the host tools that
# check its output (validate_bench_json, rtipc-bench compare) from the
# Release build. Two runs must print byte-identical output.
define mcu_build
	cmake -S targets/mps2-an385/bare -B $(BUILD)/mcu -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/targets/mps2-an385/board/toolchain.cmake -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD)/mcu -j$(JOBS)
	cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release $(OWN_GATE) -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ >/dev/null
	cmake --build $(BUILD)/release -j$(JOBS) --target validate_bench_json rtipc-bench
endef
MCU_RUN = scripts/mcu-run.sh $(BUILD)/mcu/rtipc-cm3-bare-bench.elf

mcu: deps
	$(mcu_build)
	$(MCU_RUN) $(RESULTS)/mcu-latest.json $(BUILD)/release/tests/validate_bench_json $(BUILD)/release/bench/rtipc-bench
	scripts/mcu-size.sh $(RESULTS)

check-mcu: deps
	$(mcu_build)
	$(MCU_RUN) $(BUILD)/mcu/check.json $(BUILD)/release/tests/validate_bench_json $(BUILD)/release/bench/rtipc-bench \
		$(BUILD)/mcu/rtipc-mcu-fault.elf
	scripts/mcu-size.sh $(BUILD)/mcu

# The checks that need a FreeRTOS kernel (FREERTOS_KERNEL_PATH; CI sets it to
# the vendored V11.3.0): the kernel is only read, build trees go to $(BUILD).
check-freertos: deps
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-freertos.sh

check-rv32: deps
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-rv32.sh

# The ESP32 app under Espressif's QEMU, both cores (docs/esp32.md): with
# ESP32_TOOLS set to a folder laid out as ../shared/vendor/esp32 (CI sets it),
# else skipped, saying so.
check-esp32: deps
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-esp32.sh
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-esp32.sh --direct --board esp32 --board esp32s3
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-esp32.sh --config idf-defaults --board esp32
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-esp32.sh --config arduino --board esp32

# The Arduino library (docs/arduino.md) assembled and compiled as the
# Arduino IDE compiles it, with the ESP32 tools of ESP32_TOOLS (else
# skipped, saying so).
check-arduino: deps
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-arduino.sh

# rtipc built as its users build it: the library alone with a C compiler,
# as a consumer's subproject without -Werror, rtipc-bench without its
# optional peers, and the whole tree with the newest clang Debian packages
# (scripts/check-builds.sh; it installs clang-19).
check-builds: deps
	BUILD=$(BUILD) JOBS=$(JOBS) scripts/check-builds.sh

record-kernel-output: deps
	BUILD=$(BUILD) JOBS=$(JOBS) FREERTOS_CHECKS=diff scripts/check-freertos.sh --record

check: check-release check-builds check-mcu check-rv32 check-freertos check-esp32 check-arduino check-asan check-tsan check-fuzz
	@echo "rtipc: all test builds passed (Release gcc, the library alone and as a subproject, rtipc-bench without its peers, clang-19, bare-metal Cortex-M3 under QEMU, two-hart RV32 under QEMU, FreeRTOS kernel checks$(if $(FREERTOS_KERNEL_PATH),, skipped: FREERTOS_KERNEL_PATH not set), ESP32 app under QEMU and the Arduino library's build$(if $(ESP32_TOOLS),, skipped: ESP32_TOOLS not set), ASan+UBSan gcc, TSan clang, libFuzzer harnesses)"

clean:
	rm -rf $(BUILD)
