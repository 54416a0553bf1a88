/* fuzz_fatbin.c: the libFuzzer target of the fatbinary and cubin (ELF)
 * reader (runtime/core/fatbin.c): any bytes must parse or fail with a message,
 * reading only the bytes there are (fb_parse_n), for the emulated
 * architecture and an older one. tests/fuzz/replay.c runs it over
 * tests/fuzz/corpus_fatbin. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../runtime/rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int ccs[] = {90, 80};
  for (int i = 0; i < 2; i++) {
    fb_image img;
    if (fb_parse_n(data, size, ccs[i], &img) == 0) {
      volatile size_t sink = img.ptx ? strlen(img.ptx) : strlen(img.err);
      for (int k = 0; k < img.nkinfo; k++) sink += strlen(img.kinfo[k].name);
      (void)sink;
    }
    fb_free(&img);
  }
  return 0;
}
