/* SPDX-License-Identifier: MIT */
/*
 * fake_system.c - exported system queries (driver, NVML and CUDA versions,
 * process names), device enumeration and handle lookup, and the identity
 * of a device (name, UUID, serial, PCI info, brand, architecture, ...).
 */
#include <stdio.h>
#include <string.h>

#include "fake.h"

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(FN_nvmlSystemGetDriverVersion, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	return fake_leave(
	    fake_copy_text(&c.sc->driver_version, version, length));
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(FN_nvmlSystemGetNVMLVersion, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	return fake_leave(fake_copy_text(&c.sc->nvml_version, version, length));
}

static nvmlReturn_t cuda_version(enum fake_fn fn, int *out)
{
	struct fake_call c;
	const struct fake_expr *e;
	double v = 0;
	nvmlReturn_t rc = fake_enter(fn, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (out == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	e = fn == FN_nvmlSystemGetCudaDriverVersion ? &c.sc->cuda_version
	                                            : &c.sc->cuda_version_v2;
	rc = fake_eval(e, fake_expr_time(&c, e), &v);
	if (rc == NVML_SUCCESS)
		*out = (int)v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion)
{
	return cuda_version(FN_nvmlSystemGetCudaDriverVersion,
	                    cudaDriverVersion);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *cudaDriverVersion)
{
	return cuda_version(FN_nvmlSystemGetCudaDriverVersion_v2,
	                    cudaDriverVersion);
}

/* Names come from the scenario's process_name lines, never from /proc:
 * scenario PIDs belong to a /proc fixture, not to this host. */
nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name,
                                      unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(FN_nvmlSystemGetProcessName, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (name == NULL || length == 0)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	for (size_t i = 0; i < c.sc->npnames; i++)
		if (c.sc->pnames[i].pid == pid)
			return fake_leave(
			    fake_copy_str(c.sc->pnames[i].name, name, length));
	return fake_leave(NVML_ERROR_NOT_FOUND);
}

static nvmlReturn_t device_count(enum fake_fn fn, unsigned int *count)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(fn, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (count == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	*count = c.sc->ndev;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetCount(unsigned int *deviceCount)
{
	return device_count(FN_nvmlDeviceGetCount, deviceCount);
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
{
	return device_count(FN_nvmlDeviceGetCount_v2, deviceCount);
}

/* A device's own injected error for this function applies, so a scenario
 * can hide one GPU (NO_PERMISSION, as cgroups do) or fail its attach. */
static nvmlReturn_t handle_by_index(enum fake_fn fn, unsigned int index,
                                    nvmlDevice_t *device)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(fn, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (device == NULL || index >= c.sc->ndev)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_injected_error(c.sc, &c.sc->devs[index], fn);
	if (rc == NVML_SUCCESS)
		*device = fake_handle(index, -1);
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index,
                                        nvmlDevice_t *device)
{
	return handle_by_index(FN_nvmlDeviceGetHandleByIndex, index, device);
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
                                           nvmlDevice_t *device)
{
	return handle_by_index(FN_nvmlDeviceGetHandleByIndex_v2, index, device);
}

nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter(FN_nvmlDeviceGetHandleByUUID, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (uuid == NULL || device == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	for (unsigned int i = 0; i < c.sc->ndev; i++) {
		const struct fake_dev *d = &c.sc->devs[i];

		if (d->uuid.set && d->uuid.rc == NVML_SUCCESS &&
		    strcmp(d->uuid.s, uuid) == 0) {
			*device = fake_handle(i, -1);
			return fake_leave(NVML_SUCCESS);
		}
		for (unsigned int m = 0; m < d->nmig; m++) {
			if (strcmp(d->mig[m].uuid, uuid) == 0) {
				*device = fake_handle(i, (int)m);
				return fake_leave(NVML_SUCCESS);
			}
		}
	}
	return fake_leave(NVML_ERROR_NOT_FOUND);
}

/* Accepts "dddddddd:bb:dd.f", "dddd:bb:dd.f" and "bb:dd.f" in any case. */
static int parse_bus_id(const char *s, unsigned int *dom, unsigned int *bus,
                        unsigned int *dev)
{
	unsigned int fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", dom, bus, dev, &fn, &tail) == 4)
		return 0;
	*dom = 0;
	if (sscanf(s, "%x:%x.%x%c", bus, dev, &fn, &tail) == 3)
		return 0;
	return -1;
}

static nvmlReturn_t handle_by_bus_id(enum fake_fn fn, const char *bus_id,
                                     nvmlDevice_t *device)
{
	struct fake_call c;
	unsigned int dom, bus, dev;
	nvmlReturn_t rc = fake_enter(fn, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (bus_id == NULL || device == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (parse_bus_id(bus_id, &dom, &bus, &dev) != 0)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	for (unsigned int i = 0; i < c.sc->ndev; i++) {
		const struct fake_dev *d = &c.sc->devs[i];
		unsigned int ddom = 0, dbus, ddev;
		double t = fake_call_time(&c);

		if (fake_get_u_at(d, K_PCI_BUS, t, &dbus) != NVML_SUCCESS ||
		    fake_get_u_at(d, K_PCI_DEVICE, t, &ddev) != NVML_SUCCESS)
			continue;
		(void)fake_get_u_at(d, K_PCI_DOMAIN, t, &ddom);
		if (ddom == dom && dbus == bus && ddev == dev) {
			*device = fake_handle(i, -1);
			return fake_leave(NVML_SUCCESS);
		}
	}
	return fake_leave(NVML_ERROR_NOT_FOUND);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId(const char *pciBusId,
                                           nvmlDevice_t *device)
{
	return handle_by_bus_id(FN_nvmlDeviceGetHandleByPciBusId, pciBusId,
	                        device);
}

nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char *pciBusId,
                                              nvmlDevice_t *device)
{
	return handle_by_bus_id(FN_nvmlDeviceGetHandleByPciBusId_v2, pciBusId,
	                        device);
}

nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetIndex, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (index == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	*index = c.gpu;
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device,
                                      unsigned int *minorNumber)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetMinorNumber, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (minorNumber == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	return fake_leave(fake_get_u(&c, K_MINOR, minorNumber));
}

/* A MIG device is named after its parent and profile, as nvidia-smi shows
 * it: "NVIDIA A100-SXM4-40GB MIG 3g.20gb". */
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name,
                               unsigned int length)
{
	struct fake_call c;
	char buf[FAKE_TEXT_LEN + 48];
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetName, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (c.mig == NULL)
		return fake_leave(fake_copy_text(&c.dev->name, name, length));
	if (!c.dev->name.set || c.dev->name.rc != NVML_SUCCESS)
		return fake_leave(NVML_ERROR_NOT_SUPPORTED);
	snprintf(buf, sizeof(buf), "%s MIG %s", c.dev->name.s, c.mig->profile);
	return fake_leave(fake_copy_str(buf, name, length));
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid,
                               unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetUUID, device, FAKE_MIG_OK, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (c.mig != NULL)
		return fake_leave(fake_copy_str(c.mig->uuid, uuid, length));
	return fake_leave(fake_copy_text(&c.dev->uuid, uuid, length));
}

nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t device, char *serial,
                                 unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetSerial, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	return fake_leave(fake_copy_text(&c.dev->serial, serial, length));
}

nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t device, char *version,
                                       unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetVbiosVersion, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	return fake_leave(fake_copy_text(&c.dev->vbios, version, length));
}

nvmlReturn_t nvmlDeviceGetBoardPartNumber(nvmlDevice_t device, char *partNumber,
                                          unsigned int length)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetBoardPartNumber, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	return fake_leave(
	    fake_copy_text(&c.dev->part_number, partNumber, length));
}

struct pci_ids {
	unsigned int dom, bus, dev, id, sub;
};

/* bus and device are required; the rest default to 0. */
static nvmlReturn_t pci_ids(const struct fake_call *c, struct pci_ids *p)
{
	nvmlReturn_t rc;

	memset(p, 0, sizeof(*p));
	rc = fake_get_u(c, K_PCI_BUS, &p->bus);
	if (rc == NVML_SUCCESS)
		rc = fake_get_u(c, K_PCI_DEVICE, &p->dev);
	if (rc != NVML_SUCCESS)
		return rc;
	(void)fake_get_u(c, K_PCI_DOMAIN, &p->dom);
	(void)fake_get_u(c, K_PCI_DEVICE_ID, &p->id);
	(void)fake_get_u(c, K_PCI_SUBSYSTEM_ID, &p->sub);
	p->dom &= 0xffffu;
	p->bus &= 0xffu;
	p->dev &= 0x1fu;
	return NVML_SUCCESS;
}

/* v1/v2 callers may hand a 52-byte struct: write only that much. */
static nvmlReturn_t pci_info(enum fake_fn fn, nvmlDevice_t device,
                             nvmlPciInfo_t *pci, int legacy)
{
	struct fake_call c;
	struct pci_ids p;
	nvmlPciInfo_t tmp;
	nvmlReturn_t rc = fake_enter_dev(fn, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (pci == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = pci_ids(&c, &p);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	memset(&tmp, 0, sizeof(tmp));
	snprintf(tmp.busIdLegacy, sizeof(tmp.busIdLegacy), "%04X:%02X:%02X.0",
	         p.dom, p.bus, p.dev);
	snprintf(tmp.busId, sizeof(tmp.busId), "%08X:%02X:%02X.0", p.dom, p.bus,
	         p.dev);
	tmp.domain = p.dom;
	tmp.bus = p.bus;
	tmp.device = p.dev;
	tmp.pciDeviceId = p.id;
	tmp.pciSubSystemId = p.sub;
	if (legacy) {
		memcpy(pci, &tmp, GT_NVML_PCI_INFO_V1_FILLED);
		memset((char *)pci + GT_NVML_PCI_INFO_V1_FILLED, 0,
		       GT_NVML_PCI_INFO_V1_SIZE - GT_NVML_PCI_INFO_V1_FILLED);
	} else {
		*pci = tmp;
	}
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	return pci_info(FN_nvmlDeviceGetPciInfo, device, pci, 1);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	return pci_info(FN_nvmlDeviceGetPciInfo_v2, device, pci, 1);
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
	return pci_info(FN_nvmlDeviceGetPciInfo_v3, device, pci, 0);
}

nvmlReturn_t nvmlDeviceGetPciInfoExt(nvmlDevice_t device, nvmlPciInfoExt_t *pci)
{
	struct fake_call c;
	struct pci_ids p;
	unsigned int base = 3, sub = 0; /* display controller, VGA */
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetPciInfoExt, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (pci == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	if (pci->version != GT_NVML_PCI_INFO_EXT_V1_VERSION)
		return fake_leave(NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
	rc = pci_ids(&c, &p);
	if (rc != NVML_SUCCESS)
		return fake_leave(rc);
	(void)fake_get_u(&c, K_PCI_BASE_CLASS, &base);
	(void)fake_get_u(&c, K_PCI_SUB_CLASS, &sub);
	pci->domain = p.dom;
	pci->bus = p.bus;
	pci->device = p.dev;
	pci->pciDeviceId = p.id;
	pci->pciSubSystemId = p.sub;
	pci->baseClass = base;
	pci->subClass = sub;
	memset(pci->busId, 0, sizeof(pci->busId));
	snprintf(pci->busId, sizeof(pci->busId), "%08X:%02X:%02X.0", p.dom,
	         p.bus, p.dev);
	return fake_leave(NVML_SUCCESS);
}

nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, nvmlBrandType_t *type)
{
	struct fake_call c;
	unsigned int v = 0;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetBrand, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (type == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_u(&c, K_BRAND, &v);
	if (rc == NVML_SUCCESS)
		*type = (nvmlBrandType_t)v;
	return fake_leave(rc);
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device,
                                       nvmlDeviceArchitecture_t *arch)
{
	struct fake_call c;
	nvmlReturn_t rc =
	    fake_enter_dev(FN_nvmlDeviceGetArchitecture, device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (arch == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	return fake_leave(fake_get_u(&c, K_ARCH, arch));
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major,
                                                int *minor)
{
	struct fake_call c;
	int ma = 0, mi = 0;
	nvmlReturn_t rc = fake_enter_dev(FN_nvmlDeviceGetCudaComputeCapability,
	                                 device, 0, &c);

	if (rc != NVML_SUCCESS)
		return rc;
	if (major == NULL || minor == NULL)
		return fake_leave(NVML_ERROR_INVALID_ARGUMENT);
	rc = fake_get_i(&c, K_CC_MAJOR, &ma);
	if (rc == NVML_SUCCESS)
		rc = fake_get_i(&c, K_CC_MINOR, &mi);
	if (rc == NVML_SUCCESS) {
		*major = ma;
		*minor = mi;
	}
	return fake_leave(rc);
}
