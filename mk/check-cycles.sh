#!/bin/sh
# Check that lib/ is a one-way module graph: no files that depend on each other in a cycle,
# and no cycle between directories (modules).  Usage: mk/check-cycles.sh OUT.tap [OBJ...]
# (default: the object of every lib/*/*.c, run from the top of the built tree; an object
# left behind by a deleted source is not one of them).
#
# File A depends on file B when A's object has an undefined symbol that B's object defines
# (nm).  A cycle is a strongly connected component of more than one file (Tarjan); each one
# is named with the edges inside it and one symbol per edge.  The directory graph has an edge
# from A's directory to B's for every such pair in different directories.  Writes TAP to OUT
# (two tests) and the cycles to stderr; exits 1 when there is a cycle.
set -u
out=${1:?usage: mk/check-cycles.sh OUT.tap [OBJ...]}
shift
# one "not ok" and the reason on stderr
die() {
	printf '1..1\nnot ok 1 - cycles: %s\n' "$1" > "$out"
	echo "check-cycles: $1" >&2
	exit 1
}
if [ $# -eq 0 ]; then
	for c in lib/*/*.c; do
		[ -f "$c" ] || die "no lib/*/*.c here (run it from the top of the tree)"
		[ -f "${c%.c}.o" ] || die "${c%.c}.o is not built (make first)"
		set -- "$@" "${c%.c}.o"
	done
fi
NM=${NM:-nm}
command -v "$NM" >/dev/null 2>&1 || { echo "check-cycles: $NM not found (binutils)" >&2; exit 2; }

# one line per symbol: "OBJ D SYM" (defined, global) or "OBJ U SYM" (undefined)
for o in "$@"; do
	$NM -P "$o" 2>/dev/null | awk -v obj="$o" '
		NF >= 2 && $2 == "U"           { print obj, "U", $1 }
		NF >= 2 && $2 ~ /^[A-TV-Z]$/   { print obj, "D", $1 }'
done | awk -v out="$out" '
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

{ f = file($1); node("file", f); node("directory", dir(f)) }
$2 == "D" { if (!($3 in def)) def[$3] = f }
$2 == "U" { undef[f, $3] = 1 }
END {
	for (k in undef) {
		split(k, p, SUBSEP)
		if (!(p[2] in def) || def[p[2]] == p[1]) continue
		a = nid["file", p[1]]; b = nid["file", def[p[2]]]
		if (!(("file" SUBSEP a SUBSEP b) in edge) || p[2] < edge["file", a, b])
			edge["file", a, b] = p[2]
		da = nid["directory", dir(p[1])]; db = nid["directory", dir(def[p[2]])]
		if (da == db) continue
		ex = gname["file", a] " -> " p[2]
		if (!(("directory" SUBSEP da SUBSEP db) in edge) || ex < edge["directory", da, db])
			edge["directory", da, db] = ex
	}
	printf "1..2\n" > out
	bad = report("file", 1, "no two files of lib/ depend on each other in a cycle")
	bad += report("directory", 2, "the directories (modules) of lib/ depend one way")
	printf "cycles: %d files in %d directories, %s\n", gnn["file"], gnn["directory"], \
		bad ? "cycles found" : "no cycle"
	exit bad ? 1 : 0
}'
