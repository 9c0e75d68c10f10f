#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Check that the code is a one-way graph: no files that depend on each other in a cycle, no
# cycle between directories, a tool's room (tools/<tool>/, tui/) uses only tools/common and
# the library, and lib/'s module edges are the declared ones.
#   usage: mk/check-cycles.sh [-e EDGES] OUT.tap [OBJ...]
# OBJ: default the object of every lib/*/*.c, tools/*/*.c and tui/*.c, run from the top of
# the built tree (an object left behind by a deleted source is not one of them).
#
# File A depends on file B when A's object has an undefined symbol that B's object defines
# (nm); a symbol that several rooms define (each tool's own helpers) resolves to the
# definition in A's own directory first.  A cycle is a strongly connected component of more
# than one file (Tarjan); each one is named with the edges inside it and one symbol per
# edge.  The directory graph has an edge from A's directory to B's for every such pair in
# different directories.  The rooms' rule: lib/<module> uses only lib/; tools/common uses
# only lib/; tools/<tool> and tui use lib/, tools/common and themselves, never another room.
# With -e EDGES (mk/module-edges, "module: module module ..." a line, # comments), the
# directory edges inside lib/ must be exactly those lines: an edge the code has and the file
# does not, or one the file has and the code not, fails (README's module graph is checked
# against the same file, so the picture cannot go stale).
# Writes TAP to OUT (three tests, four with -e) and the failures to stderr; exits 1 when one
# fails.
set -u
edges_file=
if [ "${1:-}" = -e ]; then
	edges_file=${2:?usage: mk/check-cycles.sh [-e EDGES] OUT.tap [OBJ...]}
	shift 2
fi
out=${1:?usage: mk/check-cycles.sh [-e EDGES] OUT.tap [OBJ...]}
shift
# one "not ok" and the reason on stderr
die() {
	printf '1..1\nnot ok 1 - cycles: %s\n' "$1" > "$out"
	echo "check-cycles: $1" >&2
	exit 1
}
if [ -n "$edges_file" ] && [ ! -r "$edges_file" ]; then
	die "cannot read the module edges file '$edges_file'"
