/*
 * runtime/topology_hwloc.c: the CPU topology from hwloc, reduced to what the worker runtime's
 * plan needs, and the binding of the process to a cpuset. Compiled only with FO_WITH_HWLOC.
 *
 * The physical cores are hwloc's Core objects in logical order (the order of the topology tree:
 * package by package, NUMA node by NUMA node), never an OS numbering, so SMT siblings are found
 * whether the OS numbers them round-robin (0 and C) or adjacent (0 and 1). Each core keeps the
 * OS indexes of its PUs and the OS index of the NUMA node that holds it. On this machine hwloc
 * leaves out the PUs the process may not use (cgroup cpusets), so a core appears with its
 * allowed PUs only, and a core without any does not appear. A topology without Core objects
 * (some virtual machines, synthetic "pu:4") is read as one core per PU.
 */
#include "runtime/runtime_internal.h"

#include <errno.h>
#include <hwloc.h>

bool fo__have_hwloc(void) { return true; }

void fo__cpu_topo_free(fo__cpu_topo *t) {
  if (!t) return;
  free(t->cores);
  free(t->pus);
  if (t->hw) hwloc_topology_destroy((hwloc_topology_t)t->hw);
  memset(t, 0, sizeof *t);
}

/* The OS index of the NUMA node holding `set`: the first (in logical order) whose cpuset
 * includes it, else the first it intersects, else -1. */
static int32_t numa_of(hwloc_topology_t hw, hwloc_const_cpuset_t set) {
  int n = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < n; i++) {
      hwloc_obj_t node = hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
      if (!node || !node->cpuset) continue;
      if (pass == 0 ? hwloc_bitmap_isincluded(set, node->cpuset)
                    : hwloc_bitmap_intersects(set, node->cpuset))
        return (int32_t)node->os_index;
    }
  return -1;
}

/* Fill t->cores and t->pus from the loaded hwloc topology. */
static int extract(hwloc_topology_t hw, fo__cpu_topo *t) {
  hwloc_obj_type_t type = HWLOC_OBJ_CORE;
  int n_cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
  int n_pus = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
  uint64_t numa_seen[FO_WORKER_MAX_NUMA / 64] = {0};
  if (n_cores <= 0) { /* no Core level: every PU is a core */
    type = HWLOC_OBJ_PU;
    n_cores = n_pus;
  }
  if (n_cores <= 0 || n_pus <= 0) return FO_FAIL(FO_EFORMAT, "the topology has no PU");
  t->cores = fo__calloc_n(n_cores, sizeof *t->cores);
  t->pus = fo__calloc_n(n_pus, sizeof *t->pus);
  if (!t->cores || !t->pus) return FO_FAIL(FO_ENOMEM, "CPU topology of %d cores", n_cores);
  for (int i = 0; i < n_cores; i++) {
    hwloc_obj_t core = hwloc_get_obj_by_type(hw, type, (unsigned)i);
    fo__core *c;
    int pu;
    if (!core || !core->cpuset || hwloc_bitmap_iszero(core->cpuset)) continue;
    c = &t->cores[t->n_cores];
    c->pu_first = t->n_pus;
    c->numa = numa_of(hw, core->cpuset);
    if (c->numa >= FO_WORKER_MAX_NUMA)
      return FO_FAIL(FO_ERANGE, "NUMA node OS index %d is beyond the supported %d",
                     (int)c->numa, FO_WORKER_MAX_NUMA);
    if (c->numa >= 0 && !(numa_seen[c->numa / 64] >> (c->numa % 64) & 1)) {
      numa_seen[c->numa / 64] |= UINT64_C(1) << (c->numa % 64);
      t->n_numa++;
    }
    hwloc_bitmap_foreach_begin(pu, core->cpuset) {
      if (pu >= FO_WORKER_MAX_CPUS)
        return FO_FAIL(FO_ERANGE, "PU OS index %d is beyond the supported %d", pu,
                       FO_WORKER_MAX_CPUS);
      if (t->n_pus >= n_pus) return FO_FAIL(FO_EFORMAT, "cores hold more PUs than the topology");
      t->pus[t->n_pus++] = pu;
      c->n_pus++;
    }
    hwloc_bitmap_foreach_end();
    t->n_cores++;
  }
  if (t->n_cores == 0) return FO_FAIL(FO_EFORMAT, "the topology has no core with a PU");
  return FO_OK;
}

