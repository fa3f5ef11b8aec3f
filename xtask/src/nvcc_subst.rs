//! `cargo xtask nvcc-subst`: elfw as nvcc's device linker.
//!
//! Builds a copy of the toolkit in a temporary folder whose `bin/nvlink` is a wrapper that
//! runs elfw under the name `nvlink` (the other tools are copies; `include`, `lib`, `nvvm`
//! are links to the real ones, so nvcc's `nvcc.profile` finds them), then builds each test
//! program with `nvcc -rdc=true` twice — with the real toolkit and with the copy — extracts
//! the device images with `cuobjdump -xelf all` from both executables and compares each pair
//! with `elfw cmp` (IDENTICAL, EQUAL, EQUIVALENT or DIFFERENT).
//!
//! Exit status: 1 when a build with elfw fails (nvcc could not use it); with
//! `--require-equal`, also when an image is less than EQUAL.

use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A test program: its files and how to build it (`$NVCC` and `$ARCH` are substituted).
struct Program {
    name: &'static str,
    files: &'static [(&'static str, &'static str)],
    build: &'static [&'static str],
}

const MAIN_HOST: &str = "#include <cstdio>\n";

const PROGRAMS: &[Program] = &[
    Program {
        name: "lto_two_tu",
        files: &[
            (
                "main.cu",
                "__device__ int mix(int x);\n__global__ void k(int *p) { p[threadIdx.x] = mix(p[threadIdx.x]); }\nint main() { k<<<1, 32>>>(nullptr); return 0; }\n",
            ),
            ("mix.cu", "__device__ int mix(int x) { return x * 7 + (x >> 3); }\n"),
        ],
        build: &["$NVCC -dlto -arch=$ARCH main.cu mix.cu -o app"],
    },
    Program {
        // nvcc passes -Xptxas and -split-compile on to nvlink under -dlto; fast math stays in
        // the LTO-IR.
        name: "lto_xptxas_split_fast_math",
        files: &[
            (
                "main.cu",
                "__device__ float mix(float x);\n__global__ void k(float *p) { p[threadIdx.x] = mix(p[threadIdx.x]) / p[1]; }\nint main() { k<<<1, 32>>>(nullptr); return 0; }\n",
            ),
            (
                "mix.cu",
                "__device__ float mix(float x) { return sinf(x) * 7.0f + sqrtf(x); }\n",
            ),
        ],
        build: &["$NVCC -dlto -use_fast_math -arch=$ARCH -Xptxas -O2 -split-compile 2 main.cu mix.cu -o app"],
    },
    Program {
        name: "two_tu_call",
        files: &[
            (
                "a.cu",
                "__device__ int twice(int x);\n__global__ void k(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }\nint main() { int *d = nullptr; k<<<1, 32>>>(d); return 0; }\n",
            ),
            ("b.cu", "__device__ int twice(int x) { return 2 * x + 1; }\n"),
        ],
        build: &["$NVCC -rdc=true -arch=$ARCH a.cu b.cu -o app"],
    },
    Program {
        name: "three_tu_globals",
        files: &[
            (
                "main.cu",
                "extern __device__ float scale;\nextern __constant__ float bias[4];\n__device__ float apply(float);\n__global__ void k(float *p) { p[threadIdx.x] = apply(p[threadIdx.x]) * scale + bias[threadIdx.x & 3]; }\nint main() { k<<<1, 32>>>(nullptr); return 0; }\n",
            ),
            ("data.cu", "__device__ float scale = 2.0f;\n__constant__ float bias[4] = {1, 2, 3, 4};\n"),
            (
                "math.cu",
                "__device__ float apply(float x) { return x * x - 1.0f; }\n__device__ float unused_helper(float x) { return x + 42.0f; }\n",
            ),
        ],
        build: &[
            "$NVCC -dc -arch=$ARCH main.cu -o main.o",
            "$NVCC -dc -arch=$ARCH data.cu -o data.o",
            "$NVCC -dc -arch=$ARCH math.cu -o math.o",
            "$NVCC -arch=$ARCH main.o data.o math.o -o app",
        ],
    },
    Program {
        name: "dynamic_parallelism",
        files: &[
            (
                "dp.cu",
                "__global__ void child(int *p) { p[threadIdx.x] += 1; }\n__device__ void launch(int *p);\n__global__ void parent(int *p) { if (threadIdx.x == 0) launch(p); }\nint main() { parent<<<1, 1>>>(nullptr); return 0; }\n",
            ),
            (
                "launch.cu",
                "__global__ void child(int *p);\n__device__ void launch(int *p) { child<<<1, 32>>>(p); }\n",
            ),
        ],
        build: &["$NVCC -rdc=true -arch=$ARCH dp.cu launch.cu -lcudadevrt -o app"],
    },
    Program {
        name: "archive_lib",
        files: &[
            (
                "main.cu",
                "__device__ int part_a(int);\n__device__ int part_b(int);\n__global__ void k(int *p) { p[0] = part_a(p[1]) + part_b(p[2]); }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n",
            ),
            ("part_a.cu", "__device__ int part_a(int x) { return x + 1; }\n"),
            ("part_b.cu", "__device__ int part_b(int x) { return x * 3; }\n__device__ int part_b_unused(int x) { return x - 3; }\n"),
        ],
        build: &[
            "$NVCC -lib -rdc=true -arch=$ARCH part_a.cu part_b.cu -o libparts.a",
            "$NVCC -rdc=true -arch=$ARCH main.cu -L. -lparts -o app",
        ],
    },
    Program {
        name: "virtual_and_pointers",
        files: &[
            (
                "shapes.cu",
                "struct Shape { __device__ virtual float area() const { return 0; } __device__ virtual ~Shape() {} };\nstruct Square : Shape { float s; __device__ Square(float x) : s(x) {} __device__ float area() const override { return s * s; } };\n__device__ float apply_external(float (*f)(float), float x);\n__device__ float neg(float x) { return -x; }\n__global__ void k(float *p) { Square q(p[0]); Shape *s = &q; p[1] = s->area() + apply_external(neg, p[2]); }\nint main() { k<<<1, 1>>>(nullptr); return 0; }\n",
            ),
            ("apply.cu", "__device__ float apply_external(float (*f)(float), float x) { return f(x); }\n"),
        ],
        build: &["$NVCC -rdc=true -arch=$ARCH shapes.cu apply.cu -o app"],
    },
    Program {
        name: "sm80_multi_tu",
        files: &[
            (
                "a.cu",
                "__device__ int g(int);\n__shared__ int tile[64];\n__global__ void k(int *p) { tile[threadIdx.x] = g(p[threadIdx.x]); __syncthreads(); p[threadIdx.x] = tile[63 - threadIdx.x]; }\nint main() { k<<<1, 64>>>(nullptr); return 0; }\n",
            ),
            ("b.cu", "__device__ int g(int x) { return x ^ 0x55; }\n"),
        ],
        build: &["$NVCC -rdc=true -arch=sm_80 a.cu b.cu -o app"],
    },
];

