#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# names.sh - part of `make layers`: every function and object a source file
# exports is named after its module (module_verb, as docs/architecture.md
# says). For src/FOLDER/STEM.c, an exported name must start with
#   gt_STEM_        control_session.c: gt_control_session_apply
#   gt_FAMILY_      the stem's first word: procinfo_cache.c: gt_procinfo_...
#   gt_TYPE_        a struct, union or enum gt_TYPE defined in the module's
#                   own headers (STEM.h, FAMILY.h, their _priv.h): the
#                   Class_method form, model.c: gt_sample_init
# or be one of those names itself; main.c exports main.
#
#   tests/tools/names.sh BUILD_DIR [SRC_DIR]
set -u
build=${1:?usage: names.sh BUILD_DIR [SRC_DIR]}
src=${2:-src}
cd "$(dirname "$0")/../.." || exit 1

# One nm over every object and headers read by bash itself: a fork or
# three per file (nm, cat, sed) took most of the run on a small VM.
declare -A syms
mapfile -t cfiles < <(find "$src" -name '*.c' | sort)
objs=()
for c in "${cfiles[@]}"; do
	rel=${c#"$src"/}
	obj=$build/src/${rel%.c}.o
	if [ ! -f "$obj" ]; then
		echo "names: $obj is missing (build first)"
		exit 2
	fi
	objs+=("$obj")
done
# nm's own status is checked: an nm that is missing or fails would leave
# no symbol at all, and every module would pass.
symtab=$(nm -g --defined-only -A "${objs[@]}") && [ -n "$symtab" ] ||
	{ echo "names: nm gave no symbols (binutils installed?)"; exit 2; }
while read -r loc kind name; do # "OBJ:ADDR KIND NAME"
	case $kind in T | D | B | R) syms[${loc%%:*}]+=" $name" ;; esac
done <<<"$symtab"

type_re='^[[:space:]]*(typedef[[:space:]]+)?(struct|union|enum)[[:space:]]+gt_([a-z0-9_]*)[[:space:]]*\{'
# The gt_ types defined in the headers named, space-separated, in REPLY.
header_types() {
	local h line
	REPLY=""
	for h in "$@"; do
		[ -f "$h" ] || continue
		while IFS= read -r line; do
			[[ $line =~ $type_re ]] && REPLY+=" ${BASH_REMATCH[3]}"
		done <"$h"
	done
}

errors=0
objects=0
for i in "${!cfiles[@]}"; do
	c=${cfiles[i]}
	rel=${c#"$src"/}
	obj=${objs[i]}
	objects=$((objects + 1))
	dir=${c%/*}
	stem=${c##*/}
	stem=${stem%.c}
	family=${stem%%_*}
	header_types "$dir/$stem.h" "$dir/$family.h" "$dir/${stem}_priv.h" \
		"$dir/${family}_priv.h"
	prefixes=" $stem $family $REPLY "
	for sym in ${syms[$obj]:-}; do
		[ "$rel" = main.c ] && [ "$sym" = main ] && continue
		ok=false
		for p in $prefixes; do
			case $sym in "gt_$p" | "gt_${p}_"*)
				ok=true
				break
				;;
			esac
		done
		if ! $ok; then
			echo "$c: exports $sym, not named after its module (gt_${stem}_..., gt_${family}_... or a type of its header)"
			errors=$((errors + 1))
		fi
	done
done

if [ "$errors" -gt 0 ]; then
	echo "names: $errors exported name(s) in $objects files not named after their module"
	exit 1
fi
echo "names: $objects files, every exported name is its module's"
