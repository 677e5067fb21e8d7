package dradevices

import (
	"context"
	"fmt"
	"slices"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/utils/lru"
)

// DRADeviceClass is a DeviceClass with its CEL selectors compiled by the
// DRA library, the code the allocator evaluates them with: which devices a
// class can take is what its selectors say, not what its name suggests.
type DRADeviceClass struct {
	Name string
	DRADeviceSelector
}

// DRADeviceSelector is a list of CEL device selectors, of a DeviceClass or
// of a claim's request, compiled by the DRA library.
type DRADeviceSelector struct {
	selectors []cel.CompilationResult
}

// celCompiler compiles selector expressions as the API server validates
// them, with the worst-case cost estimated. Both optional CEL features are
// on, so that an expression the allocator accepts compiles here whatever
// the cluster enables. The compiler keeps no results: the caches do.
var celCompiler = cel.GetCompiler(cel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: true})

// CELCache keeps each selector expression's compiled result: the driver's
// classes share a few expressions, and a claim's are compiled once per
// scheduling attempt. Each tracker keeps one, as kube-scheduler's
// DynamicResources keeps one per plugin; a nil cache compiles every time.
type CELCache struct{ compiled *lru.Cache }

// NewCELCache is an empty cache of the last 256 expressions.
func NewCELCache() *CELCache { return &CELCache{compiled: lru.New(256)} }

// compile returns the expression compiled with its estimated cost.
func (c *CELCache) compile(expression string) cel.CompilationResult {
	if c == nil {
		return celCompiler.CompileCELExpression(expression, cel.Options{})
	}
	if cached, ok := c.compiled.Get(expression); ok {
		return cached.(cel.CompilationResult)
	}
	compiled := celCompiler.CompileCELExpression(expression, cel.Options{})
	if compiled.Error == nil {
		c.compiled.Add(expression, compiled)
	}
	return compiled
}

// CompileDRADeviceClass compiles the class's CEL selectors; the error names
// the class and the selector that does not compile.
func CompileDRADeviceClass(cache *CELCache, class *resourceapi.DeviceClass) (*DRADeviceClass, error) {
	selector, err := compileDRASelectors(cache, class.Spec.Selectors, "DeviceClass "+class.Name+": spec.selectors")
	if err != nil {
		return nil, err
	}
	return &DRADeviceClass{Name: class.Name, DRADeviceSelector: selector}, nil
}

// InvalidSelectorError is a CEL selector the API server refuses when it is
// written: too long, too costly, or not compiling. It was stored before a
// limit changed, or read from a dump: an error in the input, which names
// the object, the field and the fix.
type InvalidSelectorError struct{ err error }

func (e *InvalidSelectorError) Error() string { return e.err.Error() }

func invalidSelector(format string, args ...any) error {
	return &InvalidSelectorError{fmt.Errorf(format, args...)}
}

// compileDRASelectors compiles the CEL selectors of the object and field
// named by at; the error names the selector that does not compile.
func compileDRASelectors(cache *CELCache, selectors []resourceapi.DeviceSelector, at string) (DRADeviceSelector, error) {
	var out DRADeviceSelector
	for i, s := range selectors {
		if s.CEL == nil {
			continue
		}
		field := fmt.Sprintf("%s[%d].cel.expression", at, i)
		// The API server refuses such expressions when they are written; one
		// stored before a limit changed, or read from a dump, is refused here
		// rather than evaluated on every device.
		if n := len(s.CEL.Expression); n > resourceapi.CELSelectorExpressionMaxLength {
			return DRADeviceSelector{}, invalidSelector("%s is %d characters long, more than the API server's limit of %d; shorten the expression", field, n, resourceapi.CELSelectorExpressionMaxLength)
		}
		compiled := cache.compile(s.CEL.Expression)
		if compiled.Error != nil {
			return DRADeviceSelector{}, invalidSelector("%s does not compile (%v); fix the expression", field, compiled.Error)
		}
		if compiled.MaxCost > resourceapi.CELSelectorExpressionMaxCost {
			return DRADeviceSelector{}, invalidSelector("%s is too complex: its estimated cost %d exceeds the API server's limit of %d; simplify the expression", field, compiled.MaxCost, resourceapi.CELSelectorExpressionMaxCost)
		}
		out.selectors = append(out.selectors, compiled)
	}
	return out, nil
}

// Selects reports whether every selector matches the device, as the
// allocator decides it. An expression that fails on the device (an
// attribute it lacks, say) does not select it, as for the allocator.
func (c *DRADeviceSelector) Selects(ctx context.Context, d *DRADevice) bool {
	input := cel.Device{Driver: d.Driver, Attributes: d.Attributes, Capacity: d.Capacity}
	for i := range c.selectors {
		if matches, _, err := c.selectors[i].DeviceMatches(ctx, input); err != nil || !matches {
			return false
		}
	}
	return true
}

