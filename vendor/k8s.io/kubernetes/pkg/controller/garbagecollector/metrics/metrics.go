/*
Copyright 2021 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package metrics

import (
	"sync"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

const GarbageCollectorControllerSubsystem = "garbagecollector_controller"

var (
	GarbageCollectorResourcesSyncError = metrics.NewCounter(
		&metrics.CounterOpts{
			Subsystem:      GarbageCollectorControllerSubsystem,
			Name:           "resources_sync_error_total",
			Help:           "Number of garbage collector resources sync errors",
			StabilityLevel: metrics.ALPHA,
		})
)

var registerMetrics sync.Once

// Register registers GarbageCollectorController metrics.
func Register() {
	registerMetrics.Do(func() {
		legacyregistry.MustRegister(GarbageCollectorResourcesSyncError)
	})
}
