//! Synthetic huge-link workloads: N files × M functions, as ptxas would compile them.
//!
//! Every file `i` holds M functions `j`, in a pattern that repeats every ten functions:
//!
//! - `j % 10 == 0`: a kernel `huge_kn_IIIIII_JJJ` with its own `.shared` array, reading the
//!   file's constant data and calling device function `j + 1` of its own file;
//! - `j % 10 == 9` (and the last function): a leaf device function, no calls and no data, so it
//!   has no relocation section;
//! - otherwise: a device function `huge_fn_IIIIII_JJJ` that reads the file's initialized global
//!   `huge_gv_IIIIII`, the next file's global, the file's constant array `huge_cv_IIIIII`, and
//!   calls device function `j + 1` in another file.
//!
//! The file a call goes to is `i + offset(j)` (mod N), with `offset(j)` in `1..N` picked from the
//! seed per `j`: for each `j` that is a bijection of files, so every device function is called
//! exactly once and nothing is dead. Per file that gives, for M = 50, 5 kernels × 5 sections
//! (`.text`, `.nv.info`, `.rela.text`, `.nv.constant0`, `.nv.shared`), 40 callers × 3 sections
//! and 5 leaves × 2 sections: 155 output sections per file, plus a dozen shared ones.
//!
//! Cubins come from `ptxas -c` on generated PTX when ptxas is available. Without it they are
//! cloned from a template cubin (file 0 of a two-file workload with the same M and target,
//! compiled once and committed under `tests/huge/`): names have fixed widths, so renaming a
//! symbol rewrites digits inside `.strtab`/`.shstrtab` in place and nothing else moves. ptxas
//! output does not depend on the names, so a clone is byte-for-byte what ptxas would produce.
//!
//! This file is self-contained (std only) so benchmarks and tests can include it with `#[path]`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Bumped whenever the generated PTX changes, so cached workloads and templates are redone.
pub const GENERATOR_VERSION: u32 = 1;

/// The manifest file written last into a workload directory.
const MANIFEST: &str = "workload.txt";

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Number of input files (N).
    pub files: usize,
    /// Functions per file (M).
    pub funcs: usize,
    /// Target (`sm_90`, `sm_100a`, …), passed to ptxas and written as the PTX `.target`.
    pub arch: String,
    /// Picks which file each cross-file call goes to.
    pub seed: u64,
}

/// The largest file count the six-digit name field allows.
pub const MAX_FILES: usize = 1_000_000;
/// The largest function count the three-digit name field allows.
pub const MAX_FUNCS: usize = 1_000;

/// How one function is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// An entry with shared memory and a call into its own file.
    Kernel,
    /// A device function that reads globals and constants and calls into another file.
    Caller,
    /// A device function with no calls and no data references.
    Leaf,
}

impl Shape {
    /// Checks the limits the fixed-width names impose.
    pub fn validate(&self) -> Result<(), String> {
        if self.files == 0 || self.files > MAX_FILES {
            return Err(format!("--files must be in 1..={MAX_FILES}"));
        }
        if self.funcs == 0 || self.funcs > MAX_FUNCS {
            return Err(format!("--funcs must be in 1..={MAX_FUNCS}"));
        }
        let arch_ok = self
            .arch
            .strip_prefix("sm_")
            .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric()));
        if !arch_ok {
            return Err(format!("bad target {:?} (expected sm_XX)", self.arch));
        }
        Ok(())
    }

    /// A directory-friendly label: `100x50-sm_90-s0`.
    pub fn label(&self) -> String {
        format!("{}x{}-{}-s{}", self.files, self.funcs, self.arch, self.seed)
    }

    /// The kind of function `j`.
    pub fn kind(&self, j: usize) -> FunctionKind {
        match j % 10 {
            0 => FunctionKind::Kernel,
            9 => FunctionKind::Leaf,
            _ if j + 1 == self.funcs => FunctionKind::Leaf,
            _ => FunctionKind::Caller,
        }
    }

    /// The file that function `j` of file `i` calls into (function `j + 1` there).
    pub fn callee_file(&self, i: usize, j: usize) -> usize {
        if self.kind(j) == FunctionKind::Kernel || self.files < 2 {
            return i;
        }
        let offset = 1 + (mix(self.seed, j as u64) % (self.files as u64 - 1)) as usize;
        (i + offset) % self.files
    }

    /// The file whose global a caller in file `i` reads besides its own.
    pub fn next_global_file(&self, i: usize) -> usize {
        (i + 1) % self.files
    }

    /// The output sections this workload should produce besides the linker's own.
    pub fn expected_function_sections(&self) -> usize {
        let per_file: usize = (0..self.funcs)
            .map(|j| match self.kind(j) {
                FunctionKind::Kernel if j + 1 < self.funcs => 5,
                FunctionKind::Kernel => 4,
                FunctionKind::Caller => 3,
                FunctionKind::Leaf => 2,
            })
            .sum();
        per_file * self.files
    }

    /// The input file name of file `i`.
    pub fn file_name(i: usize) -> String {
        format!("f{i:06}.cubin")
    }
}

