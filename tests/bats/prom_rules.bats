#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The Prometheus rules of contrib/prometheus: promtool accepts the rule file without a word
# and passes its unit tests (tests/prom/rdmadiag-rules.test.yml), every alert has a firing
# and a quiet test case, a severity and the annotations summary, description and runbook
# (the rdmadiag command to run next), and the rules name no rdma_ family that
# contrib/prometheus/families.txt, the list the agent's own tests hold its output to, lacks.
# The Grafana dashboard of contrib/grafana: mk-dashboard.py's output, its uid, schema and
# variables, panels that do not overlap, every query on the datasource variable and filtered
# on $job $instance $device $port, every expression parsed by promtool, and the same families.
# And both on rdmastat --prom's real exposition of the fixture trees.
load helper

RULES=$ROOT/contrib/prometheus/rdmadiag-rules.yml
RTEST=$ROOT/tests/prom/rdmadiag-rules.test.yml
FAMILIES=$ROOT/contrib/prometheus/families.txt
DASH=$ROOT/contrib/grafana/rdmadiag-dashboard.json
PY=/usr/bin/python3

setup() { command -v promtool > /dev/null || skip "promtool missing (Debian: prometheus)"; }
need_yaml() { $PY -c 'import yaml' 2> /dev/null || skip "python3-yaml missing"; }

# the rdma_ metric names FILE... use, one per line, sorted (YAML comments left out: they name
# families to come)
families_of() { grep -hv '^[[:space:]]*#' "$@" | grep -oE '\brdma_[a-z0-9_]+' | sort -u; }
# those of them families.txt lacks
families_unknown() { comm -23 <(families_of "$@") "$FAMILIES"; }

@test "promtool check rules: the rule file is valid, with no warning" {
	run --separate-stderr promtool check rules "$RULES"
	assert_success
	assert_output --regexp "^Checking $RULES
  SUCCESS: [0-9]+ rules found
?$"
	[ -z "$stderr" ] || fail "promtool said on stderr: $stderr"
}

@test "promtool test rules: every unit test of the rules passes" {
	run promtool test rules "$RTEST"
	assert_success
	assert_output --partial "SUCCESS"
	refute_output --partial "FAILED"
}

@test "every alert has a firing test case (labels and annotations) and a quiet one" {
	need_yaml
	run "$PY" - "$RULES" "$RTEST" <<-'EOF'
	import sys, yaml
	rules = yaml.safe_load(open(sys.argv[1]))
	tests = yaml.safe_load(open(sys.argv[2]))
	alerts = [r["alert"] for g in rules["groups"] for r in g["rules"] if "alert" in r]
	assert alerts, "no alert in the rule file"
	fire, quiet, bad = set(), set(), []
	for t in tests["tests"]:
	    for c in t.get("alert_rule_test", []):
	        exp = c.get("exp_alerts") or []
	        if not exp:
	            quiet.add(c["alertname"])
	        for e in exp:
	            if not e.get("exp_labels") or not e.get("exp_annotations"):
	                bad.append(c["alertname"])
	            else:
	                fire.add(c["alertname"])
	for a in alerts:
	    if a not in fire:
	        print("%s: no firing test case with exp_labels and exp_annotations" % a)
	    if a not in quiet:
	        print("%s: no test case where it does not fire (exp_alerts: [])" % a)
	for a in sorted(set(bad)):
	    print("%s: an expected alert without exp_labels or exp_annotations" % a)
	for a in sorted((fire | quiet) - set(alerts)):
	    print("%s: tested, but no such alert in the rule file" % a)
	EOF
	assert_success
	assert_output ""
}

