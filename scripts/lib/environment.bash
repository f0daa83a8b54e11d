# Sourced by every script that builds or runs photolibd, after it has changed to the checkout: the environment
# SwiftPM and the daemon see, whatever shell the script was started from.

# An empty XDG_* variable means the variable is unset (the XDG Base Directory spec). SwiftPM takes an empty
# XDG_CONFIG_HOME for a path and stops ("invalid absolute path ''"); swiftc takes an empty XDG_CACHE_HOME for the
# current folder and leaves a clang/ModuleCache in the checkout.
for variable in XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR; do
    [[ -n ${!variable:-} ]] || unset "$variable"
done

command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
