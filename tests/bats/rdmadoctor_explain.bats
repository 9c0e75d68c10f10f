#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor explain: completion-error lines quoted in public bug reports
# (tests/fixtures/explain/lines.tsv: source, line, status, first cause) explained one by one
# and as a log on standard input; the exit status says whether one was recognised.
load helper

LINES="$FIX/explain/lines.tsv"

# the fixture's rows: "source<TAB>line<TAB>status<TAB>cause"
rows() { grep -v '^#' "$LINES"; }

@test "every real line: explain -j gives the fixture's status and first cause" {
	local n=0 src line st cause
	while IFS=$'\t' read -r src line st cause; do
		run --separate-stderr rdmadoctor -j explain "$line"
		[ -z "$stderr" ] || fail "$src: stderr: $stderr"
		if [ "$cause" = "-" ]; then
			[ "$status" -eq 0 ] || fail "$src: exit $status for a line with no error: $line"
			[ "$(jq -r .recognised <<< "$output")" = false ] || fail "$src: $output"
			continue
		fi
		[ "$status" -eq 1 ] || fail "$src: exit $status: $line"
		got_st=$(jq -r '.status // "-"' <<< "$output")
		got_cause=$(jq -r .cause <<< "$output")
		[ "$got_st" = "$st" ] || fail "$src: status $got_st, expected $st"
		[ "$got_cause" = "$cause" ] || fail "$src: cause $got_cause, expected $cause"
		n=$((n + 1))
	done < <(rows)
	[ "$n" -ge 25 ]
}

@test "a log on stdin: each distinct error once, with its count and first line; exit 1" {
	rows | cut -f2 > "$BATS_TEST_TMPDIR/log"
	positives=$(rows | awk -F'\t' '$4 != "-"' | wc -l)
	run --separate-stderr rdmadoctor -j explain - < "$BATS_TEST_TMPDIR/log"
	assert_failure 1
	# the counts add up to the recognised lines, each object names its first line
	total=$(jq -s 'map(.count) | add' <<< "$output")
	[ "$total" -eq "$positives" ]
	first=$(jq -s -r '.[0].line_number' <<< "$output")
	[ "$first" -eq 1 ]
	# the UCX retry lines on mlx5_0 port 1 (four reports) are one explanation
	ucx=$(jq -s '[.[] | select(.printer == "ucx" and .status == 12 and .device == "mlx5_0")] | .[0].count' <<< "$output")
	[ "$ucx" -ge 2 ]
	line_of=$(jq -s -r '[.[] | select(.printer == "ucx" and .status == 12 and .device == "mlx5_0")] | .[0].line_number' <<< "$output")
	sed -n "${line_of}p" "$BATS_TEST_TMPDIR/log" | grep -q "Transport retry count exceeded on mlx5_0:1"
}

@test "a log with no completion error: exit 0 and says so" {
	printf 'hello\nexit status 1\n' | {
		run rdmadoctor explain -
		assert_success
		assert_output "no completion error recognised in 2 lines"
	}
	run rdmadoctor explain "nothing here"
	assert_success
	assert_output "no completion error recognised in this line"
}

@test "text: NCCL's line names the status, the vendor error's source and the peer to check" {
	run rdmadoctor explain "NCCL WARN NET/IB : Got completion from peer xxx.xxx.xxx.xxx<55921> with status=12 opcode=1 len=0 vendor err 129 (Send) localGid ::ffff:29.87.4.221 remoteGids::ffff:29.87.88.182"
	assert_failure 1
	assert_line --index 0 "IBV_WC_RETRY_EXC_ERR (12) transport retry counter exceeded  [status read from its number, printed by nccl]"
	assert_line --partial "vendor error 0x81 (129): timeout"
	assert_line --regexp "source: Mellanox support.*\(vendor statement\)$"
	assert_line "  peer 29.87.88.182"
	assert_line "  1. peer_unreachable: the peer cannot be reached at all: wrong destination GID or GID index (RoCE v1 on one side, v2 on the other), no route or ARP entry, a port down"
	assert_line "     check: rdmadoctor connect 29.87.88.182"
	# no device in the line: rdmastat looks at every device
	assert_line "     check: rdmastat -c retry_exceeded -c ack_timeout -c out_of_sequence -c retransmitted_packets -i 1"
}

