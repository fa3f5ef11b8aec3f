//! `cargo xtask toolchain`: NVIDIA's CUDA 13.5.37 command-line tools from PyPI wheels.
//!
//! The wheels are fetched with `pip download --no-deps` into `<cache>/wheels`, unpacked (a wheel
//! is a zip file) into `<cache>/root` with `python3 -m zipfile`, and the programs under
//! `nvidia/cu13/bin` and `nvidia/cu13/nvvm/bin` are made executable. A wheel counts as installed
//! when its `.dist-info/RECORD` exists and every file it lists is present with the listed size;
//! when every wheel is installed nothing is downloaded (offline once cached).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::process::Command;

/// The PyPI distributions that make up the toolchain, with pinned versions.
///
/// `nvidia-cuda-cccl` (Thrust/CUB/libcu++ headers) has no 13.5 release on PyPI;
/// 13.3.5.0.6 is the newest and is pinned instead. Nothing in the corpus depends on it beyond
/// the headers nvcc's `-isystem include/cccl` points at.
pub const WHEELS: &[(&str, &str)] = &[
    ("nvidia-cuda-nvcc", "13.5.37"),
    ("nvidia-cuda-runtime", "13.5.37"),
    ("nvidia-cuda-crt", "13.5.37"),
    ("nvidia-cuda-cuobjdump", "13.5.37"),
    ("nvidia-cuda-nvdisasm", "13.5.37"),
    ("nvidia-nvvm", "13.5.37"),
    ("nvidia-cuda-cccl", "13.3.5.0.6"),
];

/// Where the toolchain lives: the cache folder and the paths inside it.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// `$ELFW_TOOLCHAIN_DIR` or `${XDG_CACHE_HOME:-$HOME/.cache}/elfw/cuda-13.5.37`.
    pub cache: PathBuf,
}

impl Toolchain {
    /// The toolchain at the configured cache folder (nothing is checked or installed).
    pub fn locate() -> Result<Self, String> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let cache = if let Some(dir) = var("ELFW_TOOLCHAIN_DIR") {
            PathBuf::from(dir)
        } else {
            let base = match var("XDG_CACHE_HOME") {
                Some(dir) => PathBuf::from(dir),
                None => {
                    PathBuf::from(var("HOME").ok_or("neither ELFW_TOOLCHAIN_DIR nor HOME is set")?)
                        .join(".cache")
                }
            };
            base.join("elfw").join("cuda-13.5.37")
        };
        Ok(Toolchain { cache })
    }

    fn wheel_dir(&self) -> PathBuf {
        self.cache.join("wheels")
    }

    fn unpack_root(&self) -> PathBuf {
        self.cache.join("root")
    }

    /// The toolkit root, `<cache>/root/nvidia/cu13`.
    pub fn cuda_root(&self) -> PathBuf {
        self.unpack_root().join("nvidia").join("cu13")
    }

    /// The tool folder (nvlink, ptxas, nvcc, fatbinary, cuobjdump, nvdisasm).
    pub fn bin_dir(&self) -> PathBuf {
        self.cuda_root().join("bin")
    }

    /// The folder holding cicc, which nvcc needs to compile CUDA C++.
    pub fn nvvm_bin_dir(&self) -> PathBuf {
        self.cuda_root().join("nvvm").join("bin")
    }

    /// The `nvvm` folder nvlink's `-nvvmpath` takes: `libdevice/` from the wheel and
    /// `lib64/libnvvm.so`, which [`Toolchain::install`] links to the wheel's `lib/libnvvm.so.4`
    /// (the wheel has no `nvvm/lib64`, and nvlink loads `<nvvmpath>/lib64/libnvvm.so`).
    pub fn nvvm_dir(&self) -> PathBuf {
        self.cuda_root().join("nvvm")
    }

    /// True when every wheel is unpacked completely.
    pub fn is_installed(&self) -> bool {
        WHEELS
            .iter()
            .all(|(name, version)| self.unpacked(name, version).is_ok())
    }

    /// Checks one wheel's unpacked files against its RECORD.
    fn unpacked(&self, name: &str, version: &str) -> Result<(), String> {
        let root = self.unpack_root();
        let dist_info = root.join(format!("{}-{version}.dist-info", normalize(name)));
        let record_path = dist_info.join("RECORD");
        let record = fs::read_to_string(&record_path)
            .map_err(|e| format!("{}: {e}", record_path.display()))?;
        for line in record.lines().filter(|l| !l.trim().is_empty()) {
            // RECORD is CSV: path,hash,size. Wheel paths here contain no commas or quotes.
            let mut fields = line.rsplitn(3, ',');
            let size = fields.next().unwrap_or("");
            let _hash = fields.next();
            let path = fields.next().unwrap_or("");
            if path.is_empty() || path.contains("..") {
                return Err(format!("{}: odd line {line:?}", record_path.display()));
            }
            let file = root.join(path);
            let meta = fs::metadata(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            if let Ok(expected) = size.parse::<u64>() {
                if meta.len() != expected {
                    return Err(format!(
                        "{}: {} bytes, RECORD says {expected}",
                        file.display(),
                        meta.len()
                    ));
                }
            }
        }
        Ok(())
    }

    /// The downloaded wheel file of a distribution, if present.
    fn wheel_file(&self, name: &str, version: &str) -> Option<PathBuf> {
        let prefix = format!("{}-{version}-", normalize(name));
        let mut found: Vec<PathBuf> = fs::read_dir(self.wheel_dir())
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
            })
            .collect();
        found.sort();
        found.into_iter().next()
    }

    /// Downloads what is missing, unpacks what is not unpacked, fixes permissions.
    /// Progress goes to stderr. Does not touch the network when everything is unpacked.
    pub fn install(&self) -> Result<(), String> {
        let pending: Vec<(&str, &str)> = WHEELS
            .iter()
            .copied()
            .filter(|(name, version)| self.unpacked(name, version).is_err())
            .collect();
        if pending.is_empty() {
            self.make_executable()?;
            return self.make_nvvm_lib64();
        }
        let to_download: Vec<String> = pending
            .iter()
            .filter(|(name, version)| self.wheel_file(name, version).is_none())
            .map(|(name, version)| format!("{name}=={version}"))
            .collect();
        if !to_download.is_empty() {
            fs::create_dir_all(self.wheel_dir())
                .map_err(|e| format!("{}: {e}", self.wheel_dir().display()))?;
            eprintln!("xtask: pip download {}", to_download.join(" "));
            let status = Command::new(python())
                .args([
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--disable-pip-version-check",
                ])
                .args(&to_download)
                .arg("-d")
                .arg(self.wheel_dir())
                // pip's progress goes to stderr: stdout carries only the tool folder, so
                // `T=$(cargo xtask toolchain)` works on the first (downloading) run too.
                .stdout(std::io::stderr())
                .status()
                .map_err(|e| format!("cannot run {} -m pip: {e}", python()))?;
            if !status.success() {
                return Err(format!("pip download failed ({status})"));
            }
        }
        fs::create_dir_all(self.unpack_root())
            .map_err(|e| format!("{}: {e}", self.unpack_root().display()))?;
        for (name, version) in pending {
            let wheel = self
                .wheel_file(name, version)
                .ok_or_else(|| format!("no wheel for {name}=={version} after pip download"))?;
            eprintln!("xtask: unpacking {}", wheel.display());
            let status = Command::new(python())
                .args(["-m", "zipfile", "-e"])
                .arg(&wheel)
                .arg(self.unpack_root())
                .stdout(std::io::stderr())
                .status()
                .map_err(|e| format!("cannot run {} -m zipfile: {e}", python()))?;
            if !status.success() {
                return Err(format!("unpacking {} failed ({status})", wheel.display()));
            }
            self.unpacked(name, version)
                .map_err(|e| format!("{name}=={version} incomplete after unpacking: {e}"))?;
        }
        self.make_executable()?;
        self.make_nvvm_lib64()
    }

    /// `nvvm/lib64/libnvvm.so` → `../../lib/libnvvm.so.4`, as a toolkit installer lays it out.
    fn make_nvvm_lib64(&self) -> Result<(), String> {
        let dir = self.nvvm_dir().join("lib64");
        let link = dir.join("libnvvm.so");
        if link.is_file() {
            return Ok(());
        }
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if fs::symlink_metadata(&link).is_ok() {
            fs::remove_file(&link).map_err(|e| format!("{}: {e}", link.display()))?;
        }
        std::os::unix::fs::symlink("../../lib/libnvvm.so.4", &link)
            .map_err(|e| format!("{}: {e}", link.display()))
    }

    /// zip extraction drops the executable bits: restore them on every file in the tool folders.
    fn make_executable(&self) -> Result<(), String> {
        for dir in [self.bin_dir(), self.nvvm_bin_dir()] {
            let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for entry in entries.filter_map(|e| e.ok()) {
                let path = entry.path();
                let meta = fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                if meta.is_file() && meta.permissions().mode() & 0o111 != 0o111 {
                    let mut perms = meta.permissions();
                    perms.set_mode(perms.mode() | 0o755);
                    fs::set_permissions(&path, perms)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                }
            }
        }
        Ok(())
    }
}

