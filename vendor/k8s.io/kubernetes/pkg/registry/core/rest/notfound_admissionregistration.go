/*
Copyright The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package rest

import (
	"context"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type notFoundValidatingWebhookConfigurations struct{}

func (notFoundValidatingWebhookConfigurations) Get(_ context.Context, name string, _ metav1.GetOptions) (*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	return nil, errors.NewNotFound(admissionregistrationv1.Resource("validatingwebhookconfigurations"), name)
}

type notFoundMutatingWebhookConfigurations struct{}

func (notFoundMutatingWebhookConfigurations) Get(_ context.Context, name string, _ metav1.GetOptions) (*admissionregistrationv1.MutatingWebhookConfiguration, error) {
	return nil, errors.NewNotFound(admissionregistrationv1.Resource("mutatingwebhookconfigurations"), name)
}
