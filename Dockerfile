# The container image of an mdcontract release: the static binary
# (CGO_ENABLED=0) on an empty base, nothing else in the image. Built from
# the folder scripts/release.sh writes, for Linux on amd64 and arm64
# (.github/workflows/release.yml pushes it to ghcr.io):
#
#   sh scripts/release.sh v0.1.0 dist
#   docker buildx build --platform linux/amd64,linux/arm64 -f Dockerfile -t ghcr.io/mdcontract/mdcontract:0.1.0 dist
#
# It checks the folder mounted at /repo:
#
#   docker run --rm -v "$PWD:/repo" ghcr.io/mdcontract/mdcontract:0.1.0
#   docker run --rm -v "$PWD:/repo" --user "$(id -u):$(id -g)" ghcr.io/mdcontract/mdcontract:0.1.0 check --fix
#
# cmd/mdcontract's TestContainerImage runs this file's steps without
# Docker: the binary alone in an empty root, started as ENTRYPOINT and CMD
# say, in WORKDIR.
FROM scratch
ARG TARGETOS
ARG TARGETARCH
COPY bin/${TARGETOS}_${TARGETARCH}/mdcontract /mdcontract
WORKDIR /repo
ENTRYPOINT ["/mdcontract"]
CMD ["check"]
