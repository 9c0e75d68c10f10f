#!/usr/bin/env bats
# rdmadump's outputs over the real rxe capture, byte for byte against tests/fixtures/rdmadump/.
# After a deliberate format change: tests/fixtures/rdmadump/regen.sh, then review the diff.
load helper

CAP="$FIX/rxe/rxe_sample.pcap"
GOLD="$FIX/rdmadump"

golden() {
	local out=$1
	shift
	run bash -c 'diff -u "$1" <(rdmadump "${@:2}" -r "$0")' "$CAP" "$GOLD/$out" "$@"
	assert_success
}

@test "golden: default lines" { golden rxe_sample.txt; }
@test "golden: -v" { golden rxe_sample.v.txt -v; }
@test "golden: -j" { golden rxe_sample.jsonl -j; }
@test "golden: -q summary" { golden rxe_sample.summary.txt -q; }
@test "golden: -q -j summary" { golden rxe_sample.summary.json -q -j; }
@test "golden: --errors" { golden rxe_sample.errors.txt --errors; }
@test "golden: --qp 18" { golden rxe_sample.qp18.txt --qp 18; }
@test "golden: -j with two --opcode" { golden rxe_sample.read.jsonl -j --opcode RC_RDMA_READ_REQUEST --opcode 0x0f; }

@test "the golden cases are the ones regen.sh writes" {
	for f in "$GOLD"/rxe_sample.*; do
		grep -q "^$(basename "$f")" "$GOLD/regen.sh" || fail "$(basename "$f") is not in regen.sh"
	done
}
