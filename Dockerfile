# The image of gpu-workload-scheduler and gpu-workload-controller, for those
# who build with Docker; `make image` builds the same image without Docker.
# The binaries are static, so the image needs no base: the runtime image is
# scratch unless you name another (a distroless static:nonroot image, say):
#   docker build --build-arg VERSION=$(git describe --tags --always) -t gpu-workload-scheduler:<version> .
ARG RUNTIME_IMAGE=scratch

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