@test "JSON: fields that do not apply are absent; a firmware command has its own object" {
	run rdmadoctor -j explain "NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129"
	assert_failure 1
	[ "$(jq -c 'has("mlx5_syndrome"), has("device"), has("peer"), has("firmware_command"), has("status_conflict")' <<< "$output" | tr -d '\n')" = falsefalsefalsefalsefalse ]
	[ "$(jq -c .vendor_err <<< "$output")" = '{"value":129,"meaning":"timeout: the transport retry counter was exceeded (no ACK came back)","source":"Mellanox support, quoted in NVIDIA/nccl#214 and on the OFED ewg list (2010-02); the value comes with status 12 in every public report","confidence":"vendor statement"}' ]
	run rdmadoctor -j explain "[145291.904971] mlx5_core 0000:04:00.0: mlx5_cmd_check:795:(pid 9993): RTR2RTS_QP(0x504) op_mod(0x0) failed, status bad parameter(0x3), syndrome (0x4bb88f)"
	assert_failure 1
	[ "$(jq -c .firmware_command <<< "$output")" = '{"name":"RTR2RTS_QP","opcode":1284,"status_str":"bad parameter","status":3,"syndrome":4962447,"verb":"ibv_modify_qp"}' ]
	[ "$(jq -c 'has("status")' <<< "$output")" = false ]
	[ "$(jq -r .cause <<< "$output")" = qp_attr_rejected ]
}

@test "text: control bytes of a log line are escaped" {
	printf 'completion status=12 \033[31mred\n' | {
		run rdmadoctor explain -
		assert_failure 1
		assert_line --index 0 'line 1: completion status=12 \033[31mred'
	}
}

@test "usage: explain needs exactly one argument (exit 2); unreadable stdin is exit 2" {
	run --separate-stderr rdmadoctor explain
	assert_failure 2
	[[ "$stderr" == "rdmadoctor: usage: explain 'LINE'"* ]]
	run --separate-stderr rdmadoctor explain a b
	assert_failure 2
	run --separate-stderr rdmadoctor explain - < "$BATS_TEST_TMPDIR"
	assert_failure 2
	[[ "$stderr" == "rdmadoctor: cannot read standard input: Is a directory" ]]
}

@test "an mlx5 CQE dump row: libmlx5's bare row, the kernel's in dmesg, the kernel's hex dump" {
	# rdma-core's mlx5 provider prints four words on the application's stderr (a bare row)
	run rdmadoctor explain -j "00000000 00008813 10012abe 0dd0c1d3"
	assert_failure 1
	[ "$(jq -r '"\(.printer) \(.status) \(.status_from) \(.vendor_err.value) \(.mlx5_syndrome.value)"' <<< "$output")" = \
		"libmlx5 10 mlx5_syndrome 136 19" ] || fail "$output"
	# the same form in dmesg (an older kernel's dump_cqe): the kernel's
	run rdmadoctor explain -j "[  +0.000001] 00000000 00008813 1001af37 115e97d3"
	[ "$(jq -r .printer <<< "$output")" = kernel ] || fail "$output"
	# the kernel's print_hex_dump, 16 bytes a row: offset 0x30 holds vendor 0x81, syndrome 0x15
	run rdmadoctor explain "[ 4711.123456] 00000030: 00 00 00 00 00 00 81 15 00 00 1a 2b 00 07 00 d2"
	assert_failure 1
	assert_line --index 0 "IBV_WC_RETRY_EXC_ERR (12) transport retry counter exceeded  [status read from the mlx5 CQE syndrome, printed by kernel]"
	assert_line --partial "vendor error 0x81 (129)"
	assert_line --partial "mlx5 CQE syndrome 0x15"
	# another offset's row, or a row that is not an error CQE (op_own 0x00), is not one
	run rdmadoctor explain "00000020: 00 00 00 00 00 00 81 15 00 00 1a 2b 00 07 00 d2"
	assert_success
	run rdmadoctor explain "00000030: 00 00 00 00 00 00 81 15 00 00 1a 2b 00 07 00 02"
	assert_success
	# UCX's status text: the wording says where it was read, whole
	run rdmadoctor explain "[g07r1n14:27251:0:27251] ib_mlx5_log.c:143  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)"
	assert_line --index 0 "IBV_WC_RETRY_EXC_ERR (12) transport retry counter exceeded  [status read from its text, printed by ucx]"
}
