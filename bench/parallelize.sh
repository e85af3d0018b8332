#!/usr/bin/env bash
# affine-parallelize speed (three option sets) through bench/passes.sh; same arguments as it
# without --passes: bash bench/parallelize.sh [--inputs FILE,...] [--runs N] [--threads N] [--out FILE]
exec bash "$(dirname "${BASH_SOURCE[0]}")/passes.sh" \
  --passes '--affine-parallelize|--affine-parallelize=parallel-reductions=true|--affine-parallelize=max-nested=1' "$@"
