# libFuzzer targets of the packet layer; run by 'make fuzz' (not part of make check).
#
#   make fuzz                   build both targets, run each for FUZZ_TIME seconds
#   make fuzz FUZZ_TIME=600     a longer run
#   make fuzz FUZZ_TARGETS=packet
#
# fuzz_packet: one frame through rdiag_pkt_decode (byte 0 picks the link type).
# fuzz_pcap:   a whole capture file through rdiag_capture_open + decode + flow analysis.
# Seeds are in tests/fuzz/corpus-<target>/ (tests/fuzz/mk_seeds.py writes them); what the
# fuzzer finds goes to tests/fuzz/build/corpus-<target>/, crashes to tests/fuzz/build/crash-*.
# A crash becomes a fixture: copy it into the seed corpus and add a unit test for it.

CLANG        ?= clang
FUZZ_TIME    ?= 60
FUZZ_TARGETS ?= packet pcap
FB           := tests/fuzz/build
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -D_GNU_SOURCE -Ilib/include -Ilib \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
PACKET_SRC   := $(sort $(wildcard lib/packet/*.c))
CAPTURE_SRC  := $(sort $(wildcard lib/capture/*.c lib/flow/*.c))

.PHONY: fuzz-run fuzz-build clean
fuzz-run: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FB)/corpus-$$t; \
		echo "  FUZZ   fuzz_$$t for $(FUZZ_TIME) s (log: $(FB)/fuzz_$$t.log)"; \
		if ! $(FB)/fuzz_$$t -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix=$(FB)/crash-$$t- \
			$(FB)/corpus-$$t tests/fuzz/corpus-$$t > $(FB)/fuzz_$$t.log 2>&1; then \
			tail -n 40 $(FB)/fuzz_$$t.log; \
			echo "fuzz_$$t: FAILED, reproducer in $(FB)/crash-$$t-*"; exit 1; \
		fi; \
		grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|DONE' $(FB)/fuzz_$$t.log | \
			sed 's/^/         /'; \
		echo "         corpus: $$(ls $(FB)/corpus-$$t | wc -l) found + $$(ls tests/fuzz/corpus-$$t | wc -l) seeds, no crash"; \
	done

fuzz-build: $(FB)/fuzz_packet $(FB)/fuzz_pcap

$(FB)/fuzz_packet: tests/fuzz/fuzz_packet.c $(PACKET_SRC) $(wildcard lib/packet/*.h)
	@mkdir -p $(FB)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_packet.c $(PACKET_SRC) -ldeflate

$(FB)/fuzz_pcap: tests/fuzz/fuzz_pcap.c $(PACKET_SRC) $(CAPTURE_SRC) $(wildcard lib/packet/*.h lib/capture/*.h lib/flow/*.h)
	@mkdir -p $(FB)
	@echo "  CLANG  $@"
	@$(CLANG) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_pcap.c $(PACKET_SRC) $(CAPTURE_SRC) -lpcap -ldeflate -lm

clean:
	rm -rf $(FB)
