# Sourced by the scripts: one persistent build directory outside the clone, so that CI and
# later builds reuse compiled dependencies instead of paying for them again.
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/vkperft-target}"
