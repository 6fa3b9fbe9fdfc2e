/*
 * fanout/worker.h: the worker runtime (placeholder; see the worker-runtime issue).
 */
#ifndef FANOUT_WORKER_H
#define FANOUT_WORKER_H

#include "common.h"

#endif
