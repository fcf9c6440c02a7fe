#!/usr/bin/env bash
# Builds the DocC API reference of the six library modules, with no package
# plugin (the library package depends on GRDB, and on postgres-nio and
# swift-log behind its `Postgres` trait):
#
# 1. `swift build --traits Postgres` of each library target into
#    .build-docs, with the compiler emitting public symbol graphs
#    (TransactionKitPostgres is empty without the trait, and every module
#    is built with it, so that they share one build);
# 2. `docc convert --analyze --warnings-as-errors` of each module's catalog
#    (Sources/<Module>/<Module>.docc; TransactionKit's also gets Guides/*.md,
#    copied in as articles), linked to the archives of the modules it
#    depends on;
# 3. a check that every public symbol is curated in a `## Topics` group of
#    its module's catalog (Scripts/docc-support.py check-curation);
# 4. `docc merge` of the five archives into one site.
#
# Exits non-zero on any DocC warning or error, and on any uncurated public
# symbol. Output: .build-docs/docs/<Module>.doccarchive and
# .build-docs/docs/TransactionKit-all.doccarchive (all five, to browse).
#
#     Scripts/build-docs.sh --print-build-arguments
#
# prints the arguments of step 1's `swift build` (scratch path, trait and
# compiler flags), one a line, and creates the symbol-graph folder they
# name. A build with exactly these arguments (CI builds the library and its
# tests with them) leaves step 1 nothing to compile but the six modules.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS

docc=${DOCC:-}
if [ -z "$docc" ]; then
    docc=$(command -v docc || true)
    if [ -z "$docc" ]; then
        docc="$(dirname "$(realpath "$(command -v swift)")")/docc"
    fi
fi
if [ ! -x "$docc" ]; then
    echo "error: docc not found next to swift; set DOCC=/path/to/docc" >&2
    exit 1
fi

scratch=.build-docs
graphs=$root/$scratch/symbol-graphs
work=$root/$scratch/docc-work
out=$root/$scratch/docs
# In dependency order: a module's archive must exist before the modules
# that link to it are converted.
modules=(TransactionKit TransactionKitTesting TransactionKitSQLite TransactionKitSQLiteTesting TransactionKitPostgres TransactionKitPostgresTesting)
depends_on() {
    case $1 in
        TransactionKitTesting | TransactionKitSQLite | TransactionKitPostgres) echo TransactionKit ;;
        TransactionKitSQLiteTesting) echo TransactionKit TransactionKitSQLite ;;
        TransactionKitPostgresTesting) echo TransactionKit TransactionKitPostgres ;;
    esac
}

# Every build below passes the same flags: a change of flags between two
# builds in one scratch folder rebuilds every target, GRDB and postgres-nio
# included.
traits=(--traits Postgres)
build_arguments=(
    --scratch-path "$scratch" "${traits[@]}"
    -Xswiftc -emit-symbol-graph
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
    -Xswiftc -emit-extension-block-symbols
)
if [ "${1:-}" = --print-build-arguments ]; then
    mkdir -p "$graphs"
    printf '%s\n' "${build_arguments[@]}"
    exit 0
fi

echo "== symbol graphs (swift build --scratch-path $scratch ${traits[*]}, the library targets only)"
# The compiler writes a module's symbol graph when it emits the module, and
# an up-to-date module is not emitted again: remove the six modules (neither
# GRDB nor postgres-nio) so that each build emits them afresh into an empty
# folder. The folder's path must not change, or every target rebuilds.
if ! bin=$(swift build --scratch-path "$scratch" "${traits[@]}" --show-bin-path); then
    echo "error: swift build --show-bin-path failed" >&2
    exit 1
fi
for module in "${modules[@]}"; do
    rm -f "$bin/Modules/$module.swiftmodule"
done
rm -rf "$graphs"
mkdir -p "$graphs"
for module in "${modules[@]}"; do
    if ! swift build "${build_arguments[@]}" --target "$module" >"$scratch/build-docs.log" 2>&1; then
        cat "$scratch/build-docs.log" >&2
        echo "error: swift build --target $module failed" >&2
        exit 1
    fi
    if [ ! -f "$graphs/$module.symbols.json" ]; then
        echo "error: swift build --target $module wrote no symbol graph" >&2
        exit 1
    fi
done
rm -f "$scratch/build-docs.log"

rm -rf "$work" "$out"
mkdir -p "$work" "$out"
status=0
summary=()
for module in "${modules[@]}"; do
    # The module's own graphs (and its extensions of other modules' types),
    # not those of its dependencies (GRDB, postgres-nio, TransactionKit, ...).
    mkdir -p "$work/$module-graphs"
    cp "$graphs/$module.symbols.json" "$work/$module-graphs/"
    cp "$graphs/$module"@*.symbols.json "$work/$module-graphs/" 2>/dev/null || true

    catalog=$work/$module.docc
    cp -R "Sources/$module/$module.docc" "$catalog"
    if [ "$module" = TransactionKit ]; then
        if ! python3 Scripts/docc-support.py import-guides Guides "$catalog"; then
            status=1
        fi
    fi

    dependencies=()
    skipped=""
    for dependency in $(depends_on "$module"); do
        if [ ! -d "$out/$dependency.doccarchive" ]; then
            skipped=$dependency
        fi
        dependencies+=(--dependency "$out/$dependency.doccarchive")
    done
    if [ -n "$skipped" ]; then
        summary+=("$module: skipped ($skipped failed)")
        status=1
        continue
    fi

    echo "== docc convert $module"
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$work/$module-graphs" \
        --output-path "$out/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --analyze \
        --warnings-as-errors \
        --diagnostics-file "$work/$module-diagnostics.json" \
        --enable-experimental-external-link-support \
        "${dependencies[@]}" 2>&1 | sed "s|$root/||g"
    converted=${PIPESTATUS[0]}
    read -r warnings notes < <(python3 Scripts/docc-support.py diagnostics "$work/$module-diagnostics.json" 2>/dev/null || echo "? ?")

    if [ "$converted" -ne 0 ] || [ "$warnings" != 0 ]; then
        status=1
        rm -rf "$out/$module.doccarchive"
        summary+=("$module: docc failed (warnings: $warnings, notes: $notes); curation not checked")
        continue
    fi
    curation=$(python3 Scripts/docc-support.py check-curation "$module" "$work/$module-graphs" "$out/$module.doccarchive") || status=1
    read -r symbols curated <<<"$(tail -n 1 <<<"$curation")"
    summary+=("$module: $symbols public symbols, $curated curated, warnings: $warnings, notes: $notes")
done

if [ "$status" -eq 0 ]; then
    echo "== docc merge (one site with the six modules)"
    archives=()
    for module in "${modules[@]}"; do archives+=("$out/$module.doccarchive"); done
    if ! "$docc" merge "${archives[@]}" \
        --synthesized-landing-page-name TransactionKit \
        --output-path "$out/TransactionKit-all.doccarchive" >"$work/merge.log" 2>&1; then
        cat "$work/merge.log" >&2
        status=1
    fi
fi

echo "== API reference"
for line in "${summary[@]}"; do echo "$line"; done
echo "($((SECONDS - started)) s)"
if [ "$status" -ne 0 ]; then
    echo "error: the API reference has warnings or uncurated symbols (see above)" >&2
    exit "$status"
fi
cat <<EOF
To read it: python3 -m http.server --directory $scratch/docs/TransactionKit-all.doccarchive 8000
then open http://localhost:8000/documentation/transactionkit (all six modules: /documentation).
EOF
