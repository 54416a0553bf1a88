/* api_cluster.c: the cluster dimensions of a launch and their checks.
 * A launch takes them from cudaLaunchKernelEx's attribute, else from the
 * kernel (__cluster_dims__, i.e. .reqnctapercluster, or the required
 * cluster width/height/depth attributes set at run time); without either
 * every block is a cluster of one. The limits are the H100's: at most 8
 * blocks (16 with the non-portable attribute), dimensions dividing the
 * grid, at most .maxclusterrank blocks. */
#include "api/internal.h"
#include "exec/cluster.h"

smemu_status cluster_config(smemu_ctx *ctx, const smemu_kernel *k, const uint32_t g[3], const uint32_t *given,
                            uint32_t cd[3], int *explicit_) {
  const program *P = k->prog;
  const uint32_t *fixed = P->reqncluster[0] ? P->reqncluster : k->req_cluster[0] ? k->req_cluster : NULL;
  cd[0] = cd[1] = cd[2] = 1;
  *explicit_ = 0;
  /* a cluster-dimension attribute of (0,0,0) is none (H100: a plain launch) */
  if (given && !given[0] && !given[1] && !given[2]) given = NULL;
  if (given) {
    for (int i = 0; i < 3; i++) cd[i] = given[i];
    *explicit_ = 1;
    if (fixed)
      for (int i = 0; i < 3; i++)
        if ((fixed[i] ? fixed[i] : 1) != given[i])
          return ctx_error(
              ctx, SMEMU_ERR_CLUSTER_CONFIG,
              "cluster misconfiguration: the launch asks for clusters of (%u,%u,%u) blocks, kernel %s "
              "requires (%u,%u,%u)",
              given[0], given[1], given[2], P->name, fixed[0], fixed[1] ? fixed[1] : 1,
              fixed[2] ? fixed[2] : 1);
  } else if (fixed) {
    for (int i = 0; i < 3; i++) cd[i] = fixed[i] ? fixed[i] : 1;
    *explicit_ = 1;
  } else {
    if (P->explicit_cluster)
      return ctx_error(ctx, SMEMU_ERR_CLUSTER_CONFIG,
                       "cluster misconfiguration: kernel %s (.explicitcluster) needs cluster dimensions",
                       P->name);
    return SMEMU_OK;
  }
  if (!cd[0] || !cd[1] || !cd[2])
    return ctx_error(ctx, SMEMU_ERR_CLUSTER_CONFIG, "cluster misconfiguration: cluster dimensions (%u,%u,%u)",
                     cd[0], cd[1], cd[2]);
  uint64_t n = (uint64_t)cd[0] * cd[1] * cd[2];
  uint64_t limit = k->nonportable ? MAX_CLUSTER : MAX_CLUSTER_PORTABLE;
  if (P->maxclusterrank && P->maxclusterrank < limit) limit = P->maxclusterrank;
  if (n > limit)
    return ctx_error(ctx, SMEMU_ERR_CLUSTER_CONFIG,
                     "cluster misconfiguration: clusters of %llu blocks (%u,%u,%u); kernel %s allows %llu%s",
                     (unsigned long long)n, cd[0], cd[1], cd[2], P->name, (unsigned long long)limit,
                     !k->nonportable && n <= MAX_CLUSTER && limit == MAX_CLUSTER_PORTABLE
                         ? " (9 to 16 need the NonPortableClusterSizeAllowed attribute)"
                         : "");
  for (int i = 0; i < 3; i++)
    if (g[i] % cd[i])
      return ctx_error(
          ctx, SMEMU_ERR_CLUSTER_CONFIG,
          "cluster misconfiguration: the grid (%u,%u,%u) is not a multiple of the cluster dimensions "
          "(%u,%u,%u)",
          g[0], g[1], g[2], cd[0], cd[1], cd[2]);
  return SMEMU_OK;
}

smemu_status smemu_kernel_cluster_dims(smemu_kernel *k, const uint32_t grid[3], const uint32_t *cdims,
                                       uint32_t out[3]) {
  if (!k || !k->prog || !grid || !out) return SMEMU_ERR_INVALID_VALUE;
  int ex;
  return cluster_config(k->mod->ctx, k, grid, cdims, out, &ex);
}