fi
if [ $# -eq 0 ]; then
	for c in lib/*/*.c; do
		[ -f "$c" ] || die "no lib/*/*.c here (run it from the top of the tree)"
	done
	for c in lib/*/*.c tools/*/*.c tui/*.c; do
		[ -f "$c" ] || continue
		[ -f "${c%.c}.o" ] || die "${c%.c}.o is not built (make first)"
		set -- "$@" "${c%.c}.o"
	done
fi
NM=${NM:-nm}
command -v "$NM" >/dev/null 2>&1 || { echo "check-cycles: $NM not found (binutils)" >&2; exit 2; }

# one line per symbol: "OBJ D SYM" (defined, global) or "OBJ U SYM" (undefined); one nm for
# all the objects (-A: "OBJ: SYM TYPE ..."), as nm's start-up costs more than its reading
$NM -P -A "$@" 2>/dev/null | awk '
	{ obj = $1; sub(/:$/, "", obj) }
	NF >= 3 && $3 == "U"           { print obj, "U", $2 }
	NF >= 3 && $3 ~ /^[A-TV-Z]$/   { print obj, "D", $2 }' | awk -v out="$out" -v edges_file="$edges_file" '
function file(o) { sub(/\.o$/, ".c", o); return o }
function dir(f,   d) { d = f; sub(/\/[^\/]*$/, "", d); return d }

# Tarjan: strongly connected components of graph g (nodes gn[0..gnn-1], edges edge[g, a, b])
function strong(g,   i) {
	idx = 0; sp = 0; ncomp[g] = 0
	for (i = 0; i < gnn[g]; i++) { delete vindex[i]; delete onstack[i] }
	for (i = 0; i < gnn[g]; i++)
		if (!(i in vindex)) visit(g, i)
}
function visit(g, v,   w, c, m) {
	vindex[v] = idx; low[v] = idx; idx++
	stack[sp++] = v; onstack[v] = 1
	for (w = 0; w < gnn[g]; w++) {
		if (!((g SUBSEP v SUBSEP w) in edge)) continue
		if (!(w in vindex)) {
			visit(g, w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (onstack[w] && vindex[w] < low[v])
			low[v] = vindex[w]
	}
	if (low[v] != vindex[v]) return
	c = ncomp[g]++; csize[g, c] = 0
	do {
		m = stack[--sp]; onstack[m] = 0
		comp[g, c, csize[g, c]++] = m
		incomp[g, m] = c
	} while (m != v)
}
# the nodes of component c by name (insertion sort: components are small)
function sortcomp(g, c,   i, j, t) {
	for (i = 1; i < csize[g, c]; i++) {
		t = comp[g, c, i]
		for (j = i - 1; j >= 0 && gname[g, comp[g, c, j]] > gname[g, t]; j--)
			comp[g, c, j + 1] = comp[g, c, j]
		comp[g, c, j + 1] = t
	}
}
function node(g, name) {
	if (!((g SUBSEP name) in nid)) { nid[g, name] = gnn[g]; gname[g, gnn[g]] = name; gnn[g]++ }
	return nid[g, name]
}
# one "not ok" per graph with a cycle: every component of more than one node, with its edges
function report(g, n, what,   c, i, j, a, b, names, bad) {
	strong(g)
	bad = 0
	for (c = 0; c < ncomp[g]; c++) {
		if (csize[g, c] < 2) continue
		sortcomp(g, c)
		names = ""
		for (i = 0; i < csize[g, c]; i++) names = names " " gname[g, comp[g, c, i]]
		if (!bad) printf "not ok %d - %s\n", n, what > out
		bad = 1
		printf "# cycle:%s\n", names > out
		printf "check-cycles: %s cycle:%s\n", g, names > "/dev/stderr"
		for (i = 0; i < csize[g, c]; i++) for (j = 0; j < csize[g, c]; j++) {
			a = comp[g, c, i]; b = comp[g, c, j]
			if (!((g SUBSEP a SUBSEP b) in edge)) continue
			printf "#   %s -> %s (%s)\n", gname[g, a], gname[g, b], edge[g, a, b] > out
			printf "  %s -> %s (%s)\n", gname[g, a], gname[g, b], edge[g, a, b] > "/dev/stderr"
		}
	}
	if (!bad) printf "ok %d - %s\n", n, what > out
	return bad
}

# the room a directory belongs to: "lib", "common" (tools/common) or "room" (one tool only)
function kind(d) {
	if (d ~ /^lib(\/|$)/) return "lib"
	if (d == "tools/common") return "common"
	return "room"
}
function may_use(a, b) {
	if (kind(b) == "lib") return 1
	if (kind(a) == "room" && kind(b) == "common") return 1
	return 0
}
# the module name of a lib/ directory
function module(d) { sub(/^lib\//, "", d); return d }

{ f = file($1); node("file", f); node("directory", dir(f)) }
$2 == "D" { if (!($3 in def)) def[$3] = f; defdir[$3, dir(f)] = f }
$2 == "U" { undef[f, $3] = 1 }
END {
	for (k in undef) {
		split(k, p, SUBSEP)
		if (!(p[2] in def)) continue
		to = ((p[2] SUBSEP dir(p[1])) in defdir) ? defdir[p[2], dir(p[1])] : def[p[2]]
		if (to == p[1]) continue
		a = nid["file", p[1]]; b = nid["file", to]
		if (!(("file" SUBSEP a SUBSEP b) in edge) || p[2] < edge["file", a, b])
			edge["file", a, b] = p[2]
		da = nid["directory", dir(p[1])]; db = nid["directory", dir(to)]
		if (da == db) continue
		ex = gname["file", a] " -> " p[2]
		if (!(("directory" SUBSEP da SUBSEP db) in edge) || ex < edge["directory", da, db])
			edge["directory", da, db] = ex
	}
	printf "1..%d\n", edges_file != "" ? 4 : 3 > out
	bad = report("file", 1, "no two files depend on each other in a cycle")
	bad += report("directory", 2, "the directories (modules and rooms) depend one way")

	# 3: the rule of the rooms
	nbad = 0
	for (k in edge) {
		split(k, p, SUBSEP)
		if (p[1] != "directory") continue
		a = gname["directory", p[2]]; b = gname["directory", p[3]]
		if (may_use(a, b)) continue
		if (!nbad++) printf "not ok 3 - a room uses only the library, and a tool room tools/common too\n" > out
		printf "#   %s -> %s (%s)\n", a, b, edge[k] > out
		printf "check-cycles: %s may not use %s (%s)\n", a, b, edge[k] > "/dev/stderr"
	}
	if (!nbad) printf "ok 3 - a room uses only the library, and a tool room tools/common too\n" > out
	bad += nbad > 0

	# 4: the module edges of lib/ against the declared ones
	if (edges_file != "") {
		while ((getline line < edges_file) > 0) {
			sub(/#.*/, "", line)
			if (line !~ /:/) continue
			m = line; sub(/:.*/, "", m); gsub(/[ \t]/, "", m)
			rest = line; sub(/^[^:]*:/, "", rest)
			n = split(rest, us, /[ \t]+/)
			for (i = 1; i <= n; i++) if (us[i] != "") declared[m, us[i]] = 1
		}
		close(edges_file)
		nbad = 0
		for (k in edge) {
			split(k, p, SUBSEP)
			if (p[1] != "directory") continue
			a = gname["directory", p[2]]; b = gname["directory", p[3]]
			if (kind(a) != "lib" || kind(b) != "lib") continue
			seen[module(a), module(b)] = 1
			if ((module(a) SUBSEP module(b)) in declared) continue
			msg[nbad++] = sprintf("%s -> %s is in the code (%s), not in %s", module(a), module(b), edge[k], edges_file)
		}
		for (k in declared) {
			split(k, p, SUBSEP)
			if (!(k in seen))
				msg[nbad++] = sprintf("%s -> %s is in %s, not in the code", p[1], p[2], edges_file)
		}
		if (nbad) {
			printf "not ok 4 - the modules of lib/ use each other as %s says\n", edges_file > out
			for (i = 0; i < nbad; i++) {
				printf "#   %s\n", msg[i] > out
				printf "check-cycles: %s\n", msg[i] > "/dev/stderr"
			}
			bad++
		} else
			printf "ok 4 - the modules of lib/ use each other as %s says\n", edges_file > out
	}
	printf "cycles: %d files in %d directories, %s\n", gnn["file"], gnn["directory"], \
		bad ? "problems found" : "no cycle"
	exit bad ? 1 : 0
}'
