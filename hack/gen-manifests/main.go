// Command gen-manifests writes the files of manifests/install and
// manifests/monitoring that the Helm chart renders (installchart.Manifests):
// the chart is the one source of both ways to install.
//
//	go run ./hack/gen-manifests
//
// runs from the repository root (make manifests).
package main

import (
	"fmt"
	"os"

	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
)

func main() {
	files, err := installchart.GenerateManifests(installchart.Dir)
	if err == nil {
		for path, data := range files {
			if err = os.WriteFile(path, data, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-manifests:", err)
		os.Exit(1)
	}
}
