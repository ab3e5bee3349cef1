# gputop - build, test, install.
#
#   make            build build/gputop
#   make run        install missing packages, build, start gputop
#   make check      install missing packages, run the whole test suite
#                   (plain, ASan+UBSan, ThreadSanitizer, a few seconds of
#                   each fuzzer, and a warning-free clang build)
#   make fuzz       each libFuzzer harness for FUZZ_TIME seconds (clang)
#   make bench      collector CPU per tick, frames, /metrics, wake-ups,
#                   startup, ring
#   make bench-peer the whole process against an nvtop on PATH, one at a time
#                   (about 2 min, 3 with BENCH_BASELINE)
#   make soak       the dashboard under process churn for SOAK_TIME s (300),
#                   a GPU lost and back every SOAK_CYCLE s: RSS, descriptors
#                   and CPU per frame sampled into build/soak/soak.csv, fails
#                   if RSS or descriptors grow after the warm-up, frames
#                   cost too much or the GPU does not come back each time
#                   (not in check; its 60 s form,
#                   tests/integration/soak_short.sh, is)
#   make layers     the layers' include rules and names (part of check)
#   make deps       install missing build/test packages (Debian/Ubuntu)
#   make install / uninstall   (PREFIX=/usr/local, DESTDIR=)

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share/gputop
CC        ?= cc
CFLAGS    ?= -O2 -g
BUILD     ?= build
# SAN selects a sanitizer build: asan (AddressSanitizer + UBSan) or tsan.
SAN       ?=
# V=1 shows full compiler command lines.
Q         := $(if $(V),,@)

PKGS      := ncursesw libdrm libdrm_amdgpu libcjson libmicrohttpd zlib libcrypt
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wpointer-arith -Wundef -Wvla \
        -Wcast-align -Wwrite-strings

ifeq ($(SAN),asan)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(SAN),tsan)
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(SAN),fuzz)
# clang only: the objects the libFuzzer harnesses link (tests/fuzz/).
SAN_FLAGS := -fsanitize=fuzzer-no-link,address,undefined \
             -fno-sanitize-recover=all -fno-omit-frame-pointer
else
SAN_FLAGS :=
endif

ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN_FLAGS) \
              $(PKG_CFLAGS) -Isrc \
              -DGPUTOP_VERSION='"$(VERSION)"' -DGPUTOP_DATADIR='"$(DATADIR)"'
DEPFLAGS  := -MMD -MP
LDFLAGS   ?=
LIBS      := $(PKG_LIBS) -lpthread -ldl -lm