// DRAPublishesFor reports whether a node's devices (with the indices each
// DeviceClass selects) hold, for every claim request, a device that one of
// its alternatives takes: its DeviceClass selects it and its own selectors
// match it, as the allocator decides.
func DRAPublishesFor(ctx context.Context, devices []DRADeviceState, selected map[string][]int, claims []DRAClaimRequest) bool {
	for _, claim := range claims {
		takes := func(a DRAClaimRequest) bool {
			return eachTaken(ctx, devices, selected, a.DeviceClass, a.Selector, func(*DRADeviceState) bool { return false })
		}
		if !slices.ContainsFunc(claim.Alternatives(), takes) {
			return false
		}
	}
	return true
}

// SelectedBy returns the node with, per class, the devices the class
// selects; classes that select none of them are left out. The node itself
// is not changed.
func (n *DRANode) SelectedBy(ctx context.Context, classes map[string]*DRADeviceClass) *DRANode {
	out := *n
	out.Selected = nil
	for name, class := range classes {
		var selected []int
		for i := range n.Devices {
			if class.Selects(ctx, &n.Devices[i]) {
				selected = append(selected, i)
			}
		}
		if selected != nil {
			if out.Selected == nil {
				out.Selected = make(map[string][]int, len(classes))
			}
			out.Selected[name] = selected
		}
	}
	return &out
}

// Matching counts, by state, the devices the DeviceClass selects on the
// node that a claim request can take: those its own selectors (nil: none)
// match too, with the taints its tolerations tolerate counted as absent,
// as the allocator counts them. Without either it is the class's count.
func (a *DRAAvailability) Matching(ctx context.Context, deviceClass string, selector *DRADeviceSelector, tolerations []resourceapi.DeviceToleration) DRAClassAvailability {
	if a == nil {
		return DRAClassAvailability{}
	}
	if selector == nil && len(tolerations) == 0 {
		return a.ByDeviceClass[deviceClass]
	}
	var c DRAClassAvailability
	eachTaken(ctx, a.states, a.selected, deviceClass, selector, func(d *DRADeviceState) bool {
		if d.State == DRADeviceTainted && d.ToleratedBy(tolerations) {
			untainted := a.untainted(d)
			c.count(&untainted)
		} else {
			c.count(d)
		}
		return true
	})
	return c
}

// untainted is the state a tainted device would have without its taints:
// free, or blocked by a sibling in use.
func (a *DRAAvailability) untainted(d *DRADeviceState) DRADeviceState {
	out := DRADeviceState{DRADevice: d.DRADevice, State: DRADeviceFree}
	for i := range a.states {
		if held := &a.states[i]; held.State == DRADeviceAllocated && ExclusiveDRADevices(d.DRADevice, held.DRADevice) {
			out.State, out.Claim, out.Sibling = DRADeviceSiblingInUse, held.Claim, held.Name
			break
		}
	}
	return out
}

// eachTaken calls f with each device the DeviceClass selects and the
// request's own selectors (nil: none) match, until f returns false; it
// reports whether f stopped it.
func eachTaken(ctx context.Context, states []DRADeviceState, selected map[string][]int, deviceClass string, selector *DRADeviceSelector, f func(*DRADeviceState) bool) (stopped bool) {
	for _, i := range selected[deviceClass] {
		if (selector == nil || selector.Selects(ctx, &states[i].DRADevice)) && !f(&states[i]) {
			return true
		}
	}
	return false
}

// DRAClassAvailability is what the devices of one class, or those one
// DeviceClass selects, on a node can still serve.
type DRAClassAvailability struct {
	Free, Allocated, Tainted, SiblingInUse int
	// SiblingHolder names a device in use, and the claim that holds it,
	// whose sibling among these devices it blocks.
	SiblingHolder DRAHeldDevice
}

// Total counts the devices the class selects, in any state.
func (a DRAClassAvailability) Total() int { return a.Free + a.Allocated + a.Tainted + a.SiblingInUse }

func (a *DRAClassAvailability) count(d *DRADeviceState) {
	switch d.State {
	case DRADeviceAllocated:
		a.Allocated++
	case DRADeviceTainted:
		a.Tainted++
	case DRADeviceSiblingInUse:
		a.SiblingInUse++
		if a.SiblingHolder.Claim == "" {
			a.SiblingHolder = DRAHeldDevice{Device: d.Sibling, Claim: d.Claim}
		}
	default:
		a.Free++
	}
}
