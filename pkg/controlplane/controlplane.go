// Package controlplane starts a real etcd and kube-apiserver on loopback,
// from the binaries that `make tools` builds out of vendor/.
package controlplane

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
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

	processes []*process
	caFile    string
	detached  bool
}

// process is a started component; done closes when it has exited.
type process struct {
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
}

// Start runs etcd, then kube-apiserver, and waits until both are healthy.
// On error, whatever was started is stopped again.
func Start(ctx context.Context, opts Options) (cp *ControlPlane, err error) {
	if opts.Dir == "" {
		return nil, errors.New("controlplane: Options.Dir is required")
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = 60 * time.Second
	}
	cp = &ControlPlane{Dir: opts.Dir, detached: opts.Detached}
	defer func() {
		if err != nil {
			_ = cp.Stop()
			cp = nil
		}
	}()
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return nil, err
	}
	if err := cp.startEtcd(ctx, opts); err != nil {
		return nil, err
	}
	if err := cp.startAPIServer(ctx, opts); err != nil {
		return nil, err
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
	etcd, err := cp.spawn(bin, args, filepath.Join(opts.Dir, "etcd.log"))
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 2 * time.Second}
	return waitFor(ctx, opts.StartTimeout, "etcd", filepath.Join(opts.Dir, "etcd.log"), func() error {
		if err := etcd.exited(); err != nil {
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

	// The serving certificate is self-signed and written at start.
	caFile := filepath.Join(certDir, "apiserver.crt")
	if err := waitFor(ctx, opts.StartTimeout, "kube-apiserver certificate", logPath, func() error {
		if err := apiserver.exited(); err != nil {
			return err
		}
		_, err := os.Stat(caFile)
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
	transport, err := rest.TransportFor(cp.AdminConfig)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: transport, Timeout: 5 * time.Second}
	return waitFor(ctx, opts.StartTimeout, "kube-apiserver", logPath, func() error {
		if err := apiserver.exited(); err != nil {
			return err
		}
		return healthy(client, cp.APIServerURL+"/readyz")
	})
}

// spawn starts a component whose output goes to logPath. The child is killed
// if this process dies, so that no component outlives a crashed test.
func (cp *ControlPlane) spawn(bin string, args []string, logPath string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if cp.detached {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	if cp.detached {
		pidFile := strings.TrimSuffix(logPath, ".log") + ".pid"
		if err := writePidFile(pidFile, cmd.Process.Pid, cmd.Path); err != nil {
			_ = cmd.Process.Kill()
			logFile.Close()
			return nil, err
		}
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	cp.processes = append(cp.processes, p)
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// exited returns an error once the process has exited.
func (p *process) exited() error {
	select {
	case <-p.done:
		return fmt.Errorf("%s exited: %v", filepath.Base(p.cmd.Path), p.waitErr)
	default:
		return nil
	}
}

// Stop terminates the components in reverse start order, politely first.
func (cp *ControlPlane) Stop() error {
	var errs []error
	for i := len(cp.processes) - 1; i >= 0; i-- {
		errs = append(errs, stopProcess(cp.processes[i]))
	}
	cp.processes = nil
	return errors.Join(errs...)
}

func stopProcess(p *process) error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(15 * time.Second):
		return p.cmd.Process.Kill()
	}
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

func writeRSAKey(path string) error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
}

func randomToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", b), nil
}

// WriteKubeconfig writes a kubeconfig for this control plane that
// authenticates with a bearer token, such as a ServiceAccount's.
func (cp *ControlPlane) WriteKubeconfig(path, user, token string) error {
	config := clientcmdapi.NewConfig()
	config.Clusters["local"] = &clientcmdapi.Cluster{Server: cp.APIServerURL, CertificateAuthority: cp.caFile}
	config.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
	config.Contexts["local"] = &clientcmdapi.Context{Cluster: "local", AuthInfo: user}
	config.CurrentContext = "local"
	return clientcmd.WriteToFile(*config, path)
}

// Stopped says what StopDetached found of one component.
type Stopped struct {
	Name string
	// WasRunning is false for a component that had exited on its own.
	WasRunning bool
}

// StopDetached stops the components whose pid files are in dir, politely
// first, and removes the pid files.
func StopDetached(dir string) ([]Stopped, error) {
	pidFiles, err := filepath.Glob(filepath.Join(dir, "*.pid"))
	if err != nil {
		return nil, err
	}
	// Clients first, the store last: a scheduler that loses its API server
	// exits on its own, and would then look as if it had crashed.
	stopRank := map[string]int{"apiserver.pid": 1, "etcd.pid": 2}
	slices.SortStableFunc(pidFiles, func(a, b string) int { return stopRank[filepath.Base(a)] - stopRank[filepath.Base(b)] })
	var stopped []Stopped
	var errs []error
	for _, pidFile := range pidFiles {
		name := strings.TrimSuffix(filepath.Base(pidFile), ".pid")
		pid, alive := PidAlive(pidFile)
		if alive {
			if err := stopPid(pid); err != nil {
				errs = append(errs, fmt.Errorf("%s (pid %d): %w", name, pid, err))
				continue
			}
		}
		stopped = append(stopped, Stopped{Name: name, WasRunning: alive})
		if err := os.Remove(pidFile); err != nil {
			errs = append(errs, err)
		}
	}
	return stopped, errors.Join(errs...)
}

// writePidFile records the process and its executable, "<pid> <path>", so
// that a later stop can tell the process from another that reuses its pid.
func writePidFile(path string, pid int, executable string) error {
	exe, err := filepath.Abs(executable)
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("pid file %s: %w", path, err)
	}
	return os.WriteFile(path, []byte(fmt.Sprintf("%d %s\n", pid, exe)), 0o600)
}

// PidAlive reads a pid file and reports whether its process still runs: the
// pid must belong to a live process running the recorded executable, so that
// a pid the kernel has given to another program is never taken for ours.
func PidAlive(pidFile string) (int, bool) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, false
	}
	pidText, exe, ok := strings.Cut(strings.TrimSpace(string(data)), " ")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 {
		return 0, false
	}
	running, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return pid, false
	}
	// A binary rebuilt while the lab runs shows as deleted; it is still ours.
	return pid, strings.TrimSuffix(running, " (deleted)") == exe
}

// stopPid sends SIGTERM, waits for the process to go, and kills it after 15 s.
func stopPid(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return fmt.Errorf("SIGTERM: %w", err)
	}
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, 15*time.Second, true, func(context.Context) (bool, error) {
		return syscall.Kill(pid, 0) != nil, nil
	})
	if err == nil {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("SIGKILL after 15 s: %w", err)
	}
	return nil
}

// InstallCRDs creates every CustomResourceDefinition in the YAML files of dir
// and waits until each is established.
func (cp *ControlPlane) InstallCRDs(ctx context.Context, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no CRDs in %s: %v", dir, err)
	}
	client, err := apiextensionsclient.NewForConfig(cp.AdminConfig)
	if err != nil {
		return err
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(data, &crd); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create CRD %s: %w", crd.Name, err)
		}
		err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			got, err := client.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			for _, c := range got.Status.Conditions {
				if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("CRD %s not established: %w", crd.Name, err)
		}
	}
	return nil
}
