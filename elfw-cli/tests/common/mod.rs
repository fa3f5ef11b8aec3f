//! Helpers shared by the CLI's integration tests.

use std::path::PathBuf;

/// NVIDIA's nvlink from the toolchain cache (`cargo xtask toolchain`), or `None` (with a loud
/// note: the check that wanted it is skipped).
#[allow(dead_code)]
pub fn nvlink() -> Option<PathBuf> {
    let p = toolchain_cache().join("root/nvidia/cu13/bin/nvlink");
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

/// Where `cargo xtask toolchain` puts the toolchain.
fn toolchain_cache() -> PathBuf {
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
}

/// The toolchain's `nvvm` folder with `lib64/libnvvm.so` (laid out by `cargo xtask
/// toolchain`), or `None`.
#[allow(dead_code)]
pub fn toolchain_nvvm() -> Option<PathBuf> {
    let nvvm = toolchain_cache().join("root/nvidia/cu13/nvvm");
    nvvm.join("lib64/libnvvm.so").is_file().then_some(nvvm)
}