@test "every alert has a severity, a summary, a description and an rdmadiag runbook line" {
	need_yaml
	run "$PY" - "$RULES" <<-'EOF'
	import re, sys, yaml
	tools = r"\b(rdmastat|rdmadoctor|rdmatrace|rdmatop|rdmacheck|rdmadump)\b"
	for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
	    for r in g["rules"]:
	        if "alert" not in r:
	            continue
	        a, ann = r["alert"], r.get("annotations", {})
	        if r.get("labels", {}).get("severity") not in ("warning", "critical"):
	            print("%s: severity is not warning or critical" % a)
	        for k in ("summary", "description", "runbook"):
	            if not str(ann.get(k, "")).strip():
	                print("%s: no %s annotation" % (a, k))
	        if "\n" in ann.get("runbook", ""):
	            print("%s: the runbook is more than one line" % a)
	        if not re.search(tools, ann.get("runbook", "")):
	            print("%s: the runbook names no rdmadiag command" % a)
	EOF
	assert_success
	assert_output ""
}

@test "the runbooks' rdmadiag commands and options are the tools' own (their man pages)" {
	need_yaml
	run "$PY" - "$RULES" "$ROOT/man/man1" <<-'EOF'
	import re, sys, yaml
	# each tool's commands, as its man page's SYNOPSIS has them
	commands = {"rdmastat": {"devices", "qp", "cm", "fabric", "explain"},
	            "rdmadoctor": {"connect", "listen", "local", "explain", "env", "compare"},
	            "rdmatrace": {"record", "dump"}}
	for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
	    for r in g["rules"]:
	        # the runbook without its template actions: the words a user types
	        rb = re.sub(r"{{.*?}}", " ", r.get("annotations", {}).get("runbook", "")).split()
	        for t, tool in enumerate(rb):
	            if tool not in commands:
	                continue
	            page = open("%s/%s.1" % (sys.argv[2], tool)).read()
	            for i, w in enumerate(rb[t + 1:]):
	                if w.startswith("-"):
	                    o = w.rstrip(",;")
	                    man = re.escape(o.replace("-", "\\-"))   # -i is \-i in troff
	                    if not re.search(man + r"(?![a-z0-9\\])", page):
	                        print("%s: %s has no option %s" % (r["alert"], tool, o))
	                elif i == 0 and re.fullmatch(r"[a-z]+", w):
	                    if w not in commands[tool]:
	                        print("%s: %s has no command %s" % (r["alert"], tool, w))
	                elif not re.fullmatch(r"[0-9.]+", w):
	                    break   # the operands and the prose after them
	EOF
	assert_success
	assert_output ""
}

@test "contrib/prometheus/families.txt: sorted, unique rdma_ names" {
	run grep -cvE '^rdma_[a-z0-9_]+$' "$FAMILIES"
	assert_output 0
	sort -u "$FAMILIES" | diff - "$FAMILIES" || fail "families.txt is not sorted and unique"
}

@test "the rules name only rdma_ families of families.txt" {
	run families_unknown "$RULES"
	assert_output ""
	# and the list holds no family the rules and the dashboard do not use
	run comm -23 "$FAMILIES" <(families_of "$RULES" "$DASH")
	assert_output ""
}

# ---- the Grafana dashboard ----------------------------------------------------------------

@test "the dashboard is mk-dashboard.py's output" {
	run "$PY" "$ROOT/contrib/grafana/mk-dashboard.py"
	assert_success
	[ "$output" = "$(cat "$DASH")" ] ||
		fail "rdmadiag-dashboard.json is not mk-dashboard.py's output: regenerate it"
}

@test "the dashboard: valid JSON, its stable uid and title, schemaVersion 37 or later" {
	run jq -r '[.uid, .title, (.schemaVersion >= 37)] | @tsv' "$DASH"
	assert_success
	assert_output "$(printf 'rdmadiag-roce-health\trdmadiag: RoCE health\ttrue')"
}

@test "the dashboard's variables: a Prometheus datasource, then job, instance, device, port" {
	run jq -r '.templating.list[] |
		[.name, .type, (.query | if type == "object" then .query else . end)] | @tsv' "$DASH"
	assert_success
	local j='job=~"$job"' i='instance=~"$instance"' d='device=~"$device"'
	assert_output "datasource	datasource	prometheus
job	query	label_values(rdma_port_info, job)
instance	query	label_values(rdma_port_info{$j}, instance)
device	query	label_values(rdma_port_info{$j, $i}, device)
port	query	label_values(rdma_port_info{$j, $i, $d}, port)"
	# the query variables read the chosen datasource
	run jq -r '.templating.list[] | select(.type == "query") | .datasource.uid' "$DASH"
	assert_output "$(printf '${datasource}\n%.0s' 1 2 3 4)"
}

