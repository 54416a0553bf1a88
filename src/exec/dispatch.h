/* dispatch.h: decoding a kernel with the executor's instruction families.
 * The IR floor (ir/decode.h) turns statements into instructions through a
 * table of family decoders; this is where the table is, one entry per
 * ops.def row, with the passes the families run over a decoded program. */
#ifndef SMEMU_DISPATCH_H
#define SMEMU_DISPATCH_H

#include "ir/decode.h"
#include <stddef.h>

/* Decode kernel `k` of module `m` into a new program (free it with
 * program_free). Returns 0, or -1 with "file:line:col: message" in err. */
int decode_kernel(const ptx_module *m, const ptx_func *k, const decode_env *env, program **out, char *err,
                  size_t errsize);

#endif
