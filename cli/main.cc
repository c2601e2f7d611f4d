// netdoctor: wiring only. All behaviour lives in the libraries and cli/cmd_*.cc.
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  return netdoctor::cli::run_cli(argc, argv, std::cout, std::cerr);
}
