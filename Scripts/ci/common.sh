# Sourced by every Scripts/ci/<stage>.sh: the repository root as the working
# folder, strict mode, and the builds the stages share. Each stage builds
# what it needs itself (an up-to-date build only plans), so any stage runs
# alone with the same result as inside .ci/run.
#
#   .build           the root package with the `Txkit` trait: the library,
#                    the generator (`txkit`), their tests and fixtures; the
#                    README's `swift test --traits Txkit`
#   .build-docs      the root package with the `Postgres` trait, built with
#                    the DocC script's flags (Scripts/build-docs.sh
#                    --print-build-arguments): the PostgreSQL tests, then the
#                    API reference, which recompiles only the five modules
#   Tools/.build     the tools package: the example, txkit-demo, the
#                    torture, the benchmarks (the generator's only with its
#                    trait GeneratorBenchmark, which CI does not turn on)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

# The root package's build: every `swift build|test|run` on .build passes
# these, so that no stage rebuilds it with other traits.
root_build=(--traits Txkit)

# The Postgres-trait build, in the DocC script's scratch path and flags.
postgres_build() {
    local arguments
    arguments=$(Scripts/build-docs.sh --print-build-arguments)
    mapfile -t postgres_arguments <<<"$arguments"
}

# The generator, built with the trait (debug).
txkit_binary() {
    swift build "${root_build[@]}" --product txkit >/dev/null
    echo "$(swift build "${root_build[@]}" --show-bin-path)/txkit"
}
