/* SPDX-License-Identifier: MIT */
/*
 * rxscale_seam_todo.h - TEMPORARY: simulator calls that src/drv still
 * makes on this branch (cost charging, the simulator's CPU set and BAR
 * count).  Issue 12 part 1 removes them from src/drv; delete this file
 * and its #include in rxscale_compat.h when that lands.
 */
#ifndef RXSCALE_SEAM_TODO_H
#define RXSCALE_SEAM_TODO_H

#define kern_charge(id) do { } while (0)
#define sim_charge(host, id, n) do { } while (0)
#define SIM_PCI_BARS PCI_STD_NUM_BARS
#define sim_cpuset cpumask
#define sim_cpuset_zero(m) cpumask_clear(m)
#define sim_cpuset_set(m, cpu) cpumask_set_cpu(cpu, m)

#endif /* RXSCALE_SEAM_TODO_H */
