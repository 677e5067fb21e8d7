// Package gpuworkload is the domain model of GPU Operator sandbox workloads:
// workload modes, the ClusterPolicy sandbox policy, the operand table, GPU
// resource names, vGPU profiles, node state and pod demand.
//
// It is the single place where these facts are derived. The scheduler plugins
// and the kubectl plugin consume its results and never re-derive them. It
// depends on API types only, never on clients.
package gpuworkload