int fo__cpu_topo_load(const char *xml_path, const char *synthetic, fo__cpu_topo *out) {
  hwloc_topology_t hw;
  int rc;
  memset(out, 0, sizeof *out);
  if (xml_path && synthetic)
    return FO_FAIL(FO_EINVAL, "both topology_xml and topology_synthetic are set");
  if (xml_path) {
    FILE *f = fopen(xml_path, "r");
    if (!f) return FO_FAIL_ERRNO("topology XML '%s'", xml_path);
    fclose(f);
  }
  if (hwloc_topology_init(&hw) != 0) return FO_FAIL(FO_ENOMEM, "hwloc topology");
  /* Caches and I/O devices are not needed: skip them (faster load on big machines). */
  hwloc_topology_set_cache_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_NONE);
  hwloc_topology_set_io_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_NONE);
  if (synthetic && hwloc_topology_set_synthetic(hw, synthetic) != 0) {
    rc = FO_FAIL(FO_EINVAL, "invalid synthetic topology '%s' (hwloc syntax, e.g. "
                 "\"pack:2 core:4 pu:2\")", synthetic);
    goto fail;
  }
  if (xml_path && hwloc_topology_set_xml(hw, xml_path) != 0) {
    rc = FO_FAIL(FO_EFORMAT, "topology XML '%s' is not hwloc XML", xml_path);
    goto fail;
  }
  if (hwloc_topology_load(hw) != 0) {
    if (xml_path) rc = FO_FAIL(FO_EFORMAT, "topology XML '%s' is not hwloc XML", xml_path);
    else if (synthetic) rc = FO_FAIL(FO_EINVAL, "invalid synthetic topology '%s'", synthetic);
    else rc = FO_FAIL_ERRNO("hwloc cannot load this machine's topology");
    goto fail;
  }
  out->hw = hw;
  out->this_system = !xml_path && !synthetic && hwloc_topology_is_thissystem(hw);
  if ((rc = extract(hw, out)) != FO_OK) {
    if (xml_path) fo__context(rc, "topology XML '%s'", xml_path);
    else if (synthetic) fo__context(rc, "synthetic topology '%s'", synthetic);
    fo__cpu_topo_free(out);
    return rc;
  }
  return FO_OK;
fail:
  hwloc_topology_destroy(hw);
  return rc;
}

int fo__cpu_bind(const fo__cpu_topo *t, const uint64_t *cpuset) {
  hwloc_bitmap_t set;
  char list[256];
  int rc = FO_OK;
  if (!t->hw || !t->this_system)
    return FO_FAIL(FO_EINVAL, "cannot bind to an injected topology (not this machine's)");
  if (!(set = hwloc_bitmap_alloc())) return FO_FAIL(FO_ENOMEM, "cpuset");
  for (int w = 0; w < FO_WORKER_MAX_CPUS / 64; w++)
    for (int b = 0; b < 64; b++)
      if (cpuset[w] >> b & 1) hwloc_bitmap_set(set, (unsigned)(w * 64 + b));
  if (hwloc_set_cpubind((hwloc_topology_t)t->hw, set, HWLOC_CPUBIND_PROCESS) != 0) {
    hwloc_bitmap_list_snprintf(list, sizeof list, set);
    rc = FO_FAIL_ERRNO("set the CPU affinity of the process to %s", list);
  }
  hwloc_bitmap_free(set);
  return rc;
}
