# Sourced by scripts/run-daemon and Benchmarks/first-build.sh: builds what run-daemon runs in CONFIGURATION (debug or
# release), after environment.bash. One `swift build` of the whole package builds photolibd, photolibd-raw, photolib and
# photolib-web together: SwiftPM takes a single --product per call, and every call plans the build again (about 4 s
# each on an unchanged checkout). It also compiles the Photos and AssetsLibrary modules, which the examples use.
build_products() {
    swift build -c "$1"
}
