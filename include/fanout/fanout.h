/*
 * fanout.h: the whole public API of fanout, a C11 library for multi-hop neighbor sampling
 * that feeds GNN training with mini-batches.
 */
#ifndef FANOUT_FANOUT_H
#define FANOUT_FANOUT_H

#include "common.h"
#include "error.h"
#include "log.h"
#include "random.h"
#include "dataset.h"
#include "import.h"
#include "sampler.h"
#include "loader.h"
#include "link.h"
#include "ablp.h"
#include "partition.h"
#include "dist.h"
#include "worker.h"

#endif