/// SplitMix64 of `seed` and `x`: a fixed, portable mixing function.
fn mix(seed: u64, x: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(x)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn device_fn_name(i: usize, j: usize) -> String {
    format!("huge_fn_{i:06}_{j:03}")
}

fn kernel_name(i: usize, j: usize) -> String {
    format!("huge_kn_{i:06}_{j:03}")
}

fn global_name(i: usize) -> String {
    format!("huge_gv_{i:06}")
}

fn constant_name(i: usize) -> String {
    format!("huge_cv_{i:06}")
}

/// The PTX of file `i`.
pub fn ptx(shape: &Shape, i: usize) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(400 * shape.funcs + 1024);
    let _ = writeln!(
        s,
        "// elfw huge workload {} file {i}\n.version 9.0\n.target {}\n.address_size 64\n",
        shape.label(),
        shape.arch
    );
    let own_global = global_name(i);
    let next_global = global_name(shape.next_global_file(i));
    let own_const = constant_name(i);
    if next_global != own_global {
        let _ = writeln!(s, ".extern .global .align 4 .b32 {next_global}[16];");
    }
    for j in 0..shape.funcs {
        if shape.kind(j) == FunctionKind::Caller {
            let callee = shape.callee_file(i, j);
            if callee != i {
                let _ = writeln!(
                    s,
                    ".extern .func (.param .b32 ret) {}(.param .b32 x);",
                    device_fn_name(callee, j + 1)
                );
            }
        }
    }
    let values = |base: u32| {
        (0..16u32)
            .map(|k| (base + k * 7).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "\n.visible .global .align 4 .b32 {own_global}[16] = {{{}}};",
        values(1)
    );
    let _ = writeln!(
        s,
        ".visible .const .align 4 .b32 {own_const}[16] = {{{}}};\n",
        values(1000)
    );
    // Callees are defined before their callers within a file so no forward declarations are
    // needed: emit from the last function back to the first.
    for j in (0..shape.funcs).rev() {
        match shape.kind(j) {
            FunctionKind::Leaf => {
                let _ = writeln!(
                    s,
                    ".visible .func (.param .b32 ret) {name}(.param .b32 x)\n{{\n\
                     \t.reg .b32 %r<6>;\n\
                     \tld.param.b32 %r1, [x];\n\
                     \tmad.lo.s32 %r2, %r1, {m}, {j};\n\
                     \tshl.b32 %r3, %r2, {sh};\n\
                     \txor.b32 %r4, %r3, %r1;\n\
                     \tst.param.b32 [ret], %r4;\n\
                     \tret;\n}}\n",
                    name = device_fn_name(i, j),
                    m = 2 * j + 1,
                    sh = j % 7 + 1,
                );
            }
            FunctionKind::Caller => {
                let _ = writeln!(
                    s,
                    ".visible .func (.param .b32 ret) {name}(.param .b32 x)\n{{\n\
                     \t.reg .b32 %r<9>;\n\
                     \tld.param.b32 %r1, [x];\n\
                     \tld.global.b32 %r2, [{own_global}+{o1}];\n\
                     \tld.global.b32 %r3, [{next_global}+{o2}];\n\
                     \tld.const.b32 %r4, [{own_const}+{o1}];\n\
                     \tadd.s32 %r5, %r1, %r2;\n\
                     \tmad.lo.s32 %r5, %r5, {m}, %r3;\n\
                     \txor.b32 %r5, %r5, %r4;\n\
                     \t{{\n\
                     \t.param .b32 p;\n\
                     \t.param .b32 r;\n\
                     \tst.param.b32 [p], %r5;\n\
                     \tcall.uni (r), {callee}, (p);\n\
                     \tld.param.b32 %r6, [r];\n\
                     \t}}\n\
                     \tadd.s32 %r7, %r6, %r5;\n\
                     \tst.param.b32 [ret], %r7;\n\
                     \tret;\n}}\n",
                    name = device_fn_name(i, j),
                    o1 = 4 * (j % 16),
                    o2 = 4 * ((j + 1) % 16),
                    m = j + 3,
                    callee = device_fn_name(shape.callee_file(i, j), j + 1),
                );
            }
            FunctionKind::Kernel => {
                let call = if j + 1 < shape.funcs {
                    format!(
                        "\t{{\n\t.param .b32 p;\n\t.param .b32 r;\n\
                         \tst.param.b32 [p], %r7;\n\
                         \tcall.uni (r), {}, (p);\n\
                         \tld.param.b32 %r8, [r];\n\t}}\n",
                        device_fn_name(i, j + 1)
                    )
                } else {
                    "\tmov.u32 %r8, %r7;\n".to_string()
                };
                let _ = writeln!(
                    s,
                    ".visible .entry {name}(.param .u64 out, .param .u32 n)\n{{\n\
                     \t.reg .b32 %r<12>;\n\
                     \t.reg .b64 %rd<10>;\n\
                     \t.shared .align 4 .b32 sh[{words}];\n\
                     \tld.param.u64 %rd1, [out];\n\
                     \tld.param.u32 %r1, [n];\n\
                     \tmov.u32 %r2, %tid.x;\n\
                     \tand.b32 %r3, %r2, {mask};\n\
                     \tmul.wide.u32 %rd2, %r3, 4;\n\
                     \tmov.u64 %rd3, sh;\n\
                     \tadd.s64 %rd4, %rd3, %rd2;\n\
                     \tst.shared.u32 [%rd4], %r2;\n\
                     \tbar.sync 0;\n\
                     \txor.b32 %r4, %r3, 1;\n\
                     \tmul.wide.u32 %rd5, %r4, 4;\n\
                     \tadd.s64 %rd6, %rd3, %rd5;\n\
                     \tld.shared.u32 %r5, [%rd6];\n\
                     \tld.const.b32 %r6, [{own_const}+{o1}];\n\
                     \tadd.s32 %r7, %r5, %r1;\n\
                     \tadd.s32 %r7, %r7, %r6;\n\
                     {call}\
                     \tcvta.to.global.u64 %rd7, %rd1;\n\
                     \tmul.wide.u32 %rd8, %r2, 4;\n\
                     \tadd.s64 %rd9, %rd7, %rd8;\n\
                     \tst.global.u32 [%rd9], %r8;\n\
                     \tret;\n}}\n",
                    name = kernel_name(i, j),
                    words = 64 << ((j / 10) % 4),
                    mask = 63,
                    o1 = 4 * (j % 16),
                );
            }
        }
    }
    s
}

/// A generated (or cached) workload.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The directory holding the cubins.
    pub dir: PathBuf,
    /// What was generated.
    pub shape: Shape,
    /// The cubins in link order.
    pub inputs: Vec<PathBuf>,
    /// How the cubins were made (`ptxas` or `clone`).
    pub method: String,
}