fn run_sh(cmd: &str, dir: &Path, path_var: &str) -> Result<(), String> {
    let out = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .env("PATH", path_var)
        .output()
        .map_err(|e| format!("sh: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{cmd}` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for e in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let e = e.map_err(|e| e.to_string())?;
        let dest = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &dest)?;
        } else {
            std::fs::copy(e.path(), &dest).map_err(|x| format!("{}: {x}", dest.display()))?;
        }
    }
    Ok(())
}

/// The toolkit copy whose `nvlink` is elfw.
fn substituted_toolkit(tc: &Toolchain, elfw: &Path, dir: &Path) -> Result<PathBuf, String> {
    let root = dir.join("cu13-elfw");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    for sub in ["include", "lib", "nvvm", "cccl"] {
        let real = tc.cuda_root().join(sub);
        if real.exists() {
            std::os::unix::fs::symlink(&real, root.join(sub)).map_err(|e| e.to_string())?;
        }
    }
    copy_dir(&tc.bin_dir(), &root.join("bin"))?;
    let wrapper = format!(
        "#!/bin/bash\n# elfw in place of nvlink (argv[0] is nvlink)\nexec -a nvlink '{}' \"$@\"\n",
        elfw.display()
    );
    let nvlink = root.join("bin/nvlink");
    std::fs::write(&nvlink, wrapper).map_err(|e| e.to_string())?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&nvlink, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| e.to_string())?;
    Ok(root)
}

/// Builds elfw and returns its path.
fn build_elfw() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .args(["build", "-q", "-p", "elfw-cli"])
        .status()
        .map_err(|e| format!("{cargo}: {e}"))?;
    if !status.success() {
        return Err("cargo build -p elfw-cli failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .map(|p| p.join("target"))
                .unwrap_or_else(|| PathBuf::from("target"))
        });
    let exe = target.join("debug/elfw");
    exe.is_file()
        .then(|| std::fs::canonicalize(&exe).unwrap_or(exe.clone()))
        .ok_or_else(|| format!("no elfw at {}", exe.display()))
}

