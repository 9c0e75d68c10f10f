#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make demo: decode the shipped real rxe capture and print its per-QP summary.
# The capture (tests/fixtures/rxe/rxe_sample.pcap, see its README) holds an rdma_cm connection
# with SEND/READ/WRITE, a CM reject, an RNR NAK and an rdma_connect timeout (CM REQ retries).
set -e
cd "$(dirname "$0")/.."
cap=tests/fixtures/rxe/rxe_sample.pcap
echo "== rdmadump -r $cap -c 12   (the first packets)"
tools/rdmadump/rdmadump -r "$cap" -c 12
echo
echo "== rdmadump -r $cap --errors   (only the problems)"
tools/rdmadump/rdmadump -r "$cap" --errors
echo
echo "== rdmadump --errors -r tests/fixtures/rxe/rxe_lossy.pcap -c 6   (4% loss: gap, NAK, resend)"
tools/rdmadump/rdmadump --errors -r tests/fixtures/rxe/rxe_lossy.pcap -c 6
echo
echo "== rdmadump -q -r $cap   (the per-QP summary)"
tools/rdmadump/rdmadump -q -r "$cap"
