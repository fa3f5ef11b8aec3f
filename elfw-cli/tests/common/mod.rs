//! Helpers shared by the CLI's integration tests.

use std::path::PathBuf;

/// Where `cargo xtask toolchain` puts NVIDIA's tools (`$ELFW_TOOLCHAIN_DIR`, else the cache
/// folder), whether or not they are there.
#[allow(dead_code)]
pub fn toolchain_bin() -> PathBuf {
    toolchain_root().join("bin")
}

/// NVIDIA's nvlink from the toolchain cache, or `None` (with a loud note: the check that
/// wanted it is skipped).
#[allow(dead_code)]
pub fn nvlink() -> Option<PathBuf> {
    let p = toolchain_bin().join("nvlink");
    if p.is_file() {
        Some(p)
    } else {
        eprintln!(
            "\n!!!!! SKIPPED: nvlink not found at {} (run `cargo xtask toolchain`); \
             this check needs the real nvlink !!!!!\n",
            p.display()
        );
        None
    }
}

/// The toolchain's `nvvm` folder with `lib64/libnvvm.so` (laid out by `cargo xtask
/// toolchain`), or `None`.
#[allow(dead_code)]
pub fn toolchain_nvvm() -> Option<PathBuf> {
    let nvvm = toolchain_root().join("nvvm");
    nvvm.join("lib64/libnvvm.so").is_file().then_some(nvvm)
}

/// The toolchain's CUDA root (`bin/`, `nvvm/`, `lib/` …).
fn toolchain_root() -> PathBuf {
    std::env::var_os("ELFW_TOOLCHAIN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let base = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
                });
            base.join("elfw/cuda-13.5.37")
        })
        .join("root/nvidia/cu13")
}
