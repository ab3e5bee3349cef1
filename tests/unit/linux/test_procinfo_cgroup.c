/* SPDX-License-Identifier: MIT */
/*
 * test_procinfo_cgroup.c - tests of src/linux/procinfo_cgroup.c: the text
 * of a /proc/PID/cgroup file and the container it names (docker, podman,
 * containerd, CRI-O, kubernetes pods, lxc, nspawn, systemd services),
 * hostile names made safe, and the bounds of the output and the text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/model.h"
#include "linux/procinfo.h"

/* A cgroup file's text and the container it names. */
static const struct {
	const char *text, *want;
} cgroup_cases[] = {
    /* docker */
    {"0::/system.slice/docker-4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f"
     "7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b.scope\n",
     "docker:4f3c2a1b9e8d"},
    {"0::/docker/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0"
     "d9c8b7a6f5e4d3c2b\n",
     "docker:4f3c2a1b9e8d"},
    {"4:memory:/docker/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a"
     "2f1e0d9c8b7a6f5e4d3c2b\n1:name=systemd:/docker/4f3c2a1b9e8d"
     "7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b\n",
     "docker:4f3c2a1b9e8d"},
    /* docker in docker: the innermost */
    {"0::/docker/aaaaaaaaaaaaaaaa/docker/bbbbbbbbbbbbbbbb\n",
     "docker:bbbbbbbbbbbb"},
    /* rootless docker under user.slice */
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "docker-0123456789abcdef.scope\n",
     "docker:0123456789ab"},
    /* dockerd itself is a service, not a container */
    {"0::/system.slice/docker.service\n", "systemd:docker.service"},
    /* too short to be an id; not hex */
    {"0::/system.slice/docker-abc.scope\n", ""},
    {"0::/docker/not-a-container-id\n", ""},
    {"0::/system.slice/docker-0123456789abcdefg.scope\n", ""},
    /* podman */
    {"0::/machine.slice/libpod-a1b2c3d4e5f60718293a4b5c6d7e8f90a1"
     "b2c3d4e5f60718293a4b5c6d7e8f90.scope/container\n",
     "podman:a1b2c3d4e5f6"},
    {"0::/libpod_parent/libpod-a1b2c3d4e5f60718\n", "podman:a1b2c3d4e5f6"},
    {"0::/machine.slice/libpod-conmon-a1b2c3d4e5f60718.scope\n", ""},
    /* containerd, CRI-O */
    {"0::/system.slice/cri-containerd-0123456789abcdef0123.scope\n",
     "containerd:0123456789ab"},
    {"0::/system.slice/nerdctl-fedcba9876543210.scope\n",
     "containerd:fedcba987654"},
    {"0::/machine.slice/crio-0123456789abcdef.scope\n", "crio:0123456789ab"},
    {"0::/machine.slice/crio-conmon-0123456789abcdef.scope\n", ""},
    /* kubernetes: systemd driver, all QoS classes */
    {"0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable"
     "-pod3f2a9c1e_5b7d_4e8f_9a0b_1c2d3e4f5a6b.slice/cri-containerd"
     "-0123456789abcdef.scope\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    {"0::/kubepods.slice/kubepods-besteffort.slice/kubepods-"
     "besteffort-pod11111111_2222_3333_4444_555555555555.slice/"
     "crio-0123456789abcdef.scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    {"0::/kubepods.slice/kubepods-pod11111111_2222_3333_4444_"
     "555555555555.slice/cri-containerd-0123456789abcdef.scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* kind / k3s prefix the slices with kubelet- */
    {"0::/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-"
     "besteffort.slice/kubelet-kubepods-besteffort-pod11111111_2222"
     "_3333_4444_555555555555.slice/cri-containerd-0123456789abcdef"
     ".scope\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* kubernetes: cgroupfs driver, cgroup v1 */
    {"11:memory:/kubepods/burstable/pod3f2a9c1e-5b7d-4e8f-9a0b-"
     "1c2d3e4f5a6b/4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    {"11:cpu:/kubepods/pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b/"
     "4f3c2a1b9e8d7c6b\n",
     "k8s:pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"},
    /* a "pod..." directory outside kubepods is nothing special */
    {"0::/pod3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b\n", ""},
    /* lxc / lxd / incus */
    {"0::/lxc.payload.web01/system.slice/nginx.service\n", "lxc:web01"},
    {"4:memory:/lxc/db-2\n", "lxc:db-2"},
    {"0::/lxc.payload/build_box\n", "lxc:build_box"},
    {"0::/lxc.monitor.web01\n", ""},
    /* systemd-nspawn */
    {"0::/machine.slice/systemd-nspawn@arch.service/payload\n", "nspawn:arch"},
    /* systemd services */
    {"0::/system.slice/nginx.service\n", "systemd:nginx.service"},
    {"0::/system.slice/system-getty.slice/getty@tty1.service\n",
     "systemd:getty@tty1.service"},
    {"1:name=systemd:/system.slice/ssh.service\n"
     "0::/system.slice/ssh.service\n",
     "systemd:ssh.service"},
    {"0::/system.slice/nginx.service (deleted)\n", "systemd:nginx.service"},
    /* user sessions and services of users: not containers */
    {"0::/user.slice/user-1000.slice/session-3.scope\n", ""},
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "app-gnome-firefox-1234.scope\n",
     ""},
    {"0::/user.slice/user-1000.slice/user@1000.service/app.slice/"
     "pipewire.service\n",
     ""},
    /* nothing */
    {"0::/\n", ""},
    {"0::/init.scope\n", ""},
    {"", ""},
    {"garbage", ""},
    {"::\n:\n0::relative/path\n", ""},
    /* across lines: a container outranks a service; a pod both */
    {"1:name=systemd:/system.slice/containerd.service\n"
     "0::/docker/0123456789abcdef\n",
     "docker:0123456789ab"},
    {"2:cpu:/docker/0123456789abcdef\n"
     "1:memory:/kubepods/besteffort/pod11111111-2222-3333-4444-"
     "555555555555/0123456789abcdef\n",
     "k8s:pod11111111-2222-3333-4444-555555555555"},
    /* equal rank: the first line wins */
    {"2:cpu:/docker/aaaaaaaaaaaaaaaa\n"
     "1:memory:/docker/bbbbbbbbbbbbbbbb\n",
     "docker:aaaaaaaaaaaa"},
    /* no newline at the end */
    {"0::/system.slice/cron.service", "systemd:cron.service"},
    /* hostile names cannot carry control bytes out */
    {"0::/lxc.payload.ev\x1b]0;x\x07il\n", "lxc:ev__0_x_il"},
    {"0::/system.slice/a b\xff.service\n", "systemd:a_b_.service"},
    /* the path may hold ':' */
    {"0::/system.slice/foo:bar.service\n", "systemd:foo:bar.service"},
};