fn build(program: &Program, root: &Path, dir: &Path, arch: &str) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for (name, text) in program.files {
        let text = if name.starts_with("main") {
            format!("{MAIN_HOST}{text}")
        } else {
            text.to_string()
        };
        std::fs::write(dir.join(name), text).map_err(|e| e.to_string())?;
    }
    let bin = root.join("bin");
    let path_var = format!(
        "{}:{}:{}",
        bin.display(),
        root.join("nvvm/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for step in program.build {
        let cmd = step
            .replace("$NVCC", &format!("'{}'", bin.join("nvcc").display()))
            .replace("$ARCH", arch);
        run_sh(&cmd, dir, &path_var)?;
    }
    run_sh(
        &format!(
            "'{}' -xelf all app > /dev/null",
            bin.join("cuobjdump").display()
        ),
        dir,
        &path_var,
    )
}

/// The device images `cuobjdump -xelf all` extracted, by file name.
fn images(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".cubin"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Runs the comparison; prints one line per program and image.
pub fn command(args: &[String]) -> Result<(), String> {
    let require_equal = args.iter().any(|a| a == "--require-equal");
    let arch = args
        .iter()
        .find_map(|a| a.strip_prefix("--arch="))
        .unwrap_or("sm_90")
        .to_string();
    let tc = Toolchain::locate()?;
    if !tc.is_installed() {
        return Err("the CUDA toolchain is not installed: run `cargo xtask toolchain`".into());
    }
    let elfw = build_elfw()?;
    let work = std::env::temp_dir().join(format!("elfw-nvcc-subst-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let subst = substituted_toolkit(&tc, &elfw, &work)?;
    let real = tc.cuda_root();
    let mut build_failures = 0;
    let mut below_equal = 0;
    let mut summary = Vec::new();
    for p in PROGRAMS {
        let with_nvlink = work.join(p.name).join("nvlink");
        let with_elfw = work.join(p.name).join("elfw");
        if let Err(e) = build(p, &real, &with_nvlink, &arch) {
            println!("{:<24} SKIPPED (does not build with nvlink: {e})", p.name);
            continue;
        }
        if let Err(e) = build(p, &subst, &with_elfw, &arch) {
            println!("{:<24} BUILD-FAILED with elfw: {e}", p.name);
            build_failures += 1;
            summary.push((p.name, "BUILD-FAILED".to_string()));
            continue;
        }
        let mut worst = "IDENTICAL".to_string();
        let rank = |v: &str| {
            ["IDENTICAL", "EQUAL", "EQUIVALENT", "DIFFERENT"]
                .iter()
                .position(|x| *x == v)
                .unwrap_or(4)
        };
        let expected = images(&with_nvlink);
        if expected != images(&with_elfw) {
            worst = "DIFFERENT".into();
            println!(
                "{:<24} image sets differ: {:?} vs {:?}",
                p.name,
                expected,
                images(&with_elfw)
            );
        }
        for img in &expected {
            let out = Command::new(&elfw)
                .arg("cmp")
                .arg(with_nvlink.join(img))
                .arg(with_elfw.join(img))
                .output()
                .map_err(|e| e.to_string())?;
            let text = String::from_utf8_lossy(&out.stdout);
            let verdict = text
                .split_whitespace()
                .next()
                .unwrap_or("DIFFERENT")
                .to_string();
            let first = text.lines().nth(1).unwrap_or("").trim().to_string();
            println!("{:<24} {img:<40} {verdict} {first}", p.name);
            if rank(&verdict) > rank(&worst) {
                worst = verdict;
            }
        }
        if rank(&worst) > rank("EQUAL") {
            below_equal += 1;
        }
        summary.push((p.name, worst));
    }
    println!("\nnvcc substitution ({arch}; elfw as nvlink):");
    for (name, v) in &summary {
        println!("  {name:<24} {v}");
    }
    let _ = std::fs::remove_dir_all(&work);
    if build_failures > 0 {
        return Err(format!(
            "{build_failures} program(s) did not build with elfw as nvlink"
        ));
    }
    if require_equal && below_equal > 0 {
        return Err(format!(
            "{below_equal} program(s) embed an image that is not EQUAL to nvlink's"
        ));
    }
    Ok(())
}
