# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/57-doctor-rocemode.sh: the configfs default RoCE mode in the findings.
cd "$VM_OUT" || exit 2
[ -s 57-doctor-v2.json ] || { tap_fail "the guest saved 57-doctor-v2.json"; exit 0; }
f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe0/1") | "\(.level) \(.summary)"' 57-doctor-v2.json)
tap_eq "rxe0/1's default RoCE mode is read from configfs: ok, RoCE v2" \
	"ok default RoCE mode of rxe0/1 is RoCE v2" "$f"
tap_eq "local exits 0 on the healthy setup" 0 "$(cat 57-doctor-v2.json.rc)"
tap_eq "local: verdict ok" "ok ok" "$(jq -r '"\(.verdict.cause) \(.verdict.level)"' 57-doctor-v2.json)"
f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe1/1") | .level' 57-doctor-v2.json)
tap_eq "rxe1/1 has no configfs group: info, not readable" info "$f"
if [ -s 57-doctor-v1.json ]; then
	f=$(jq -r '.findings[] | select(.check == "roce_mode" and .subject == "rxe0/1") | "\(.level) \(.cause)"' 57-doctor-v1.json)
	tap_eq "set to IB/RoCE v1: a warning with cause gid_roce_v1_only" "warning gid_roce_v1_only" "$f"
else
	tap_skip "set to IB/RoCE v1: a warning" "rxe refused the v1 mode"
fi

# every warning or problem finding the doctor made in 50-57 (whichever ran) has a fix hint,
# and every failed verdict a next step
files=$(for f in 5[0-7]-doctor-*.json; do jq -e 'has("findings")' "$f" > /dev/null 2>&1 && echo "$f"; done)
eval "$(jq -rs '@sh "n=\([.[].findings[] | select(.level == "warning" or .level == "problem")] | length)
	bare=\([.[] | .command as $c | .findings[] | select((.level == "warning" or .level == "problem")
		and ((.hint // "") == "")) | "\(.check) \(.subject): \(.summary)"] | join("; "))
	nonext=\([.[] | select(.verdict.ok | not) | select((.verdict.next // "") == "") | .verdict.cause] | join(" "))"' $files)"
tap_eq "each of the $n warning/problem findings in $(echo $files | wc -w) doctor outputs has a fix hint" "" "$bare"
tap_eq "each failed verdict has a next step" "" "$nonext"
