# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# libFuzzer targets, one per parser; run by 'make fuzz' (the seed corpora are replayed by
# make check: tests/unit/test_*_corpus.c include each target and feed it its seeds).
#
#   make fuzz                          build every target, run each for FUZZ_TIME seconds and
#                                      print one table (tests/fuzz/run.sh)
#   make fuzz FUZZ_TIME=600            a longer run
#   make fuzz FUZZ_TARGETS="json fw"   some targets only
#
# A target is tests/fuzz/fuzz_<name>.c (LLVMFuzzerTestOneInput); its seeds are in
# tests/fuzz/corpus-<name>/.  Each is linked with the whole library, built once here with
# clang under ASan+UBSan and coverage (libfuzz.a), so a target only pulls in what it calls.
# What the fuzzer finds goes to tests/fuzz/build/corpus-<name>/, crashes to
# tests/fuzz/build/crash-<name>-*.  A crash becomes a fixture: copy it into the seed corpus
# and add a unit test for it.

CLANG        ?= clang
FUZZ_TIME    ?= 60
FB           := tests/fuzz/build
FUZZ_ALL     := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_PKG_CFLAGS := $(shell pkg-config --cflags libmnl libdeflate libpcap libtracefs libtraceevent 2>/dev/null)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -D_GNU_SOURCE -DRDIAG_VERSION='"fuzz"' -Ilib/include -Ilib \
	-Itools $(FUZZ_PKG_CFLAGS) $(FUZZ_SAN)
FUZZ_LIBS    := $(shell pkg-config --libs libmnl libdeflate libtracefs libtraceevent 2>/dev/null || echo -lmnl -ldeflate -ltracefs -ltraceevent) -lpcap -ldl -lm

# the library and the tools' common code, instrumented (fuzzer-no-link: coverage, no main)
FUZZ_LIB_SRC := $(sort $(wildcard lib/*/*.c) lib/counters/catalog_index.c)
FUZZ_LIB_OBJ := $(patsubst %.c,$(FB)/obj/%.o,$(FUZZ_LIB_SRC))
# (every tool room's files but its main.c: a target may call a tool's printer)
FUZZ_COMMON_SRC := $(sort $(wildcard tools/common/*.c) $(filter-out %/main.c,$(wildcard tools/*/*.c)))
FUZZ_COMMON_OBJ := $(patsubst %.c,$(FB)/obj/%.o,$(FUZZ_COMMON_SRC))

.PHONY: fuzz-run fuzz-build clean
fuzz-run: fuzz-build
	@tests/fuzz/run.sh $(FB) $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-build: $(addprefix $(FB)/fuzz_,$(FUZZ_TARGETS))

$(FB)/obj/%.o: %.c $(wildcard lib/include/rdmadiag/*.h lib/*/*.h tools/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FB)/libfuzz.a: $(FUZZ_LIB_OBJ) $(FUZZ_COMMON_OBJ)
	@rm -f $@ && ar rcs $@ $^

# a target may include a tool's or a module's source (to reach its static parsers): rebuild
# it when any source changes
$(FB)/fuzz_%: tests/fuzz/fuzz_%.c $(FB)/libfuzz.a $(wildcard tests/fuzz/*.h tools/*/*.c tools/*/*.h tui/*.c tui/*.h)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_CFLAGS_$*) -o $@ $< $(FB)/libfuzz.a \
		$(FUZZ_LIBS) $(FUZZ_LIBS_$*)

clean:
	rm -rf $(FB)

# fuzz_cmdline: each tool's main() renamed <tool>_main, exit/getopt_long/atexit wrapped
# (tests/fuzz/fuzz_cmdline.c says why)
FUZZ_TOOL_NAMES := $(sort $(patsubst tools/%/main.c,%,$(wildcard tools/*/main.c)))
FUZZ_TOOL_OBJ := $(patsubst %,$(FB)/obj/tools/%.main.o,$(FUZZ_TOOL_NAMES)) $(FB)/obj/tui/rdmatop.main.o \
	$(patsubst %.c,$(FB)/obj/%.o,$(filter-out tui/main.c,$(sort $(wildcard tui/*.c))))
FUZZ_CURSES_CFLAGS := $(shell pkg-config --cflags ncursesw 2>/dev/null)
FUZZ_CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
$(FB)/obj/tools/%.main.o: tools/%/main.c $(wildcard lib/include/rdmadiag/*.h tools/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Dmain=$*_main -c -o $@ $<
$(FB)/obj/tui/rdmatop.main.o: tui/main.c $(wildcard tui/*.h)
	@mkdir -p $(dir $@)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) $(FUZZ_CURSES_CFLAGS) -Itui -fsanitize=fuzzer-no-link \
		-Dmain=rdmatop_main -c -o $@ $<
$(FB)/obj/tui/%.o: FUZZ_CFLAGS += $(FUZZ_CURSES_CFLAGS) -Itui
$(FB)/fuzz_cmdline: $(FUZZ_TOOL_OBJ)
FUZZ_LIBS_cmdline = $(FUZZ_TOOL_OBJ) -Wl,--wrap=exit,--wrap=getopt_long,--wrap=atexit \
	$(FB)/libfuzz.a $(FUZZ_CURSES_LIBS) $(FUZZ_LIBS)

# fuzz_webconfig includes the agent's webconfig.c (libyaml, GnuTLS, libxcrypt); fuzz_httpreq
# calls route.c, which needs nothing beyond the C library
FUZZ_AGENT_LIBS := $(shell pkg-config --libs yaml-0.1 gnutls 2>/dev/null || echo -lyaml -lgnutls) -lcrypt -lpthread
FUZZ_LIBS_webconfig = $(FUZZ_AGENT_LIBS)
