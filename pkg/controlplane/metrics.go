package controlplane

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// GetSecure reads path from a component's secure port (https://host:port,
// self-signed) as a bearer token's holder, or anonymously when token is
// empty, and returns the status code and body.
func GetSecure(ctx context.Context, url, path, token string) (int, []byte, error) {
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		// The components' serving certificates are self-signed.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+path, nil)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// ScrapeGPUWorkloadMetrics reads a component's /metrics as a bearer
// token's holder and returns the gpu_workload_ series by their text, as
// the exposition format gives them (labels sorted by name).
func ScrapeGPUWorkloadMetrics(ctx context.Context, url, token string) (map[string]float64, error) {
	status, body, err := GetSecure(ctx, url, "/metrics", token)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %d %s: %s", status, http.StatusText(status), body)
	}
	series := map[string]float64{}
	for line := range strings.Lines(string(body)) {
		if !strings.HasPrefix(line, "gpu_workload_") {
			continue
		}
		i := strings.LastIndexByte(strings.TrimSpace(line), ' ')
		value, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64)
		if err != nil {
			return nil, fmt.Errorf("metrics line %+q: %w", line, err)
		}
		series[line[:i]] = value
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("no gpu_workload_ series in:\n%s", firstLines(string(body), 20))
	}
	return series, nil
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
