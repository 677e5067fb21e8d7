package sim

import (
	"context"
	"sync"
)

// Compare runs every policy on the scenario, concurrently, and returns the
// results in the policies' order.
func Compare(ctx context.Context, scenario *Scenario, policies []ScoringPolicy, opts Options) ([]*Result, error) {
	results := make([]*Result, len(policies))
	errs := make([]error, len(policies))
	var wg sync.WaitGroup
	for i, p := range policies {
		wg.Go(func() { results[i], errs[i] = Run(ctx, scenario, p, opts) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