/// Where cubins come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Compile generated PTX with this ptxas.
    Ptxas(PathBuf),
    /// Clone the template cubin in this directory.
    Template(PathBuf),
}

/// The template file name for a shape (depends on M and the target only).
pub fn template_name(shape: &Shape) -> String {
    format!(
        "template-v{GENERATOR_VERSION}-{}-m{}.cubin",
        shape.arch, shape.funcs
    )
}

/// The shape a template is compiled from: file 0 of a two-file workload.
pub fn template_shape(shape: &Shape) -> Shape {
    Shape {
        files: 2,
        funcs: shape.funcs,
        arch: shape.arch.clone(),
        seed: 0,
    }
}

fn manifest_text(shape: &Shape, method: &str) -> String {
    format!(
        "generator {GENERATOR_VERSION}\nfiles {}\nfuncs {}\narch {}\nseed {}\nmethod {method}\n",
        shape.files, shape.funcs, shape.arch, shape.seed
    )
}

/// The workload in `dir` when its manifest says it is `shape` and every cubin is there.
pub fn cached(shape: &Shape, dir: &Path) -> Option<Workload> {
    let text = fs::read_to_string(dir.join(MANIFEST)).ok()?;
    let method = text
        .lines()
        .find_map(|l| l.strip_prefix("method "))?
        .to_string();
    if text != manifest_text(shape, &method) {
        return None;
    }
    let inputs: Vec<PathBuf> = (0..shape.files)
        .map(|i| dir.join(Shape::file_name(i)))
        .collect();
    inputs.iter().all(|p| p.is_file()).then(|| Workload {
        dir: dir.to_path_buf(),
        shape: shape.clone(),
        inputs,
        method,
    })
}

