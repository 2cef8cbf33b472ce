// SPDX-License-Identifier: Apache-2.0
// seeds.c: `snf_seeds DIR` writes the checkpoint target's seed inputs into DIR (checkpoints of
// the harness's world; scripts/fuzz.sh makes the checkpoint corpus with it)
#include "harness.h"

#include <stdio.h>

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: snf_seeds DIR\n");
        return 2;
    }
    if (snf_write_checkpoint_seeds(argv[1]) != 0) {
        fprintf(stderr, "snf_seeds: cannot write the checkpoints into %s\n", argv[1]);
        return 1;
    }
    return 0;
}
