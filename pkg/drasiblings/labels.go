package drasiblings

// The label of the DeviceTaintRules the scheduler writes (Fences), and
// that its versions before 2026-12-05 wrote: the only rules it deletes, and
// the only ones the admission policy in manifests/install/rbac.yaml lets it
// write or delete.
const (
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ManagedBy      = "gpu-workload-scheduler"
)
