// Package gpuworkload is the domain model of GPU Operator sandbox workloads:
// workload modes, the ClusterPolicy sandbox policy, the operand table, GPU
// resource names, node state with its findings, and conversions between
// modes. The cards and their vGPU profiles are package hardware's, below it;
// DRA devices (dradevices) and a pod's demand (poddemand) build on it.
//
// It is the single place where these facts are derived. The scheduler plugins
// and the kubectl plugin consume its results and never re-derive them. It
// depends on API types only, never on clients.
package gpuworkload
