/* fpsem.h: moved to model/fpsem.h (the IR rounds f16/bf16 literals with
 * it, below the executor); this name stays for the unit test that still
 * includes it. */
#include "model/fpsem.h"
