package schedulerstate

import (
	"context"
	"sync"

	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/events"

	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// explanationSink writes the explanation events as the scheduler's own
// sink does, and remembers the pods whose latest explanation the API server
// did not take (unwritten, by pod UID): the broadcaster gives up on an
// event after its retries, and the plugin then retries the pod, which
// explains it again. Knowing this from the writes, the scheduler needs no
// read of events, which RBAC could not narrow to its own.
type explanationSink struct {
	events.EventSink
	unwritten *sync.Map
}

// newExplanationBroadcaster is the broadcaster of a process's explanation
// events; it records nothing until StartRecordingToSink.
func newExplanationBroadcaster(client kubernetes.Interface, unwritten *sync.Map) events.EventBroadcaster {
	return events.NewBroadcaster(explanationSink{EventSink: &events.EventSinkImpl{Interface: client.EventsV1()}, unwritten: unwritten})
}

func (s explanationSink) Create(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error) {
	written, err := s.EventSink.Create(ctx, event)
	s.note(event, err)
	return written, err
}

func (s explanationSink) Update(ctx context.Context, event *eventsv1.Event) (*eventsv1.Event, error) {
	written, err := s.EventSink.Update(ctx, event)
	s.note(event, err)
	return written, err
}

func (s explanationSink) Patch(ctx context.Context, event *eventsv1.Event, data []byte) (*eventsv1.Event, error) {
	written, err := s.EventSink.Patch(ctx, event, data)
	s.note(event, err)
	return written, err
}

// note records the outcome of a write of an explanation: a failed patch of
// a series is followed by a create, whose outcome then counts.
func (s explanationSink) note(event *eventsv1.Event, err error) {
	if event.Reason != reasons.EventReasonUnschedulable {
		return
	}
	if err != nil {
		s.unwritten.Store(event.Regarding.UID, struct{}{})
	} else {
		s.unwritten.Delete(event.Regarding.UID)
	}
}
