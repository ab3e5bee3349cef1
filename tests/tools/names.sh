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

errors=0
objects=0
while IFS= read -r c; do
	rel=${c#"$src"/}
	obj=$build/src/${rel%.c}.o
	if [ ! -f "$obj" ]; then
		echo "names: $obj is missing (build first)"
		exit 2
	fi
	objects=$((objects + 1))
	dir=$(dirname "$c")
	stem=$(basename "$c" .c)
	family=${stem%%_*}
	types=$(cat "$dir/$stem.h" "$dir/$family.h" "$dir/${stem}_priv.h" \
		"$dir/${family}_priv.h" 2>/dev/null |
		sed -n 's/^[[:space:]]*\(typedef[[:space:]]\+\)\?\(struct\|union\|enum\)[[:space:]]\+gt_\([a-z0-9_]*\)[[:space:]]*{.*/\3/p' |
		sort -u)
	prefixes=" $stem $family $types "
	while read -r sym; do
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
	done < <(nm -g --defined-only "$obj" | awk '$2 ~ /^[TDBR]$/ {print $3}')
done < <(find "$src" -name '*.c' | sort)

if [ "$errors" -gt 0 ]; then
	echo "names: $errors exported name(s) in $objects files not named after their module"
	exit 1
fi
echo "names: $objects files, every exported name is its module's"
