// Copyright The OpenTelemetry Authors
// SPDX-License-Identifier: Apache-2.0

// Package observ provides observability instrumentation for the OTel trace SDK
// package.
package observ