static void test_parse_cgroup(void **state)
{
	(void)state;

	for (size_t i = 0; i < sizeof(cgroup_cases) / sizeof(cgroup_cases[0]);
	     i++) {
		char out[GT_CONTAINER_LEN];
		memset(out, 'Z', sizeof(out));
		gt_procinfo_parse_cgroup(cgroup_cases[i].text,
		                         strlen(cgroup_cases[i].text), out,
		                         sizeof(out));
		if (strcmp(out, cgroup_cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, out,
			         cgroup_cases[i].want);
	}
}

static void test_parse_cgroup_limits(void **state)
{
	char out[GT_CONTAINER_LEN], small[10];
	char text[1024];
	(void)state;

	/* a long unit name is cut to the field, NUL-terminated */
	int n = snprintf(text, sizeof(text), "0::/system.slice/");
	for (int i = 0; i < 200; i++)
		text[n++] = 'a';
	snprintf(text + n, sizeof(text) - (size_t)n, ".service\n");
	gt_procinfo_parse_cgroup(text, strlen(text), out, sizeof(out));
	assert_int_equal(strlen(out), sizeof(out) - 1);
	assert_memory_equal(out, "systemd:aaaa", 12);

	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 27, small,
	                         sizeof(small));
	assert_string_equal(small, "docker:01");

	/* len bounds the text: the id after it is not seen */
	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 20, out,
	                         sizeof(out));
	assert_string_equal(out, "");

	/* embedded NUL bytes do not end the parse early or crash */
	static const char nul[] = "0::/\0\n0::/system.slice/x.service\n";
	gt_procinfo_parse_cgroup(nul, sizeof(nul) - 1, out, sizeof(out));
	assert_string_equal(out, "systemd:x.service");

	gt_procinfo_parse_cgroup(NULL, 0, out, sizeof(out));
	assert_string_equal(out, "");
	out[0] = 'Q';
	gt_procinfo_parse_cgroup("0::/docker/0123456789abcdef", 27, out, 0);
	assert_int_equal(out[0], 'Q');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_cgroup),
	    cmocka_unit_test(test_parse_cgroup_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
