package agent

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// withdrawnDevice is a device the emulated driver took out of a slice.
type withdrawnDevice struct {
	slice  string
	device resourceapi.Device
}

// prepareDRA does what the NVIDIA DRA driver's kubelet plugin does when it
// prepares a pod's claims with PassthroughSupport: for each vfio device of
// the driver on the pod's node, it withdraws the GPU's container device
// (the device of the same PCI bus ID and type gpu) from the node's slice,
// as a new generation of its pool, until unprepareDRA.
func (a *agent) prepareDRA(ctx context.Context, pod *v1.Pod) error {
	podKey := pod.Namespace + "/" + pod.Name
	if _, done := a.prepared[podKey]; done {
		return nil
	}
	var withdrawn []withdrawnDevice
	for i := range pod.Spec.ResourceClaims {
		name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i])
		if err != nil || name == nil {
			continue
		}
		claim, err := a.client.ResourceV1().ResourceClaims(pod.Namespace).Get(ctx, *name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		if claim.Status.Allocation == nil {
			continue
		}
		for _, r := range claim.Status.Allocation.Devices.Results {
			if r.Driver != dradevices.DRADriver {
				continue
			}
			w, err := a.withdrawSibling(ctx, pod.Spec.NodeName, r.Pool, r.Device)
			if err != nil {
				return err
			}
			withdrawn = append(withdrawn, w...)
		}
	}
	a.prepared[podKey] = withdrawn
	return nil
}

// withdrawSibling withdraws the container device of the GPU whose device
// (pool, name) was prepared, when that is a vfio device.
func (a *agent) withdrawSibling(ctx context.Context, node, pool, name string) ([]withdrawnDevice, error) {
	list, err := a.client.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", node).String()})
	if err != nil {
		return nil, err
	}
	for _, slice := range list.Items {
		if slice.Spec.Driver != dradevices.DRADriver || slice.Spec.Pool.Name != pool {
			continue
		}
		_, devices := dradevices.DRADevicesOf(&slice, dradevices.DRADriver)
		i := slices.IndexFunc(devices, func(d dradevices.DRADevice) bool { return d.Name == name })
		if i < 0 || devices[i].Type != dradevices.DRATypeVFIO {
			continue
		}
		j := slices.IndexFunc(devices, func(d dradevices.DRADevice) bool {
			return d.Type == dradevices.DRATypeGPU && dradevices.ExclusiveDRADevices(d, devices[i])
		})
		if j < 0 {
			return nil, nil
		}
		k := slices.IndexFunc(slice.Spec.Devices, func(d resourceapi.Device) bool { return d.Name == devices[j].Name })
		w := withdrawnDevice{slice: slice.Name, device: slice.Spec.Devices[k]}
		slice.Spec.Devices = slices.Delete(slice.Spec.Devices, k, k+1)
		slice.Spec.Pool.Generation++
		if _, err := a.client.ResourceV1().ResourceSlices().Update(ctx, &slice, metav1.UpdateOptions{}); err != nil {
			return nil, fmt.Errorf("withdraw %s/%s from ResourceSlice %s: %w", pool, w.device.Name, slice.Name, err)
		}
		klog.FromContext(ctx).Info("Withdrew the container device of a GPU whose vfio device was prepared, as the DRA driver does", "node", node, "device", pool+"/"+w.device.Name, "vfio", name)
		return []withdrawnDevice{w}, nil
	}
	return nil, nil
}

// unprepareDRA publishes again, as a new generation of each pool, the
// devices prepareDRA withdrew for the pod, once it is gone or finished.
func (a *agent) unprepareDRA(ctx context.Context, podKey string) error {
	for len(a.prepared[podKey]) > 0 {
		w := a.prepared[podKey][0]
		slice, err := a.client.ResourceV1().ResourceSlices().Get(ctx, w.slice, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return err
		default:
			slice.Spec.Devices = append(slice.Spec.Devices, w.device)
			slice.Spec.Pool.Generation++
			if _, err := a.client.ResourceV1().ResourceSlices().Update(ctx, slice, metav1.UpdateOptions{}); err != nil {
				return fmt.Errorf("publish %s again in ResourceSlice %s: %w", w.device.Name, w.slice, err)
			}
			klog.FromContext(ctx).Info("Published a GPU's container device again at unprepare, as the DRA driver does", "slice", w.slice, "device", w.device.Name)
		}
		a.prepared[podKey] = a.prepared[podKey][1:]
	}
	delete(a.prepared, podKey)
	return nil
}
