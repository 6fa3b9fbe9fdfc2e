/*
 * runtime/worker.c: the worker runtime (placeholder; see the worker-runtime issue).
 */
#include "core/internal.h"
