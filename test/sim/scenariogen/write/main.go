// Command write generates the shipped scenarios with other seeds, to check
// that a comparison holds beyond the shipped traces (docs/simulation.md):
//
//	go run ./test/sim/scenariogen/write -dir /tmp/traces -seeds 11,12,13
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gpu-workload-scheduler/scheduler/test/sim/scenariogen"
)

func main() {
	dir := flag.String("dir", "", "directory to write <scenario>-s<seed>/ into")
	seeds := flag.String("seeds", "11,12,13", "comma-separated seeds")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "write: -dir is required")
		os.Exit(2)
	}
	for _, field := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(field), 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "write: -seeds: %q is not a whole number\n", field)
			os.Exit(2)
		}
		for _, s := range scenariogen.Shipped() {
			s.Seed = seed*100 + s.Seed
			s.Name = fmt.Sprintf("%s-s%d", s.Name, seed)
			if err := scenariogen.Write(*dir, s); err != nil {
				fmt.Fprintln(os.Stderr, "write:", err)
				os.Exit(1)
			}
		}
	}
}