SRC      := $(wildcard src/*.c src/*/*.c)
OBJ      := $(SRC:%.c=$(BUILD)/%.o)
LIB_OBJ  := $(filter-out $(BUILD)/src/main.o,$(OBJ))
# Unit tests mirror the sources (tests/unit/<folder>/test_<module>.c); each
# builds to $(BUILD)/tests/test_<module>.
UNIT_SRC := $(wildcard tests/unit/test_*.c tests/unit/*/test_*.c \
              tests/integration/test_*.c)
UNIT_BIN := $(addprefix $(BUILD)/tests/,$(notdir $(UNIT_SRC:.c=)))
FAKE_SRC := $(wildcard tests/fake-nvml/*.c)
FAKE_LIB := $(BUILD)/fake-nvml/libnvidia-ml.so.1
STRESS_BIN := $(BUILD)/tests/stress_ring $(BUILD)/tests/stress_collector
BENCH_BIN := $(BUILD)/tests/bench
SMICMP_BIN := $(BUILD)/smicmp

.PHONY: all run check bench deps install uninstall clean tests tsan-tests \
        format lint layers

all: $(BUILD)/gputop

$(BUILD)/gputop: $(OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FAKE_LIB): $(FAKE_SRC) $(wildcard tests/fake-nvml/*.h) $(wildcard src/collectors/nvml_abi*.h)
	@mkdir -p $(dir $@)
	@echo "  SO      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared -pthread \
	    -Wl,-soname,libnvidia-ml.so.1 -o $@ $(FAKE_SRC) -lm
	$(Q)ln -sf libnvidia-ml.so.1 $(BUILD)/fake-nvml/libnvidia-ml.so

define test_rule
$(BUILD)/tests/$(notdir $(1:.c=)): $(1) $$(LIB_OBJ)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(ALL_CFLAGS) -Itests $$(DEPFLAGS) $$(LDFLAGS) -o $$@ $$< $$(LIB_OBJ) -lcmocka $$(LIBS)
endef
$(foreach t,$(UNIT_SRC),$(eval $(call test_rule,$(t))))

$(BUILD)/tests/stress_%: tests/stress/stress_%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

BENCH_SRC := tests/bench/bench.c tests/bench/bench_proc.c \
             tests/bench/bench_render.c tests/bench/bench_metrics.c \
             tests/bench/bench_prochist.c \
             tests/bench/bench_scrape.c
$(BENCH_BIN): $(BENCH_SRC) tests/bench/bench.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(BENCH_SRC) $(LIB_OBJ) $(LIBS)

# Compares a snapshot with nvidia-smi -q -x on real hardware
# (tests/hw/nvidia-validate.sh); tested against the fake NVML.
$(SMICMP_BIN): tests/hw/smicmp.c tests/hw/smi_xml.c tests/hw/smi_xml.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/hw/smicmp.c \
	    tests/hw/smi_xml.c $(LIBS)

# Times each NVML call the NVIDIA backend makes, and its whole sample, on a
# real driver (tests/hw/nvidia-validate.sh); tested against the fake NVML.
NVMLCOST_BIN := $(BUILD)/nvmlcost
$(NVMLCOST_BIN): tests/hw/nvmlcost.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

# The terminal tests' colour checker (tests/terminal/colours.sh and
# themes.sh read tmux captures with it): C, so CI needs no python.
SGRCHECK_BIN := $(BUILD)/sgrcheck
$(SGRCHECK_BIN): tests/tools/sgrcheck.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lm

# The layout test's screen checker (tests/terminal/layout.sh).
LAYOUTCHECK_BIN := $(BUILD)/layoutcheck
$(LAYOUTCHECK_BIN): tests/tools/layoutcheck.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

tests: $(BUILD)/gputop $(FAKE_LIB) $(UNIT_BIN) $(STRESS_BIN) $(SMICMP_BIN) $(NVMLCOST_BIN) \
       $(SGRCHECK_BIN) $(LAYOUTCHECK_BIN)

tsan-tests: $(FAKE_LIB) $(STRESS_BIN)

# The whole suite: plain build, then AddressSanitizer+UBSan, then the
# cross-thread tests under ThreadSanitizer, each fuzzer for 3 s on its
# corpus, and the same sources built with clang (warnings are errors).
# tests/run.sh prints one summary line of passed and failed tests and
# fails if any failed.
check: deps
	$(MAKE) --no-print-directory layers
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory tests
	$(MAKE) --no-print-directory BUILD=build/asan SAN=asan tests
	$(MAKE) --no-print-directory BUILD=build/tsan SAN=tsan tsan-tests
	$(MAKE) --no-print-directory fuzz-check
	$(MAKE) --no-print-directory BUILD=build/clang CC=clang tests
	tests/run.sh build build/asan build/tsan

# The architecture's arrows (docs/architecture.md): which folder of src/
# may include which, no include loop between modules, and every exported
# name named after its module.
layers: $(OBJ)
	tests/tools/layers.sh src
	tests/tools/names.sh $(BUILD) src

# BENCH_BASELINE=path/to/gputop measures an older build beside this one;
# BENCH_ONLY=part,... runs only those parts (tests/bench/bench.c).
# bench-peer: the whole process against an nvtop on PATH, each alone in
# tmux at 200x60, 30 s at each of 0.1 s and 1 s, three rounds judged on
# the median (BENCH_PEER_ROUNDS; about 7 min, 10 with a baseline; says so
# when there is no nvtop).
.PHONY: bench-peer
bench: deps $(BUILD)/gputop $(FAKE_LIB) $(BENCH_BIN)
	$(BENCH_BIN) $(abspath $(FAKE_LIB)) \
	    $(CURDIR)/tests/fake-nvml/scenarios/h100x8.scn $(abspath $(BUILD)/gputop)

bench-peer: deps $(BUILD)/gputop $(FAKE_LIB) $(BENCH_BIN)
	BENCH_ONLY=nvtop $(BENCH_BIN) $(abspath $(FAKE_LIB)) \
	    $(CURDIR)/tests/fake-nvml/scenarios/h100x8.scn $(abspath $(BUILD)/gputop)

# tests/soak/soak.sh: SOAK_TIME (here 600 s), SOAK_SAMPLE (5 s), SOAK_WARMUP
# (a fifth of the run), SOAK_CHURN (50 processes/s), SOAK_CYCLE (the
# lost/back period: a tenth of the run within 12-60 s), SOAK_SPIKES (the
# periods let over the frame bounds, 0 here); the bounds are in
# its header (RSS within 1 % or 256 KiB of the warm-up's, no rise of the
# descriptor floor, CPU per frame: here SOAK_DRAW_US 150, make bench's
# render target, and SOAK_THREAD_US 600). The suite's 60 s form keeps the
# script's own drawing bound, 450 us, for machines shared with other work,
# and lets one period pass over the bounds (SOAK_SPIKES=1).
.PHONY: soak
soak: deps $(BUILD)/gputop $(FAKE_LIB)
	SOAK_TIME=$${SOAK_TIME:-600} SOAK_DRAW_US=$${SOAK_DRAW_US:-150} \
	    tests/soak/soak.sh $(BUILD)

# Starts gputop on the real GPUs; with none, gputop explains why and shows
# its built-in demo machine.
run: deps all
	$(BUILD)/gputop $(ARGS)

# Debian/Ubuntu package names of what the build and the tests need.
DEB_PKGS := gcc make pkg-config libncurses-dev libdrm-dev libcjson-dev \
            libcmocka-dev libmicrohttpd-dev zlib1g-dev libcrypt-dev tmux \
            ncurses-term clang openssl cppcheck \
            prometheus curl python3 python3-yaml iproute2
deps:
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' \
	      || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "deps: installing$$missing"; \
	    SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing \
	      || { echo "deps: apt-get failed; install by hand:$$missing" >&2; exit 1; }; \
	  fi; \
	else \
	  if ! pkg-config --exists $(PKGS) cmocka 2>/dev/null; then \
	    echo "deps: not a Debian system; please install:"; \
	    echo "  Fedora: sudo dnf install gcc make pkgconf-pkg-config ncurses-devel ncurses-term libdrm-devel cjson-devel libcmocka-devel tmux"; \
	    echo "  Arch:   sudo pacman -S --needed gcc make pkgconf ncurses libdrm cjson cmocka tmux"; \
	    exit 1; \
	  fi; \
	fi

install: $(BUILD)/gputop
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/themes
	install -m 755 $(BUILD)/gputop $(DESTDIR)$(BINDIR)/gputop
	install -m 644 man/gputop.1 $(DESTDIR)$(MANDIR)/man1/gputop.1
	for t in themes/*.theme; do [ -e "$$t" ] || continue; \
	  install -m 644 "$$t" $(DESTDIR)$(DATADIR)/themes/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gputop $(DESTDIR)$(MANDIR)/man1/gputop.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

format:
	clang-format -i $(SRC) $(wildcard src/*.h src/*/*.h tests/*/*.c tests/*/*.h tests/*/*/*.c)

# libFuzzer harnesses (tests/fuzz/README.md), clang only, built with
# SAN=fuzz in their own folder: `make fuzz` runs each FUZZ_TIME seconds on
# its corpus (FUZZ_ONLY=name,... picks some), `make fuzz-check` (part of
# check) 3 seconds each. A crash fails the target and names its reproducer.
FUZZ_TIME  ?= 60
FUZZ_BUILD := build/fuzz
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN   := $(patsubst tests/fuzz/%.c,$(BUILD)/%,$(FUZZ_SRC))
.PHONY: fuzz fuzz-check fuzz-build fuzz-bins

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  FUZZ    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Itests/fuzz $(DEPFLAGS) \
	    $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

fuzz-bins: $(FUZZ_BIN)

fuzz-build:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) SAN=fuzz CC=clang fuzz-bins

fuzz: deps fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TIME)

fuzz-check: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) 3

-include $(FUZZ_BIN:=.d)

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
	    --std=c11 -D_GNU_SOURCE -Isrc --inline-suppr \
	    --suppress=missingIncludeSystem src

-include $(OBJ:.o=.d) $(UNIT_BIN:=.d)
