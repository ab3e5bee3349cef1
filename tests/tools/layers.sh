#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layers.sh - `make layers`: checks that the folders of src/ keep the
# architecture's arrows (docs/architecture.md). Reads every #include "..."
# under src/ and fails, naming the file and line, on
#   - an include that does not name its folder ("model.h" for
#     "core/model.h") or names no file of src/;
#   - an include a layer may not make (the table below);
#   - a loop between modules: a module is a source file and its header (a
#     family's shared X_priv.h counts as module X), and no chain of
#     includes may lead from a module back to itself.
#
#   tests/tools/layers.sh [SRC_DIR]     (default: src)
set -u
src=${1:-src}
cd "$(dirname "$0")/../.." || exit 1

# What each folder may include besides itself; "top" is src/ itself (main,
# cli, headless: the front ends), which may include everything.
# The helpers set REPLY rather than print: called through $(...) for
# each of some 2,000 includes, their forks took most of the run's time.
allowed() {
	case $1 in
	core) REPLY="" ;;
	linux) REPLY="core" ;;
	collectors) REPLY="core linux" ;;
	control) REPLY="core linux collectors" ;;
	config) REPLY="core control" ;;
	export) REPLY="core linux" ;;
	ui) REPLY="core control config export" ;;
	top) REPLY="core linux collectors control config export ui" ;;
	*) REPLY="?" ;;
	esac
}

folder_of() { # path relative to src
	case $1 in */*) REPLY=${1%%/*} ;; *) REPLY=top ;; esac
}

module_of() {
	local stem=${1##*/}
	stem=${stem%.*}
	stem=${stem%_priv}
	folder_of "$1"
	REPLY="$REPLY/$stem"
}

errors=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

while IFS= read -r file; do
	rel=${file#"$src"/}
	folder_of "$rel"
	from=$REPLY
	module_of "$rel"
	mod=$REPLY
	allowed "$from"
	ok=" $from $REPLY "
	while IFS=: read -r line inc; do
		[ -n "$inc" ] || continue
		if [ ! -f "$src/$inc" ]; then
			echo "$file:$line: #include \"$inc\" names no file of $src/ (includes name their folder: \"core/model.h\")"
			errors=$((errors + 1))
			continue
		fi
		folder_of "$inc"
		to=$REPLY
		case $ok in
		*" $to "*) ;;
		*)
			allowed "$from"
			echo "$file:$line: $from may not include $to (\"$inc\"); $from may include: $REPLY"
			errors=$((errors + 1))
			;;
		esac
		module_of "$inc"
		[ "$REPLY" = "$mod" ] || echo "$mod $REPLY" >>"$edges"
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p;=' "$file" |
		sed -n '/^[0-9]*$/{h;d};x;G;s/\n/:/;p' | awk -F: 'NF==2 && $2 !~ /^[0-9]+$/')
done < <(find "$src" -name '*.[ch]' | sort)

# Loops: tsort names the modules of each loop it finds, one a line.
loops=$(sort -u "$edges" | tsort 2>&1 >/dev/null | awk '
	/input contains a loop/ { if (l != "") print l; l = "loop:"; next }
	{ sub(/^tsort: /, ""); l = l " " $0 " ->" }
	END { if (l != "") print l }' | sed 's/ ->$/ (and back to the first)/')
if [ -n "$loops" ]; then
	echo "$loops" | sed 's/^/module /'
	errors=$((errors + $(echo "$loops" | wc -l)))
fi

files=$(find "$src" -name '*.[ch]' | wc -l)
if [ "$errors" -gt 0 ]; then
	echo "layers: $errors problem(s) in $files files"
	exit 1
fi
echo "layers: $files files, $(sort -u "$edges" | wc -l) module arrows, no forbidden include, no loop"
