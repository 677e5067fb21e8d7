// Package dradevices is the GPUs the NVIDIA DRA driver publishes: its
// ResourceSlices read as devices (container GPUs or VFIO passthrough), its
// DeviceClasses with their CEL selectors compiled by the DRA library, the
// GPU requests of ResourceClaims, and the devices of a node by state (free,
// allocated, tainted, a sibling in use). Nothing here allocates: the
// scheduler's DRA allocator does.
package dradevices
