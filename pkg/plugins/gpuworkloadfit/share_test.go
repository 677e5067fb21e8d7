package gpuworkloadfit

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
)

// informersHandle is a handle with only an informer factory, all joinShare reads.
type informersHandle struct {
	fwk.Handle
	factory informers.SharedInformerFactory
}

func (h informersHandle) SharedInformerFactory() informers.SharedInformerFactory { return h.factory }

// Profiles of one process with the same args share one tracker and one set
// of explanations; other args or another process do not; the share goes
// with its last profile.
func TestProfilesShareClusterState(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	join := func(ctx context.Context, handle fwk.Handle, args *config.GPUWorkloadFitArgs) (*GPUWorkloadFit, bool) {
		pl := NewOffline(args)
		pl.handle = handle
		_, first, err := pl.joinShare(ctx, args)
		if err != nil {
			t.Fatal(err)
		}
		return pl, first
	}
	ctx, stop := context.WithCancel(context.Background())
	args := &config.GPUWorkloadFitArgs{DRADriverName: "gpu.nvidia.com"}
	a, firstA := join(ctx, informersHandle{factory: factory}, args)
	b, firstB := join(ctx, informersHandle{factory: factory}, args)
	if !firstA || firstB || a.tracker != b.tracker || a.explained != b.explained {
		t.Fatalf("two profiles with the same args: first %v, %v, same tracker %v, same explanations %v; want one share", firstA, firstB, a.tracker == b.tracker, a.explained == b.explained)
	}
	other, firstOther := join(ctx, informersHandle{factory: factory}, &config.GPUWorkloadFitArgs{DRADriverName: "example.com"})
	if !firstOther || other.tracker == a.tracker {
		t.Fatal("a profile with other args joined the share")
	}
	if _, first := join(ctx, informersHandle{factory: informers.NewSharedInformerFactory(fake.NewClientset(), 0)}, args); !first {
		t.Fatal("a second scheduler in the process joined the first one's share")
	}
	stop()
	// context.AfterFunc runs leave in a goroutine of its own.
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		sharesMu.Lock()
		defer sharesMu.Unlock()
		for key := range shares {
			if key.informers == factory {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatal("the shares of stopped profiles stay")
	}
}
