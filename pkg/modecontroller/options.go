package modecontroller

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Operation is how far the controller may go.
type Operation string

const (
	// DryRun changes nothing: an event on each node it would convert and
	// each pod it would convert it for, and the would-convert metric.
	DryRun Operation = "dryRun"
	// IdleOnly converts nodes that run no GPU pod.
	IdleOnly Operation = "idleOnly"
	// Drain also empties nodes that run container GPU pods, through the
	// Eviction API, where the empty nodes do not cover what waits. It
	// never stops a VM.
	Drain Operation = "drain"
)

// Operations are the accepted values of Options.Operation.
var Operations = []Operation{DryRun, IdleOnly, Drain}

// Options are the controller's policy. Defaults() gives the shipped ones:
// moving inventory between modes is a matter of hours, not seconds.
type Options struct {
	Operation Operation
	// Interval is how often it plans and advances conversions.
	Interval time.Duration
	// DemandWait is how long a pod must have been unschedulable to count.
	DemandWait time.Duration
	// IdleFor is how long a node must have run no GPU pod to be converted;
	// under Drain it does not apply.
	IdleFor time.Duration
	// MaxConversions is how many conversions may start within Window.
	MaxConversions int
	Window         time.Duration
	// ConversionTimeout is how long the operator has to make a relabelled
	// node advertise its new resource before the node is rolled back.
	ConversionTimeout time.Duration
	// Backoff is how long a rolled-back node is left alone.
	Backoff time.Duration
}

// Defaults are the shipped options (manifests/install/controller.yaml).
func Defaults() Options {
	return Options{
		Operation:         DryRun,
		Interval:          30 * time.Second,
		DemandWait:        10 * time.Minute,
		IdleFor:           30 * time.Minute,
		MaxConversions:    2,
		Window:            time.Hour,
		ConversionTimeout: 20 * time.Minute,
		Backoff:           6 * time.Hour,
	}
}

// Validate names each bad option by its flag.
func (o Options) Validate() error {
	var errs field.ErrorList
	valid := false
	for _, op := range Operations {
		valid = valid || o.Operation == op
	}
	if !valid {
		errs = append(errs, field.NotSupported(field.NewPath("operation"), o.Operation, Operations))
	}
	for _, d := range []struct {
		name  string
		value time.Duration
		zero  bool
	}{
		{"interval", o.Interval, false},
		{"demand-wait", o.DemandWait, true},
		{"idle-for", o.IdleFor, true},
		{"window", o.Window, false},
		{"conversion-timeout", o.ConversionTimeout, false},
		{"backoff", o.Backoff, true},
	} {
		if d.value < 0 || d.value == 0 && !d.zero {
			errs = append(errs, field.Invalid(field.NewPath(d.name), d.value.String(), "must be positive"))
		}
	}
	if o.MaxConversions < 1 {
		errs = append(errs, field.Invalid(field.NewPath("max-conversions"), o.MaxConversions, "must be at least 1; to stop conversions use --operation=dryRun"))
	}
	if err := errs.ToAggregate(); err != nil {
		return fmt.Errorf("invalid options: %w", err)
	}
	return nil
}
