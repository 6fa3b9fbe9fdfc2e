/*
 * runtime/topology_hwloc.c: CPU topology from hwloc (placeholder; see the worker-runtime issue).
 */
#include "core/internal.h"
