/* static_rt.h: what the static CUDA runtime's private interfaces need
 * (export_tables.c, integrity.c; the logging shim of tests/hw/static_rt
 * uses the integrity part too, hence no other smemu header). */
#ifndef SMEMU_STATIC_RT_H
#define SMEMU_STATIC_RT_H

#include <stddef.h>
#include <stdint.h>

/* The integrity handshake's input, hashed as the runtime hashes it (48
 * bytes, this layout on x86-64). */
typedef struct static_rt_integrity_in {
  uint32_t driver_version;  /* cuDriverGetVersion */
  uint32_t version;         /* the runtime's argument */
  uint32_t pid, tid;        /* getpid(), (uint32_t)pthread_self() */
  const void *cudart_table; /* the {6bd5fb6c} table the runtime holds */
  const void *integrity_table;
  const void *fn;        /* the integrity function, as in its table */
  uint64_t unix_seconds; /* the runtime's argument */
} static_rt_integrity_in;

/* Per device (28 bytes): what cuDeviceGetUuid and the PCI attributes say. */
typedef struct static_rt_device_id {
  unsigned char uuid[16];
  int pci_domain, pci_bus, pci_device;
} static_rt_device_id;

/* The 16-byte answer for `in` and ndev devices into out. */
void static_rt_integrity(const static_rt_integrity_in *in, const static_rt_device_id *devs, int ndev,
                         uint64_t out[2]);
/* MD2 (RFC 1319) of n bytes, for the tests of the hash. */
void static_rt_md2(const void *data, size_t n, unsigned char digest[16]);

/* The fatbinary inside nvcc's wrapper (magic 0x466243b1: what the static
 * runtime hands the driver); image itself when it is no wrapper. */
const void *static_rt_unwrap(const void *image);

/* A device attribute only cudaDeviceProp holds (device_attr_props.c); -1
 * when attr is none of them. */
int rt_device_attribute_props(int attr, int *v);

/* cuDevicePrimaryCtxReset: the context-local storage's destructors (the
 * static runtime keeps its per-context state there), then what
 * cudaDeviceReset does. */
void static_rt_ctx_reset(void);

#endif
