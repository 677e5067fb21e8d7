# Static gpu-workload-scheduler and gpu-workload-controller on a distroless base. Build from the repository
# root, naming the runtime image (a distroless "static" image with a nonroot
# user, from the registry your cluster pulls from):
#   docker build --build-arg RUNTIME_IMAGE=<distroless static:nonroot> -t gpu-workload-scheduler:latest .
ARG RUNTIME_IMAGE

FROM golang:1.26 AS build
WORKDIR /src
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/gpu-workload-scheduler/scheduler/pkg/version.Version=${VERSION}" \
    -o /out/ ./cmd/gpu-workload-scheduler ./cmd/gpu-workload-controller

FROM ${RUNTIME_IMAGE}
COPY --from=build /out/gpu-workload-scheduler /gpu-workload-scheduler
COPY --from=build /out/gpu-workload-controller /gpu-workload-controller
USER 65532:65532
ENTRYPOINT ["/gpu-workload-scheduler"]
