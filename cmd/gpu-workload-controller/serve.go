package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapifilters "k8s.io/apiserver/pkg/endpoints/filters"
	apirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/server"
	genericfilters "k8s.io/apiserver/pkg/server/filters"
	"k8s.io/apiserver/pkg/server/healthz"
	"k8s.io/apiserver/pkg/server/mux"
	apiserveroptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/component-base/metrics/legacyregistry"
	netutils "k8s.io/utils/net"

	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
)

// defaultSecurePort is where the controller serves /metrics, /healthz,
// /livez and /readyz.
const defaultSecurePort = 10361

// servingOptions are the secure port's options, as kube-scheduler and
// kube-controller-manager have them: TLS, and authentication and
// authorization delegated to the API server (TokenReview and
// SubjectAccessReview), with the health paths open to anyone.
type servingOptions struct {
	secure         *apiserveroptions.SecureServingOptions
	authentication *apiserveroptions.DelegatingAuthenticationOptions
	authorization  *apiserveroptions.DelegatingAuthorizationOptions
}

func newServingOptions() servingOptions {
	o := servingOptions{
		secure:         apiserveroptions.NewSecureServingOptions(),
		authentication: apiserveroptions.NewDelegatingAuthenticationOptions(),
		authorization:  apiserveroptions.NewDelegatingAuthorizationOptions(),
	}
	o.authentication.TolerateInClusterLookupFailure = true
	o.authentication.RemoteKubeConfigFileOptional = true
	o.authorization.RemoteKubeConfigFileOptional = true
	// Without --cert-dir or --tls-cert-file the certificate is self-signed
	// and kept in memory.
	o.secure.ServerCert.CertDirectory = ""
	o.secure.ServerCert.PairName = modecontroller.Name
	o.secure.BindPort = defaultSecurePort
	// --secure-port=0 serves nothing: the lab and tests run several
	// controllers on one host.
	o.secure.Required = false
	return o
}

func (o servingOptions) addFlags(fs *pflag.FlagSet) {
	o.secure.AddFlags(fs)
	o.authentication.AddFlags(fs)
	o.authorization.AddFlags(fs)
}

func (o servingOptions) validate() []error {
	errs := o.secure.Validate()
	errs = append(errs, o.authentication.Validate()...)
	return append(errs, o.authorization.Validate()...)
}

// enabled is false with --secure-port=0: nothing is served.
func (o servingOptions) enabled() bool { return o.secure.BindPort != 0 }

// endpoints are what the secure port serves besides /metrics: liveness
// follows the lease (a leader that stopped renewing it is restarted),
// readiness also needs the API server to answer.
type endpoints struct {
	live, ready []healthz.HealthChecker
}

// apiServerReachable is ready while the controller's API server answers
// its /readyz: a replica that cannot reach it can neither lead nor act.
func apiServerReachable(client kubernetes.Interface) healthz.HealthChecker {
	return healthz.NamedCheck("kube-apiserver", func(r *http.Request) error {
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		defer cancel()
		if err := client.Discovery().RESTClient().Get().AbsPath("/readyz").Do(ctx).Error(); err != nil {
			return fmt.Errorf("the API server's /readyz: %w", err)
		}
		return nil
	})
}

// serve runs the secure port until ctx ends; it returns once the port
// listens, or with the reason it cannot.
func (o servingOptions) serve(ctx context.Context, e endpoints) error {
	if err := o.secure.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{netutils.ParseIPSloppy("127.0.0.1")}); err != nil {
		return fmt.Errorf("self-signed serving certificate: %w", err)
	}
	var serving *server.SecureServingInfo
	if err := o.secure.ApplyTo(&serving); err != nil {
		return err
	}
	var authn server.AuthenticationInfo
	if err := o.authentication.ApplyTo(&authn, serving, nil); err != nil {
		return fmt.Errorf("delegated authentication: %w", err)
	}
	var authz server.AuthorizationInfo
	if err := o.authorization.ApplyTo(&authz); err != nil {
		return fmt.Errorf("delegated authorization: %w", err)
	}
	paths := mux.NewPathRecorderMux(modecontroller.Name)
	healthz.InstallHandler(paths, e.live...)
	healthz.InstallLivezHandler(paths, e.live...)
	healthz.InstallReadyzHandler(paths, append(e.ready, healthz.NewShutdownHealthz(ctx.Done()))...)
	paths.Handle("/metrics", legacyregistry.Handler())
	_, _, err := serving.Serve(handlerChain(paths, authn.Authenticator, authz.Authorizer), 0, ctx.Done())
	return err
}

// handlerChain is kube-scheduler's: authorization inside authentication,
// request info, no caching, logging and panic recovery.
func handlerChain(handler http.Handler, authn authenticator.Request, authz authorizer.UnconditionalAuthorizer) http.Handler {
	requestInfo := &apirequest.RequestInfoFactory{}
	handler = genericapifilters.WithAuthorization(handler, authz, scheme.Codecs)
	handler = genericapifilters.WithAuthentication(handler, authn, genericapifilters.Unauthorized(scheme.Codecs), nil, nil)
	handler = genericapifilters.WithRequestInfo(handler, requestInfo)
	handler = genericapifilters.WithCacheControl(handler)
	handler = genericfilters.WithHTTPLogging(handler)
	return genericfilters.WithPanicRecovery(handler, requestInfo)
}
