# Sourced by the scripts: one persistent build directory outside the clone, so that CI and
# later builds reuse compiled dependencies instead of paying for them again.
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/vkperft-target}"
# The Python with python-chess that the move-type statistics tests compare with (scripts/setup).
export VKPERFT_PYTHON="${VKPERFT_PYTHON:-$HOME/.cache/vkperft-python/bin/python}"
