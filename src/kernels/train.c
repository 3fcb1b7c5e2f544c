/*
** kernels/train.c: the kernels of training, declared in train.h (no Lua
** here): softmax and log_softmax backward, and gradient clipping's norm and
** scaling. One text for both types: train_gen.h.
*/
#include <math.h>
#include <stddef.h>

#include "train.h"

#define LAK_GENERIC_FILE "train_gen.h"
#include "generate.h"