@test "the dashboard's panels: unique ids, inside 24 columns, no two overlap" {
	run jq -r '[.panels[].id] | (length == (unique | length))' "$DASH"
	assert_output true
	run jq -r '.panels[] | select(.gridPos.x < 0 or .gridPos.w < 1 or .gridPos.h < 1 or
		.gridPos.x + .gridPos.w > 24) | .title' "$DASH"
	assert_output ""
	run jq -r '[.panels[] | {t: .title, g: .gridPos}] | . as $p |
		range(length) as $i | range($i + 1; length) as $j | $p[$i] as $a | $p[$j] as $b |
		select($a.g.x < $b.g.x + $b.g.w and $b.g.x < $a.g.x + $a.g.w and
		       $a.g.y < $b.g.y + $b.g.h and $b.g.y < $a.g.y + $a.g.h) |
		"\($a.t) overlaps \($b.t)"' "$DASH"
	assert_output ""
	run jq '[.panels[] | select(.type | IN("timeseries", "stat", "state-timeline") | not)] |
		length' "$DASH"
	assert_output 0
}

@test "the dashboard: every panel and every target reads the datasource variable" {
	run jq -r '.panels[] | select(.datasource.uid != "${datasource}") | .title' "$DASH"
	assert_output ""
	run jq -r '.panels[] | .title as $t | .targets[] |
		select(.datasource.uid != "${datasource}" or .datasource.type != "prometheus") |
		$t' "$DASH"
	assert_output ""
	run jq '[.panels[] | select((.targets // []) | length == 0)] | length' "$DASH"
	assert_output 0
}

@test "the dashboard: every metric selector filters on job, instance, device and port" {
	local expr sel n
	while IFS= read -r expr; do
		# every metric name in it has a selector
		n=$(grep -oE 'rdma[_:][a-z0-9_:]+' <<< "$expr" | wc -l)
		[ "$n" -gt 0 ] || fail "no rdma metric in: $expr"
		[ "$(grep -oE 'rdma[_:][a-z0-9_:]+\{' <<< "$expr" | wc -l)" = "$n" ] ||
			fail "a metric without a selector in: $expr"
		while IFS= read -r sel; do
			for v in job instance device port; do
				# the device-level families (and series recorded from them) have no port label
				[ $v = port ] &&
					[[ $sel =~ ^(rdma_(qps|device_max_qp|connections_total)|rdma:connection_failures:increase10m)\{ ]] &&
					continue
				[[ $sel == *"$v=~\"\$$v\""* ]] || fail "$sel does not filter on \$$v"
			done
		done < <(grep -oE 'rdma[_:][a-z0-9_:]+\{[^}]*\}' <<< "$expr")
	done < <(jq -r '.panels[].targets[].expr' "$DASH")
}

@test "the dashboard: every expression parses (promtool, as a recording rule)" {
	local r=$BATS_TEST_TMPDIR/dash-rules.json
	# JSON is YAML: one recording rule per expression, Grafana's interval macros made durations
	jq '{groups: [{name: "dashboard", rules: [[.panels[].targets[].expr] | to_entries[] |
		{record: "dashboard:expr_\(.key)",
		 expr: (.value | gsub("\\$__rate_interval|\\$__interval"; "5m") |
		        gsub("\\$__range"; "1h"))}]}]}' "$DASH" > "$r"
	[ "$(jq '.groups[0].rules | length' "$r")" -gt 10 ]
	run --separate-stderr promtool check rules "$r"
	assert_success
	assert_output --regexp "SUCCESS: [0-9]+ rules found"
	[ -z "$stderr" ] || fail "promtool: $stderr"
}

