# Sourced by scripts/run-daemon and Benchmarks/first-build.sh: builds what run-daemon runs in CONFIGURATION (debug or
# release), after environment.bash.
build_products() {
    local configuration=$1
    swift build -c "$configuration" --product photolibd
    swift build -c "$configuration" --product photolibd-raw   # reads RAW files for the daemon, found beside it
    swift build -c "$configuration" --product photolib   # the client of the README's tour, beside the daemon
    swift build -c "$configuration" --product photolib-web   # the gallery in a browser
}
