#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bundle.sh DIR - packs what tests/hw/nvidia-validate.sh needs on a bare
# machine that has the NVIDIA driver but none of gputop's libraries:
# build/gputop, build/smicmp and build/nvmlcost (or those of $BUILD), the shared
# libraries they and tmux load (libc and the loader excepted: the
# target's own, same or newer), tmux itself, the terminfo entries tmux and the dashboard use, the themes, and
# a run.sh that sets the paths and calls nvidia-validate.sh.
#
#   make && make tests && tests/hw/bundle.sh build-hw-bundle
#   (on the GPU machine) build-hw-bundle/run.sh OUTDIR
set -eu
dir=${1:?usage: bundle.sh DIR}
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
[ -x "$build/gputop" ] && [ -x "$build/smicmp" ] && [ -x "$build/nvmlcost" ] ||
	{ echo "bundle.sh: build first: make && make tests" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib" "$dir/terminfo"
cp "$build/gputop" "$build/smicmp" "$build/nvmlcost" tests/hw/nvidia-validate.sh "$dir/bin/"
tmux=$(command -v tmux || true)
[ -n "$tmux" ] && cp "$tmux" "$dir/bin/"
cp -r themes "$dir/themes"
for b in "$dir"/bin/gputop "$dir"/bin/smicmp "$dir"/bin/nvmlcost ${tmux:+"$dir/bin/tmux"}; do
	ldd "$b" | awk '/=> \//{print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[^/]*)\.so' |
		xargs -r -I{} cp -L {} "$dir/lib/"
done
for t in tmux-256color screen screen-256color xterm-256color xterm; do
	f=$(find /usr/share/terminfo /lib/terminfo -name "$t" 2>/dev/null | head -1)
	[ -n "$f" ] && mkdir -p "$dir/terminfo/${t:0:1}" && cp "$f" "$dir/terminfo/${t:0:1}/"
done
cat >"$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs nvidia-validate.sh with the bundle's binaries and libraries.
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TERMINFO_DIRS="$here/terminfo:/usr/share/terminfo:/lib/terminfo"
export PATH="$here/bin:$PATH"
export GPUTOP="$here/bin/gputop" SMICMP="$here/bin/smicmp" NVMLCOST="$here/bin/nvmlcost"
export GPUTOP_ARGS="--themes-dir $here/themes ${GPUTOP_ARGS:-}"
exec "$here/bin/nvidia-validate.sh" "$@"
EOF
chmod +x "$dir/run.sh"
du -sh "$dir" | cut -f1 | sed "s|^|bundle.sh: $dir: |"
