#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Every tool ships with its man page, its completions and --help/--version, and the long
# options of --help, of the man page's OPTIONS sections and of both completion scripts are
# the same set, checked in both directions (rdmadiag(7)).
load helper

tools() {
	local t
	for t in "$ROOT"/tools/rdma*/rdma* "$ROOT"/tui/rdmatop; do
		[ -x "$t" ] && [ -f "$t" ] && basename "$t"
	done
}

# the tool's man page: section 1, or 8 for the daemon (rdmadiag_exporter)
page() {
	if [ -f "$ROOT/man/man8/$1.8" ]; then echo "$ROOT/man/man8/$1.8"; else echo "$ROOT/man/man1/$1.1"; fi
}

# a long option: node_exporter's style has dots (--web.listen-address, --collector.port)
LONGOPT='--[a-z][a-z0-9.-]*[a-z0-9]'

bin() {
	if [ -x "$ROOT/tools/$1/$1" ]; then echo "$ROOT/tools/$1/$1"; else echo "$ROOT/tui/$1"; fi
}

@test "at least one tool is built" {
	run tools
	assert_success
	refute_output ""
}

@test "every tool answers --version with its name and the project version and exits 0" {
	for t in $(tools); do
		run "$(bin "$t")" --version
		assert_success
		assert_output --regexp "^$t \(rdmadiag\) [0-9]+\.[0-9]+\.[0-9]+"
	done
}

@test "every tool answers --help on stdout with exit 0" {
	for t in $(tools); do
		run --separate-stderr "$(bin "$t")" --help
		assert_success
		assert_output --partial "$t"
		[ -z "$stderr" ]
	done
}

@test "every tool rejects an unknown option with exit 2 and a one-line hint" {
	for t in $(tools); do
		run --separate-stderr "$(bin "$t")" --no-such-option-xyz
		[ "$status" -eq 2 ] || fail "$t exited $status"
		[[ "$stderr" == *"$t"* ]] || fail "$t: stderr does not name the tool: $stderr"
	done
}

@test "every tool has a man page that renders without warnings" {
	for t in $(tools); do
		page=$(page "$t")
		[ -f "$page" ] || fail "no man page for $t"
		run sh -c "LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$page' 2>&1 >/dev/null"
		assert_output ""
	done
}

@test "every long option in --help is in the man page and both completions" {
	for t in $(tools); do
		opts=$(help_opts "$t")
		for o in $opts; do
			esc=${o//-/\\-}
			grep -qE -- "($o|${esc//\\/\\\\})" "$(page "$t")" ||
				grep -qF -- "\\-\\-${o#--}" "$(page "$t")" ||
				fail "$t: $o missing from $(page "$t")"
			grep -qF -- "$o" "$ROOT/completions/bash/$t" || fail "$t: $o missing from bash completion"
			grep -qF -- "$o" "$ROOT/completions/zsh/_$t" || fail "$t: $o missing from zsh completion"
		done
	done
}

# the long options each source names, one per line, sorted
help_opts() { "$(bin "$1")" --help | grep -oE -- "$LONGOPT" | sort -u; }
# the man page: the option lines (the line after .TP) of every section named ...OPTIONS
man_opts() {
	awk '/^\.SH /{ in_opts = /OPTIONS/ } in_opts' "$(page "$1")" | grep -A1 '^\.TP' |
		grep -v '^\.TP' | grep -oE -- '\\-\\-[a-z][a-z0-9.\\-]*[a-z0-9]' | tr -d '\\' | sort -u
}
bash_opts() { grep -oE -- "$LONGOPT" "$ROOT/completions/bash/$1" | sort -u; }
zsh_opts() { grep -oE -- "$LONGOPT" "$ROOT/completions/zsh/_$1" | sort -u; }

@test "--help, the man page's OPTIONS and both completions name the same long options" {
	local t src extra missing
	for t in $(tools); do
		[ -n "$(help_opts "$t")" ] || fail "$t: --help lists no long option"
		for src in man bash zsh; do
			extra=$(comm -23 <("${src}_opts" "$t") <(help_opts "$t") | tr '\n' ' ')
			missing=$(comm -13 <("${src}_opts" "$t") <(help_opts "$t") | tr '\n' ' ')
			[ -z "$extra" ] || fail "$t: $src lists options --help does not: $extra"
			[ -z "$missing" ] || fail "$t: --help lists options $src does not: $missing"
		done
	done
}

@test "the bash completions load and register for their tool" {
	for t in $(tools); do
		run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null; source '$ROOT/completions/bash/$t' && complete -p $t"
		assert_success
		assert_output --partial "$t"
	done
}

@test "zsh completion files declare their tool" {
	for t in $(tools); do
		run head -1 "$ROOT/completions/zsh/_$t"
		assert_output "#compdef $t"
	done
}

@test "zsh completion files parse" {
	for t in $(tools); do
		run zsh -n "$ROOT/completions/zsh/_$t"
		assert_success
	done
}

@test "the README's module graph is mk/module-edges, line for line (the cycle check holds the code to it)" {
	local readme edges
	# the fenced block after the module-edges marker: "mod -> a, b" lines
	readme=$(awk '/<!-- module-edges:/ { on = 1; next } on && /^```$/ { if (++fence == 2) exit; next }
		on && fence == 1' "$ROOT/README.md" | sed -E 's/ *-> */: /; s/, / /g')
	edges=$(grep -v '^#' "$ROOT/mk/module-edges" | grep .)
	[ -n "$edges" ]
	[ "$readme" = "$edges" ] || fail "README's module graph differs from mk/module-edges:
$(diff <(echo "$edges") <(echo "$readme"))"
	# every module of lib/ is in the README's layout block
	local m
	for m in "$ROOT"/lib/*/; do
		m=$(basename "$m")
		[ "$m" = include ] && continue
		grep -qE "^  $m/ " "$ROOT/README.md" || fail "lib/$m/ is not in the README's layout"
	done
	for m in "$ROOT"/tools/*/; do
		m=$(basename "$m")
		grep -qE "^  $m/ " "$ROOT/README.md" || fail "tools/$m/ is not in the README's layout"
	done
}
