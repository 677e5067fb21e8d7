// Package poddemand is what a pod asks of the GPUs: its GPU demand (the
// extended resources it requests, their mode, its claims' GPU requests), the
// node constraint that pins it to hardware (nodeSelector, required node
// affinity, its claims' selectors), the counts of waiting pods that
// stranding is measured against, and the over-commit a node's pods show.
package poddemand
