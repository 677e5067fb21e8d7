// Package controlplane starts a real etcd and kube-apiserver on loopback,
// from the binaries that `make tools` builds out of vendor/.
package controlplane

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"k8s.io/client-go/rest"
)

// AdminUser is the static-token identity in system:masters that the admin
// kubeconfig uses.
const AdminUser = "gws-admin"

// Options configure Start.
type Options struct {
	// Dir receives data, certificates, kubeconfig and the logs etcd.log and apiserver.log.
	Dir string
	// BinDir holds etcd and kube-apiserver; empty means $PATH.
	BinDir string
	// ExtraAPIServerFlags are appended to the kube-apiserver command line.
	ExtraAPIServerFlags []string
	// StartTimeout bounds each component's wait for health; zero means 60s.
	StartTimeout time.Duration
	// Detached components outlive this process (the lab): they run in their
	// own session and their pids are written to <component>.pid in Dir.
	// Otherwise they are killed when this process dies (tests).
	Detached bool
}

// ControlPlane is a running etcd and kube-apiserver.
type ControlPlane struct {
	Dir          string
	EtcdURL      string
	APIServerURL string
	// Kubeconfig is the path of an admin kubeconfig.
	Kubeconfig string
	// AdminConfig is a client config for the admin user.
	AdminConfig *rest.Config

	processes       []*process
	caFile          string
	detached        bool
	etcd, apiserver restartable
}

// restartable is a running component and how it was started, so that a
// fault test can kill it and start it again the same way.
type restartable struct {
	name     string
	process  *process
	bin, log string
	args     []string
	restarts int
}

// restart kills the component, as a crash would, and starts it again at
// once with the same flags, logging to <name>-<n>.log.
func (cp *ControlPlane) restart(c *restartable) error {
	if err := c.process.kill(); err != nil {
		return err
	}
	c.restarts++
	c.log = filepath.Join(cp.Dir, fmt.Sprintf("%s-%d.log", c.name, c.restarts))
	p, err := cp.spawn(c.bin, c.args, c.log)
	if err != nil {
		return err
	}
	c.process = p
	return nil
}

// Start runs etcd, then kube-apiserver, and waits until both are healthy.
// On error, whatever was started is stopped again.
func Start(ctx context.Context, opts Options) (*ControlPlane, error) {
	if opts.Dir == "" {
		return nil, errors.New("controlplane: Options.Dir is required")
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 60 * time.Second
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, err
	}
	cp := &ControlPlane{Dir: opts.Dir, detached: opts.Detached}
	if err := cp.startEtcd(ctx, opts); err != nil {
		return nil, errors.Join(err, cp.Stop())
	}
	if err := cp.startAPIServer(ctx, opts); err != nil {
		return nil, errors.Join(err, cp.Stop())
	}
	return cp, nil
}

func binary(opts Options, name string) (string, error) {
	if opts.BinDir != "" {
		path := filepath.Join(opts.BinDir, name)
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%s: %w (fix: make tools)", path, err)
		}
		return path, nil
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not on PATH (fix: make tools, then put bin/ on PATH): %w", name, err)
	}
	return path, nil
}

func (cp *ControlPlane) startEtcd(ctx context.Context, opts Options) error {
	bin, err := binary(opts, "etcd")
	if err != nil {
		return err
	}
	ports, err := FreePorts(2)
	if err != nil {
		return err
	}
	cp.EtcdURL = fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	args := []string{
		"--name=default",
		"--data-dir=" + filepath.Join(opts.Dir, "etcd-data"),
		"--listen-client-urls=" + cp.EtcdURL,
		"--advertise-client-urls=" + cp.EtcdURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=default=" + peerURL,
		"--log-level=warn",
		// A throwaway store: durability costs seconds per test on slow disks.
		"--unsafe-no-fsync",
	}
	logPath := filepath.Join(opts.Dir, "etcd.log")
	etcd, err := cp.spawn(bin, args, logPath)
	if err != nil {
		return err
	}
	cp.etcd = restartable{name: "etcd", process: etcd, bin: bin, args: args, log: logPath}
	return cp.waitEtcdHealthy(ctx, opts.StartTimeout)
}

func (cp *ControlPlane) waitEtcdHealthy(ctx context.Context, timeout time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	return waitFor(ctx, timeout, "etcd", cp.etcd.log, func() error {
		if err := cp.etcd.process.exited(); err != nil {
			return err
		}
		return healthy(client, cp.EtcdURL+"/health")
	})
}

