#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bundle.sh DIR - packs what tests/hw/nvidia-validate.sh needs on a bare
# machine that has the NVIDIA driver but none of gputop's libraries:
# build/gputop, build/smicmp and build/nvmlcost (or those of $BUILD), the shared
# libraries they and tmux load (libc and the loader excepted: the
# target's own, same or newer), tmux itself, the terminfo entries tmux and the dashboard use, the themes, and
# a run.sh that sets the paths and calls nvidia-validate.sh. Where the bench
# is built (make bench builds it), also the bench, the fake NVML with the
# 8-GPU scenario, an nvtop found on PATH, and a bench.sh that runs the
# bench there (BENCH_ONLY=nvtop for the comparison with nvtop), and where
# an nvtop is packed, nvtop-real.sh (gputop against nvtop on the real
# driver, tests/hw/nvtop-real.sh); always late-process.sh (a process that
# appears on an idle GPU, tests/hw/late-process.sh) and short-rounds.sh (a
# busy process in snapshots of short rounds, tests/hw/short-rounds.sh).
#
#   make && make tests && tests/hw/bundle.sh build-hw-bundle
#   (on the GPU machine) build-hw-bundle/run.sh OUTDIR
#   (on the GPU machine) BENCH_ONLY=nvtop build-hw-bundle/bench.sh
#   (on the GPU machine) build-hw-bundle/nvtop-real.sh
#   (on the GPU machine) build-hw-bundle/late-process.sh
#   (on the GPU machine) BASELINE=old-gputop build-hw-bundle/short-rounds.sh
set -eu
dir=${1:?usage: bundle.sh DIR}
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
[ -x "$build/gputop" ] && [ -x "$build/smicmp" ] && [ -x "$build/nvmlcost" ] ||
	{ echo "bundle.sh: build first: make && make tests" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib" "$dir/terminfo"
cp "$build/gputop" "$build/smicmp" "$build/nvmlcost" tests/hw/nvidia-validate.sh \
	tests/hw/nvtop-real.sh tests/hw/late-process.sh tests/hw/short-rounds.sh tests/hw/gpu_load.py "$dir/bin/"
tmux=$(command -v tmux || true)
[ -n "$tmux" ] && cp "$tmux" "$dir/bin/"
cp -r themes "$dir/themes"
fake=$build/fake-nvml/libnvidia-ml.so.1
if [ -x "$build/tests/bench" ] && [ -f "$fake" ]; then
	cp "$build/tests/bench" "$dir/bin/"
	nvtop=$(command -v nvtop || true)
	[ -n "$nvtop" ] && cp "$nvtop" "$dir/bin/"
	# The bench gives the programs it measures LD_LIBRARY_PATH=fake/
	# alone: the libraries go there too. nvtop asks for libnvidia-ml.so
	# first: without that name it would load the machine's real NVML.
	mkdir -p "$dir/fake" "$dir/scenarios"
	cp "$fake" "$dir/fake/"
	ln -s libnvidia-ml.so.1 "$dir/fake/libnvidia-ml.so"
	cp tests/fake-nvml/scenarios/h100x8.scn "$dir/scenarios/"
fi
for b in "$dir"/bin/*; do
	case ${b##*/} in *.sh | *.py) continue ;; esac
	ldd "$b" | awk '/=> \//{print $3}' | grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[^/]*)\.so' |
		xargs -r -I{} cp -L {} "$dir/lib/"
done
for t in tmux-256color screen screen-256color xterm-256color xterm; do
	f=$(find /usr/share/terminfo /lib/terminfo -name "$t" 2>/dev/null | head -1)
	[ -n "$f" ] && mkdir -p "$dir/terminfo/${t:0:1}" && cp "$f" "$dir/terminfo/${t:0:1}/"
done
# env.sh: the bundle's binaries, libraries and terminfo, for every script
# below; each of them is a line that sources it and calls the real one.
cat >"$dir/env.sh" <<'EOF'
# Sourced by the bundle's scripts with $here set to the bundle's folder.
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TERMINFO_DIRS="$here/terminfo:/usr/share/terminfo:/lib/terminfo"
export PATH="$here/bin:$PATH"
export GPUTOP="$here/bin/gputop" SMICMP="$here/bin/smicmp" NVMLCOST="$here/bin/nvmlcost"
export NVTOP="$here/bin/nvtop" TMUX_BIN="$here/bin/tmux"
export GPUTOP_ARGS="--themes-dir $here/themes ${GPUTOP_ARGS:-}"
EOF
wrapper() { # NAME WHAT COMMAND: $dir/NAME runs COMMAND in env.sh's setting
	printf '%s\n' '#!/usr/bin/env bash' "# $2" \
		'here=$(cd "$(dirname "$0")" && pwd)' '. "$here/env.sh"' \
		"exec $3" >"$dir/$1"
	chmod +x "$dir/$1"
}
wrapper run.sh "Runs nvidia-validate.sh with the bundle's binaries." \
	'"$here/bin/nvidia-validate.sh" "$@"'
wrapper late-process.sh "A process that appears on an idle GPU during a run (needs PyTorch)." \
	'"$here/bin/late-process.sh" "$@"'
wrapper short-rounds.sh "A busy process's GPU % in snapshots 0.2 s and 0.1 s apart (needs PyTorch)." \
	'"$here/bin/short-rounds.sh" "$@"'
[ -x "$dir/bin/nvtop" ] &&
	wrapper nvtop-real.sh "gputop against nvtop on the real driver (BASELINE=older gputop beside)." \
		'"$here/bin/nvtop-real.sh" "$@"'
if [ -d "$dir/fake" ]; then
	for l in "$dir"/lib/*; do
		[ -e "$l" ] && ln -s "../lib/${l##*/}" "$dir/fake/"
	done
	wrapper bench.sh "Runs the bench against the fake NVML with the bundle's binaries." \
		'"$here/bin/bench" "$here/fake/libnvidia-ml.so.1" "$here/scenarios/h100x8.scn" "$here/bin/gputop"'
fi
du -sh "$dir" | cut -f1 | sed "s|^|bundle.sh: $dir: |"
