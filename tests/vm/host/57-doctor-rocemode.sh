# Host side of guest/57-doctor-rocemode.sh: the configfs default RoCE mode in the findings.
cd "$VM_OUT" || exit 2
[ -s 57-doctor-v2.json ] || { tap_fail "the guest saved 57-doctor-v2.json"; exit 0; }
f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe0/1") | "\(.level) \(.summary)"' 57-doctor-v2.json)
tap_eq "rxe0/1's default RoCE mode is read from configfs: ok, RoCE v2" \
	"ok default RoCE mode of rxe0/1 is RoCE v2" "$f"
f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe1/1") | .level' 57-doctor-v2.json)
tap_eq "rxe1/1 has no configfs group: info, not readable" info "$f"
if [ -s 57-doctor-v1.json ]; then
	f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe0/1") | "\(.level) \(.cause)"' 57-doctor-v1.json)
	tap_eq "set to IB/RoCE v1: a warning with cause gid_roce_v1_only" "warning gid_roce_v1_only" "$f"
else
	tap_skip "set to IB/RoCE v1: a warning" "rxe refused the v1 mode"
fi
