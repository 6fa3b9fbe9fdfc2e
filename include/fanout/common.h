/*
 * fanout/common.h: export macro, id types and version shared by every public header.
 *
 * Node and edge ids are int64_t everywhere in the API (fo_nid_t, fo_eid_t), 0-based and dense
 * in [0, n_nodes) and [0, n_edges), so the library works past 2^31 nodes and edges.
 */
#ifndef FANOUT_COMMON_H
#define FANOUT_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(FO_BUILDING)
#define FO_API __attribute__((visibility("default")))
#else
#define FO_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** Global node id: 0-based, dense in [0, n_nodes). */
typedef int64_t fo_nid_t;
/** Global edge id: 0-based, dense in [0, n_edges); see dataset.h for what it indexes. */
typedef int64_t fo_eid_t;

/** Edge direction of neighbor sampling (PyG/DGL `edge_dir`). */
typedef enum fo_edge_dir {
  FO_EDGE_DIR_IN = 0, /**< a node's in-neighbors (sources of edges into it); uses the CSC */
  FO_EDGE_DIR_OUT = 1 /**< a node's out-neighbors (targets of its edges); uses the CSR */
} fo_edge_dir;

/**
 * The library version as "MAJOR.MINOR.PATCH"; a static string.
 * Thread-safety: any thread. Cost: O(1).
 */
FO_API const char *fo_version(void);

#ifdef __cplusplus
}
#endif
#endif
