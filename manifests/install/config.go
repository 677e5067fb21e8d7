// Package install holds the shipped scheduler configuration, embedded so that
// the simulator runs exactly what the Deployment runs.
package install

import (
	_ "embed"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// ConfigMapFile is the embedded file, relative to the repository root.
const ConfigMapFile = "manifests/install/config.yaml"

//go:embed config.yaml
var configMap []byte

// SchedulerConfiguration returns the KubeSchedulerConfiguration the
// Deployment runs.
func SchedulerConfiguration() ([]byte, error) {
	return SchedulerConfigurationOf(configMap, ConfigMapFile)
}

// ConfigMapRef is the namespace and name of the shipped ConfigMap: where the
// installed scheduler's configuration lives.
func ConfigMapRef() (namespace, name string, err error) {
	var cm v1.ConfigMap
	if err := yaml.Unmarshal(configMap, &cm); err != nil {
		return "", "", fmt.Errorf("%s: %w", ConfigMapFile, err)
	}
	return cm.Namespace, cm.Name, nil
}

// SchedulerConfigurationOf extracts data.config.yaml from a ConfigMap; source
// names it in errors.
func SchedulerConfigurationOf(data []byte, source string) ([]byte, error) {
	var cm v1.ConfigMap
	if err := yaml.UnmarshalStrict(data, &cm); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	raw, ok := cm.Data["config.yaml"]
	if !ok {
		return nil, fmt.Errorf("%s: ConfigMap %s has no data key config.yaml", source, cm.Name)
	}
	return []byte(raw), nil
}
