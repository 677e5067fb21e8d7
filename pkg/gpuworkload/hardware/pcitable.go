package hardware

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed data/nvidia_pci_devices.txt
var pciDevicesText []byte

// PCIDevice is one NVIDIA PCI device ID as the sandbox device plugin's
// pci.ids copy names it.
type PCIDevice struct {
	// ID is the device ID in lower-case hex: 2236.
	ID string
	// Name is the pci.ids name: the chip, then the boards in brackets, GA102GL [A10].
	Name string
}

// PassthroughName is the resource name, without nvidia.com/, the sandbox
// device plugin advertises for the device in vm-passthrough mode
// (kubevirt-gpu-device-plugin getDeviceName): upper case, '/' and '.' to
// '_', whitespace runs to '_', other characters outside [A-Z0-9_] dropped.
// A device pci.ids does not list has no name; the plugin advertises its ID.
func (d PCIDevice) PassthroughName() string {
	if d.Name == "" {
		return d.ID
	}
	name := strings.ToUpper(strings.TrimSpace(d.Name))
	name = strings.NewReplacer("/", "_", ".", "_").Replace(name)
	name = whitespaceRuns.ReplaceAllString(name, "_")
	return notInDeviceName.ReplaceAllString(name, "")
}

var (
	whitespaceRuns  = regexp.MustCompile(`\s+`)
	notInDeviceName = regexp.MustCompile(`[^A-Z0-9_.]`)
)

// chip is the name before the boards: GA102GL.
func (d PCIDevice) chip() string {
	chip, _, _ := strings.Cut(d.Name, " ")
	return chip
}

// Boards are the products the device ID is sold as, from the bracket of
// its name: [A2 / A16] is two, and [Quadro RTX 6000/8000] is Quadro RTX
// 6000 and Quadro RTX 8000 (an alternative of one word replaces the last
// word of the one before). A name without a bracket has none.
func (d PCIDevice) Boards() []string {
	_, bracket, ok := strings.Cut(d.Name, "[")
	bracket, closed := strings.CutSuffix(bracket, "]")
	if !ok || !closed {
		return nil
	}
	var boards []string
	for _, alt := range strings.Split(bracket, "/") {
		words := strings.Fields(alt)
		if len(words) == 0 {
			continue
		}
		if len(words) == 1 && len(boards) > 0 {
			if previous := strings.Fields(boards[len(boards)-1]); len(previous) > 1 {
				words = append(previous[:len(previous)-1:len(previous)-1], words[0])
			}
		}
		boards = append(boards, strings.Join(words, " "))
	}
	return boards
}

// NVIDIAVendorID is NVIDIA's PCI vendor ID, as pci.ids and NFD's labels spell it.
const NVIDIAVendorID = "10de"

// ParsePCIDeviceLine reads "\t<id>  <name>".
func ParsePCIDeviceLine(line string) (PCIDevice, error) {
	id, name, ok := strings.Cut(strings.TrimPrefix(line, "\t"), "  ")
	if !ok || !IsPCIDeviceID(id) || strings.TrimSpace(name) == "" {
		return PCIDevice{}, fmt.Errorf("pci.ids line %+q: want a tab, a 4-digit lower-case hex device ID, two spaces and a name", line)
	}
	return PCIDevice{ID: id, Name: name}, nil
}

func parsePCIDevices(text []byte) ([]PCIDevice, error) {
	var devices []PCIDevice
	for i, line := range strings.Split(string(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d, err := ParsePCIDeviceLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		devices = append(devices, d)
	}
	return devices, nil
}

// ResourceDomain prefixes every NVIDIA extended resource, GPU or not.
const ResourceDomain = "nvidia.com/"

// IsPCIDeviceID matches the raw lower-case device ID used when the device is
// not in pci.ids, e.g. 26b5.
func IsPCIDeviceID(bare string) bool {
	if len(bare) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		c := bare[i]
		if !isDigit(c) && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
