#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layers_check.sh - the checkers of `make layers` catch what they are for:
# tests/tools/layers.sh on a copy of src/ with a forbidden include, an
# include that does not name its folder and an include loop put in, and
# tests/tools/names.sh on a small tree whose file exports a name that is
# not its module's. The real tree must pass both (make layers checks that;
# here the clean copy must pass layers.sh before the faults go in).
set -u
cd "$(dirname "$0")/../.." || exit 1

failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r src "$tmp/src"

out=$(tests/tools/layers.sh "$tmp/src" 2>&1) || fail "clean copy refused: $out"

# A core file that reaches up into the UI.
sed -i 's|^#include "core/model.h"$|&\n#include "ui/theme.h"|' "$tmp/src/core/model.c"
# An include that does not name its folder.
echo '#include "model.h"' >>"$tmp/src/core/ring.c"
# A loop: ring.h -> view.h -> collector.h -> ring.h.
sed -i 's|^#include <stdint.h>$|&\n#include "core/view.h"|' "$tmp/src/core/ring.h"

out=$(tests/tools/layers.sh "$tmp/src" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "layers.sh exited $rc on a broken tree, not 1"
echo "$out" | grep -q 'core/model.c:[0-9]*: core may not include ui ("ui/theme.h")' ||
	fail "forbidden include not reported: $out"
echo "$out" | grep -q 'core/ring.c:[0-9]*: #include "model.h" names no file' ||
	fail "include without its folder not reported: $out"
echo "$out" | grep -q 'module loop: .*core/ring.*core/view.*core/collector\|module loop: .*core/collector.*core/ring.*core/view\|module loop: .*core/view.*core/collector.*core/ring' ||
	fail "loop not reported: $out"
echo "$out" | grep -q '^layers: 3 problem(s)' || fail "not 3 problems: $out"

# names.sh: one module exporting its own name and a stranger's.
mkdir -p "$tmp/n/src/core" "$tmp/n/build/src/core"
cat >"$tmp/n/src/core/thing.h" <<'EOF'
struct gt_widget {
	int x;
};
EOF
cat >"$tmp/n/src/core/thing.c" <<'EOF'
#include "thing.h"
int gt_thing_count(void);
int gt_widget_size(void);
int gt_other_name(void);
int gt_thing_count(void) { return 1; }
int gt_widget_size(void) { return 2; }
int gt_other_name(void) { return 3; }
static int helper(void) { return 4; }
int (*keep)(void) = helper;
EOF
cc -c -o "$tmp/n/build/src/core/thing.o" "$tmp/n/src/core/thing.c" ||
	fail "cannot compile the names fixture"
out=$(tests/tools/names.sh "$tmp/n/build" "$tmp/n/src" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "names.sh exited $rc on a stranger's name, not 1"
echo "$out" | grep -q 'exports gt_other_name' || fail "gt_other_name not reported: $out"
echo "$out" | grep -q 'exports keep' || fail "keep not reported: $out"
echo "$out" | grep -q 'gt_thing_count\|gt_widget_size' &&
	fail "a module's own name (or its type's) reported: $out"

[ "$failures" = 0 ] || echo "layers_check.sh: $failures failure(s)"
[ "$failures" = 0 ]
