package controlplane

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

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