/// Makes the workload in `dir` (reusing it when the manifest matches and `force` is false).
/// `progress` receives one line now and then.
pub fn ensure(
    shape: &Shape,
    dir: &Path,
    source: &Source,
    force: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Workload, String> {
    shape.validate()?;
    if !force {
        if let Some(w) = cached(shape, dir) {
            return Ok(w);
        }
    }
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let _ = fs::remove_file(dir.join(MANIFEST));
    let method = match source {
        Source::Ptxas(ptxas) => {
            compile_all(shape, dir, ptxas, progress)?;
            "ptxas"
        }
        Source::Template(template_dir) => {
            let path = template_dir.join(template_name(shape));
            let template = fs::read(&path).map_err(|e| {
                format!(
                    "{}: {e} (without ptxas, only shapes with a committed template can be made)",
                    path.display()
                )
            })?;
            if shape.files < 2 {
                return Err("cloning needs at least two files".into());
            }
            for i in 0..shape.files {
                let bytes = clone_template(&template, shape, i)?;
                let out = dir.join(Shape::file_name(i));
                fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
            }
            "clone"
        }
    };
    fs::write(dir.join(MANIFEST), manifest_text(shape, method))
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    cached(shape, dir).ok_or_else(|| format!("{}: workload incomplete", dir.display()))
}

/// Compiles the template for `shape` with ptxas and returns its bytes.
pub fn compile_template(shape: &Shape, ptxas: &Path, scratch: &Path) -> Result<Vec<u8>, String> {
    let t = template_shape(shape);
    fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    compile_one(ptxas, &t.arch, &ptx(&t, 0), scratch)
}

/// Runs ptxas on `text` in `scratch` (always as `in.ptx` → `out.cubin`, so nothing ptxas
/// records depends on the file) and returns the cubin.
fn compile_one(ptxas: &Path, arch: &str, text: &str, scratch: &Path) -> Result<Vec<u8>, String> {
    let input = scratch.join("in.ptx");
    let output = scratch.join("out.cubin");
    fs::write(&input, text).map_err(|e| format!("{}: {e}", input.display()))?;
    let out = Command::new(ptxas)
        .arg("-c")
        .arg(format!("-arch={arch}"))
        .arg("in.ptx")
        .arg("-o")
        .arg("out.cubin")
        .current_dir(scratch)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", ptxas.display()))?;
    if !out.status.success() {
        return Err(format!(
            "ptxas failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    fs::read(&output).map_err(|e| format!("{}: {e}", output.display()))
}

fn compile_all(
    shape: &Shape,
    dir: &Path,
    ptxas: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(shape.files);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let (tx, rx) = std::sync::mpsc::channel::<usize>();
    std::thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (next, done, failure) = (&next, &done, &failure);
            scope.spawn(move || {
                let scratch = dir.join(".work").join(format!("w{w}"));
                if let Err(e) = fs::create_dir_all(&scratch) {
                    *failure.lock().unwrap() = Some(format!("{}: {e}", scratch.display()));
                    return;
                }
                loop {
                    if failure.lock().unwrap().is_some() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= shape.files {
                        return;
                    }
                    let result = compile_one(ptxas, &shape.arch, &ptx(shape, i), &scratch)
                        .and_then(|bytes| {
                            let out = dir.join(Shape::file_name(i));
                            fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))
                        });
                    if let Err(e) = result {
                        *failure.lock().unwrap() = Some(format!("file {i}: {e}"));
                        return;
                    }
                    let _ = tx.send(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
        drop(tx);
        let step = (shape.files / 10).max(1);
        for n in rx {
            if n % step == 0 || n == shape.files {
                progress(&format!("compiled {n}/{} files", shape.files));
            }
        }
    });
    let _ = fs::remove_dir_all(dir.join(".work"));
    match failure.into_inner().unwrap() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Makes file `i` of `shape` from the template: every fixed-width name in the string tables is
/// renamed in place. In the template (file 0 of two), own names carry file field 0 and names
/// from the other file carry 1; a `huge_fn_000001_JJJ` is the callee of function `JJJ - 1`.
pub fn clone_template(template: &[u8], shape: &Shape, i: usize) -> Result<Vec<u8>, String> {
    let mut out = template.to_vec();
    for range in string_tables(template)? {
        rename_in(&mut out[range], shape, i)?;
    }
    Ok(out)
}

/// The byte ranges of the SHT_STRTAB sections of a 64-bit little-endian ELF file.
fn string_tables(elf: &[u8]) -> Result<Vec<std::ops::Range<usize>>, String> {
    let u16_at = |o: usize| elf.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        elf.get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    };
    let u64_at = |o: usize| {
        elf.get(o..o + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
    };
    if elf.get(..5) != Some(b"\x7fELF\x02") {
        return Err("template is not a 64-bit ELF file".into());
    }
    let bad = || "template: damaged section headers".to_string();
    let shoff = u64_at(0x28).ok_or_else(bad)? as usize;
    let shentsize = u16_at(0x3a).ok_or_else(bad)? as usize;
    let shnum = u16_at(0x3c).ok_or_else(bad)? as usize;
    let mut ranges = Vec::new();
    for k in 0..shnum {
        let h = shoff + k * shentsize;
        if u32_at(h + 4).ok_or_else(bad)? == 3 {
            let off = u64_at(h + 0x18).ok_or_else(bad)? as usize;
            let size = u64_at(h + 0x20).ok_or_else(bad)? as usize;
            if off.checked_add(size).is_none_or(|end| end > elf.len()) {
                return Err(bad());
            }
            ranges.push(off..off + size);
        }
    }
    Ok(ranges)
}

fn digits(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .all(u8::is_ascii_digit)
        .then(|| bytes.iter().fold(0, |n, d| n * 10 + usize::from(d - b'0')))
}

fn rename_in(table: &mut [u8], shape: &Shape, i: usize) -> Result<(), String> {
    let write6 = |slot: &mut [u8], n: usize| slot.copy_from_slice(format!("{n:06}").as_bytes());
    let mut p = 0;
    while let Some(found) = find(&table[p..], b"huge_") {
        let at = p + found;
        let rest = &table[at + 5..];
        let tag = rest.get(..3);
        let field = at + 8..at + 14;
        match tag {
            Some(b"fn_" | b"kn_") => {
                let file = table.get(field.clone()).and_then(digits);
                let func = table.get(at + 15..at + 18).and_then(digits);
                let (Some(file), Some(func)) = (file, func) else {
                    return Err(format!("template: odd name at string offset {at}"));
                };
                let new_file = match (file, tag) {
                    (0, _) => i,
                    (1, Some(b"fn_")) if func > 0 => shape.callee_file(i, func - 1),
                    _ => return Err(format!("template: unexpected name at string offset {at}")),
                };
                write6(&mut table[field], new_file);
                p = at + 18;
            }
            Some(b"gv_" | b"cv_") => {
                let Some(file) = table.get(field.clone()).and_then(digits) else {
                    return Err(format!("template: odd name at string offset {at}"));
                };
                let new_file = match (file, tag) {
                    (0, _) => i,
                    (1, Some(b"gv_")) => shape.next_global_file(i),
                    _ => return Err(format!("template: unexpected name at string offset {at}")),
                };
                write6(&mut table[field], new_file);
                p = at + 14;
            }
            _ => p = at + 5,
        }
    }
    Ok(())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// ptxas in the elfw toolchain cache, when installed (the same rule as `cargo xtask
/// toolchain`: `$ELFW_TOOLCHAIN_DIR`, else `${XDG_CACHE_HOME:-$HOME/.cache}/elfw/cuda-13.5.37`).
pub fn locate_ptxas() -> Option<PathBuf> {
    locate_tool("ptxas")
}

/// A program in the toolchain cache's `bin` folder, when present.
pub fn locate_tool(name: &str) -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let cache = match var("ELFW_TOOLCHAIN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))?
            .join("elfw")
            .join("cuda-13.5.37"),
    };
    let tool = cache
        .join("root")
        .join("nvidia")
        .join("cu13")
        .join("bin")
        .join(name);
    tool.is_file().then_some(tool)
}

/// Where workloads are cached: `<target dir>/huge/<label>`, with the target directory taken
/// from `$CARGO_TARGET_DIR` or `<workspace>/target`.
pub fn default_dir(workspace: &Path, shape: &Shape) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    target.join("huge").join(shape.label())
}
