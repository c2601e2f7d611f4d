// netdoctor: wiring only. All behaviour lives in the libraries and cli/cmd_*.cc.
#include <iostream>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/command.h"

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // Buffers of a MiB and more (Prometheus answers of tens of MB, their parse) are mapped and
  // unmapped on their own. glibc's default raises this threshold to 32 MB after the first large
  // free; then every answer is carved from the heap the fabric model lives in, and a 4,096-host
  // read ends ~70 MB over what it holds (bench/prometheus_bench.sh: 1,015 vs 959 MiB peak).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  return netdoctor::cli::run_cli(argc, argv, std::cout, std::cerr);
}
