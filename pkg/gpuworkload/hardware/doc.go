// Package hardware is what is known of NVIDIA's cards: the PCI devices of
// the sandbox device plugin's pci.ids, the vGPU profiles of the GPU
// Operator's default vGPU device manager configuration, the names the
// cards are advertised by, and the card a node shows (IdentifyCard). Its
// two tables are generated from those upstream files by hack/gen-pci-table
// and hack/gen-vgpu-table and embedded. It depends on no other package of
// this module.
package hardware