func (cp *ControlPlane) startAPIServer(ctx context.Context, opts Options) error {
	bin, err := binary(opts, "kube-apiserver")
	if err != nil {
		return err
	}
	ports, err := FreePorts(1)
	if err != nil {
		return err
	}
	cp.APIServerURL = fmt.Sprintf("https://127.0.0.1:%d", ports[0])
	certDir := filepath.Join(opts.Dir, "apiserver-certs")
	saKey := filepath.Join(opts.Dir, "service-account.key")
	if err := writeRSAKey(saKey); err != nil {
		return err
	}
	token, err := randomToken()
	if err != nil {
		return err
	}
	tokens := filepath.Join(opts.Dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte(fmt.Sprintf("%s,%s,%s,\"system:masters\"\n", token, AdminUser, AdminUser)), 0o600); err != nil {
		return err
	}
	args := append([]string{
		"--etcd-servers=" + cp.EtcdURL,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[0]),
		"--cert-dir=" + certDir,
		"--token-auth-file=" + tokens,
		"--authorization-mode=Node,RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + saKey,
		"--service-account-signing-key-file=" + saKey,
		"--service-cluster-ip-range=10.96.0.0/24",
		// No controller-manager or kubelet runs: nothing would create a namespace's default
		// ServiceAccount, nor clear the not-ready taint new nodes get.
		"--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
		"--enable-priority-and-fairness=false",
		"--endpoint-reconciler-type=none",
	}, opts.ExtraAPIServerFlags...)
	logPath := filepath.Join(opts.Dir, "apiserver.log")
	apiserver, err := cp.spawn(bin, args, logPath)
	if err != nil {
		return err
	}
	cp.apiserver = restartable{name: "apiserver", process: apiserver, bin: bin, args: args, log: logPath}

	// The serving certificate is self-signed and written at start, then its
	// key: only once the key exists is the certificate whole. Read while
	// empty, it would leave the client with the system's roots, which
	// never verify the server.
	caFile := filepath.Join(certDir, "apiserver.crt")
	if err := waitFor(ctx, opts.StartTimeout, "kube-apiserver certificate", logPath, func() error {
		if err := apiserver.exited(); err != nil {
			return err
		}
		_, err := os.Stat(filepath.Join(certDir, "apiserver.key"))
		return err
	}); err != nil {
		return err
	}
	cp.AdminConfig = &rest.Config{
		Host:            cp.APIServerURL,
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAFile: caFile},
		QPS:             -1,
	}
	cp.caFile = caFile
	cp.Kubeconfig = filepath.Join(opts.Dir, "kubeconfig")
	if err := cp.WriteKubeconfig(cp.Kubeconfig, AdminUser, token); err != nil {
		return err
	}
	return cp.waitAPIServerReady(ctx, opts.StartTimeout)
}

func (cp *ControlPlane) waitAPIServerReady(ctx context.Context, timeout time.Duration) error {
	transport, err := rest.TransportFor(cp.AdminConfig)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: transport, Timeout: 5 * time.Second}
	return waitFor(ctx, timeout, "kube-apiserver", cp.apiserver.log, func() error {
		if err := cp.apiserver.process.exited(); err != nil {
			return err
		}
		return healthy(client, cp.APIServerURL+"/readyz")
	})
}

// RestartAPIServer kills kube-apiserver, as a crash would, and starts it
// again at once with the same flags, port and certificates: open
// connections are reset and requests in flight may or may not have been
// stored. It returns once the new one is ready, logging to
// apiserver-<n>.log.
func (cp *ControlPlane) RestartAPIServer(ctx context.Context) error {
	if err := cp.restart(&cp.apiserver); err != nil {
		return err
	}
	return cp.waitAPIServerReady(ctx, 60*time.Second)
}

// RestartEtcd kills etcd and starts it again at once on its data
// directory, logging to etcd-<n>.log; kube-apiserver stays up and
// reconnects. It returns once kube-apiserver is ready again.
func (cp *ControlPlane) RestartEtcd(ctx context.Context) error {
	if err := cp.restart(&cp.etcd); err != nil {
		return err
	}
	if err := cp.waitEtcdHealthy(ctx, 60*time.Second); err != nil {
		return err
	}
	return cp.waitAPIServerReady(ctx, 60*time.Second)
}

// healthy GETs a health endpoint and wants 200 OK.
func healthy(client *http.Client, url string) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s returned %s", url, resp.Status)
	}
	return nil
}

func waitFor(ctx context.Context, timeout time.Duration, what, logPath string, ready func() error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ticker := time.NewTicker(100 * time.Millisecond)
	defer ticker.Stop()
	var last error
	for {
		if last = ready(); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not ready after %s: %v (log: %s)", what, timeout, last, logPath)
		case <-ticker.C:
		}
	}
}

// FreePorts returns n distinct loopback ports that were free a moment ago.
func FreePorts(n int) ([]int, error) {
	listeners := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free loopback port: %w", err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
