package sim

import (
	"context"
	"math"
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

// MeanAndStandardError is the mean of paired differences (or any sample)
// and the standard error of that mean: a difference within about two
// standard errors of zero is not one the sample can tell.
func MeanAndStandardError(xs []float64) (mean, standardError float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var squares float64
	for _, x := range xs {
		squares += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(squares/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}