@test "the dashboard names only families of families.txt, and recorded series the rules record" {
	run families_unknown "$DASH"
	assert_output ""
	local rec
	for rec in $(grep -oE 'rdma:[a-z0-9_:]+' "$DASH" | sort -u); do
		grep -qE "^ *- record: $rec\$" "$RULES" || fail "$rec is not recorded by $RULES"
	done
}

# ---- on rdmastat --prom's own exposition --------------------------------------------------

# the samples of exposition FILE of the families in families.txt as promtool input series of
# a target (job textfile), each its value for 10 minutes
as_series() {
	grep -E "^($(paste -sd '|' "$FAMILIES"))\{" "$1" | while read -r name value; do
		# name{a="x",...}: add the target's labels
		printf "      - series: '%s,job=\"textfile\",instance=\"host1:9100\"}'\n" "${name%\}}"
		printf "        values: '%sx10'\n" "$value"
	done
}

@test "the rules on rdmastat --prom's exposition: RdmaPortDown for a DOWN port, not an ACTIVE one" {
	local t=$BATS_TEST_TMPDIR
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/broken rdmastat --prom > "$t/broken.prom"
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/mlx5 rdmastat --prom > "$t/mlx5.prom"
	grep -qx 'rdma_port_state_id{device="mlx5_1",port="1"} 1' "$t/broken.prom"
	grep -qx 'rdma_port_state_id{device="mlx5_0",port="1"} 4' "$t/mlx5.prom"
	{
		printf 'rule_files:\n  - %s\nevaluation_interval: 1m\ntests:\n' "$RULES"
		printf '  - interval: 1m\n    input_series:\n'
		as_series "$t/broken.prom"
		printf '    alert_rule_test:\n      - eval_time: 5m\n        alertname: RdmaPortDown\n'
		printf '        exp_alerts:\n          - exp_labels:\n'
		printf '              %s\n' severity:\ critical job:\ textfile \
			instance:\ host1:9100 device:\ mlx5_1 'port: "1"'
		# (promtool compares the annotations too; the fallback without rdma_port_info's
		# netdev, which rdmastat does not export)
		printf '            exp_annotations:\n'
		printf '              %s\n' \
			'summary: "RDMA port mlx5_1/1 on host1:9100 is not ACTIVE"' \
			'description: "Port 1 of mlx5_1 (netdev unknown) on host1:9100 has been in IB port state 1 (1 DOWN, 2 INIT, 3 ARMED; 4 is ACTIVE) for 2 minutes: no RDMA traffic can use it."' \
			'runbook: "On host1:9100: rdmastat devices mlx5_1 (state, physical state, netdev, GIDs), then rdmadoctor local"'
		printf '  - interval: 1m\n    input_series:\n'
		as_series "$t/mlx5.prom"
		printf '    alert_rule_test:\n      - eval_time: 5m\n        alertname: RdmaPortDown\n'
		printf '        exp_alerts: []\n'
	} > "$t/test.yml"
	run promtool test rules "$t/test.yml"
	assert_success
	assert_output --partial SUCCESS
}

@test "rdmastat --prom's per-priority families carry the labels the dashboard sums by" {
	RDMADIAG_SYSFS_ROOT=$FIX/fabric/ofed RDMADIAG_ETHTOOL_REPLAY=$FIX/fabric/eth-prio3.txt \
		rdmastat --prom > "$BATS_TEST_TMPDIR/eth.prom"
	local f n l
	for f in rdma_eth_priority_bytes_total rdma_eth_priority_pause_frames_total; do
		grep -qx "$f" "$FAMILIES" || fail "$f is not in families.txt"
		n=$(grep -c "^$f{" "$BATS_TEST_TMPDIR/eth.prom")
		[ "$n" -gt 0 ] || fail "rdmastat --prom has no $f"
		for l in device port priority direction; do
			[ "$(grep -cE "^$f\{(.*,)?$l=\"" "$BATS_TEST_TMPDIR/eth.prom")" = "$n" ] ||
				fail "a sample of $f without label $l"
		done
	done
}
