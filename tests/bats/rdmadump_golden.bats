#!/usr/bin/env bats
# rdmadump's outputs, byte for byte against tests/fixtures/rdmadump/: over the real rxe capture
# and over generated captures of every encapsulation.  The cases are listed in
# tests/fixtures/rdmadump/cases (output, capture, arguments); after a deliberate format change
# run tests/fixtures/rdmadump/regen.sh and review the diff.
load helper

GOLD="$FIX/rdmadump"

@test "golden outputs: every case in tests/fixtures/rdmadump/cases" {
	n=0
	while read -r out cap args; do
		[ -n "$out" ] || continue
		# shellcheck disable=SC2086
		run bash -c 'diff -u "$1" <(rdmadump "${@:3}" -r "$2")' - "$GOLD/$out" "$FIX/$cap" $args
		[ "$status" -eq 0 ] || fail "$out (rdmadump $args -r $cap) differs:
$output"
		n=$((n + 1))
	done < "$GOLD/cases"
	[ "$n" -ge 20 ]
}

@test "every golden file has its case, every case its golden file" {
	for f in "$GOLD"/*.txt "$GOLD"/*.json "$GOLD"/*.jsonl; do
		grep -q "^$(basename "$f") " "$GOLD/cases" || fail "$(basename "$f") is not in cases"
	done
	while read -r out _; do
		[ -f "$GOLD/$out" ] || fail "no golden file $out"
	done < "$GOLD/cases"
}

@test "golden: the text summary of go-back-N shows the gap, the resend, the duplicates and the two retries (after the NAK and the RNR NAK)" {
	run grep -F "PSN: 1 gaps (1 packets lost), 7 duplicates, 1 lost packets resent, 0 out of order, 2 go-back retries" "$GOLD/gen_go_back_n.txt"
	assert_success
}
