package clusterstate

import (
	"context"
	"slices"
	"sync"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
)

// ClaimsInFlight relays, within one scheduler process, the allocations its
// DRA allocator holds in flight, from Reserve until the claim's status is
// written or the allocation is given up, to the trackers. The allocator
// counts them as taken at once; a tracker fed only by the claim informer
// would see them free until the written claim comes back, and GPUWorkloadFit
// would pass nodes the allocator then refuses.
type ClaimsInFlight struct {
	mu       sync.Mutex
	claims   map[types.UID]*resourceapi.ResourceClaim
	trackers []inFlightFollower
}

type inFlightFollower struct {
	tracker *Tracker
	freed   func()
}

// NewClaimsInFlight is the relay of one scheduler process: its state
// (schedulerstate.Service) builds it and hands it to the allocator plugin.
func NewClaimsInFlight() *ClaimsInFlight {
	return &ClaimsInFlight{claims: map[types.UID]*resourceapi.ResourceClaim{}}
}

// Held records the allocation the allocator holds for the claim.
func (c *ClaimsInFlight) Held(uid types.UID, allocated *resourceapi.ResourceClaim) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.claims[uid] = allocated
	for _, f := range c.trackers {
		f.tracker.SetClaimInFlight(string(uid), allocated)
	}
}

// Released forgets the allocation held for the claim. current reads the
// claim as the allocator now knows it (nil when it cannot say): when its
// status already holds the allocation, the trackers record it as the
// informer will deliver it, so that the devices never look free between.
// dropped says an allocation was held and the claim's status does not hold
// it: it was given up, not written.
func (c *ClaimsInFlight) Released(uid types.UID, current func(namespace, name string) *resourceapi.ResourceClaim) (dropped bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	held, ok := c.claims[uid]
	if !ok {
		return false
	}
	delete(c.claims, uid)
	written := current(held.Namespace, held.Name)
	if written == nil || written.UID != uid || written.Status.Allocation == nil {
		written = nil
	}
	for _, f := range c.trackers {
		if written != nil {
			f.tracker.UpsertResourceClaim(written)
		}
		if f.tracker.SetClaimInFlight(string(uid), nil) && f.freed != nil {
			f.freed()
		}
	}
	return written == nil
}

// Follow feeds the tracker the allocations in flight, those held now first,
// until ctx ends; freed is called when a released allocation frees devices.
func (c *ClaimsInFlight) Follow(ctx context.Context, t *Tracker, freed func()) {
	c.mu.Lock()
	c.trackers = append(c.trackers, inFlightFollower{tracker: t, freed: freed})
	for uid, claim := range c.claims {
		t.SetClaimInFlight(string(uid), claim)
	}
	c.mu.Unlock()
	context.AfterFunc(ctx, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.trackers = slices.DeleteFunc(c.trackers, func(f inFlightFollower) bool { return f.tracker == t })
	})
}