/// A distribution name as it appears in wheel and dist-info file names.
fn normalize(name: &str) -> String {
    name.replace(['-', '.'], "_")
}

/// The Python interpreter that runs pip and zipfile (`$PYTHON`, else `python3`).
fn python() -> String {
    std::env::var("PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

/// Finds the toolchain and installs it when incomplete.
pub fn ensure() -> Result<Toolchain, String> {
    let toolchain = Toolchain::locate()?;
    toolchain.install()?;
    Ok(toolchain)
}

/// `cargo xtask toolchain [--print | --print-root]`.
pub fn command(args: &[String]) -> Result<(), String> {
    match args {
        [] => {
            let toolchain = ensure()?;
            println!("{}", toolchain.bin_dir().display());
            Ok(())
        }
        [flag] if flag == "--print" || flag == "--print-root" => {
            let toolchain = Toolchain::locate()?;
            if !toolchain.is_installed() {
                return Err(format!(
                    "toolchain not installed in {} (run `cargo xtask toolchain`)",
                    toolchain.cache.display()
                ));
            }
            let path = if flag == "--print" {
                toolchain.bin_dir()
            } else {
                toolchain.cuda_root()
            };
            println!("{}", path.display());
            Ok(())
        }
        _ => Err(format!("unexpected arguments to toolchain: {args:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distribution_names_normalize_like_wheel_files() {
        assert_eq!(normalize("nvidia-cuda-nvcc"), "nvidia_cuda_nvcc");
        assert_eq!(normalize("nvidia-nvvm"), "nvidia_nvvm");
    }

    #[test]
    fn missing_cache_is_not_installed() {
        let toolchain = Toolchain {
            cache: PathBuf::from("/nonexistent/elfw-toolchain-test"),
        };
        assert!(!toolchain.is_installed());
        assert!(toolchain.bin_dir().ends_with("nvidia/cu13/bin"));
    }
}
