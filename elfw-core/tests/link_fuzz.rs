//! A mutation fuzzer over WHOLE LINKS: corpus links (tests/corpus/<case>/, sm_75 … sm_121,
//! `-r`, `--preserve-relocs`, `-g`, libraries) are mutated so that the inputs still parse, then
//! linked in process through [`elfw_core::Linker`], so the damage reaches merge, dead-code
//! elimination, relocation, finalize and emit (SASS and Mercury alike).
//!
//! Every link runs on its own one-thread rayon pool (so the linker's `par_iter`s stay on it)
//! inside `catch_unwind`, with a time limit (`ELFW_LINK_FUZZ_TIMEOUT_SECS`, 10 by default) and
//! an allocation guard (a counting global allocator: a link whose peak live heap exceeds 64 ×
//! its input bytes + 16 MiB fails; one allocation past 4 GiB is refused, which aborts).
//! The `link_fuzz` test is a supervisor: the fuzz streams (2 threads) run in a child process of
//! this test binary, restarted after any crash (abort, stack overflow) or timeout from the
//! iteration after the one that died (kept in a memory-mapped `progress.bin`); that iteration is
//! replayed alone in another child to name the crash. Regressions replay in child processes too.
//!
//! Mutations are aimed with the ELF section table: symbols (`.symtab`, `.nv.merc.symtab`:
//! st_name/st_info/st_shndx/st_value/st_size), relocations (offset, type, symbol, addend),
//! `.nv.info*` records (format, attribute, size, symbol operands), `.nv.callgraph` /
//! `.nv.prototype` words, `.debug_frame` lengths and CIE pointers, capsule headers, bitmaps
//! and instructions, section headers (truncation, link/info, type, alignment), fatbin header and
//! entry fields; and at the link level: duplicated, swapped, dropped and foreign inputs, the
//! wrong `-arch` (with and without forged `e_flags`), `-r`/`--preserve-relocs`/`-g`/`-Werror`
//! mixes and `--kernels-used` patterns. Host objects and fatbins are also linked as the cubins
//! they carry (extracted once), so that ELF-level mutations reach their device code.
//!
//! Runs:
//! - `cargo test -p elfw-core --release --test link_fuzz`: a bounded run (16000 links in
//!   release, 4000 in the test profile: a few seconds) plus the regression replays.
//! - `ELFW_LINK_FUZZ_ITERS=600000 ELFW_LINK_FUZZ_SEED=7 cargo test -p elfw-core --release
//!   --test link_fuzz link_fuzz -- --exact --nocapture`: a long run (2 threads;
//!   `ELFW_LINK_FUZZ_THREADS`, `ELFW_LINK_FUZZ_MAX_OPS` mutations per link, default 4). Every
//!   distinct failure is minimised (mutations, then inputs, dropped while the failure stays) and
//!   saved with a `finding.txt` under `$CARGO_TARGET_TMPDIR/link-fuzz/` (`ELFW_LINK_FUZZ_OUT`),
//!   listed in its `found.tsv`.
//! - `ELFW_LINK_FUZZ_AVOID=sh_addralign,...`: no mutation whose description contains one of
//!   these (to look past a known failure).
//! - `ELFW_LINK_FUZZ_REPLAY=<seed>:<iteration>`: one iteration, its mutations printed, saved and
//!   minimised.
//!
//! Failures found become folders under `tests/link-fuzz-regressions/<name>/` (`args` + the
//! input files) replayed by the named tests at the end of this file. Those not fixed yet are
//! listed in `tests/link-fuzz-regressions/KNOWN.txt` (name, then the failure signature): their
//! replays are skipped and the fuzz loop tolerates their signature, unless
//! `ELFW_LINK_FUZZ_KNOWN=1`, which replays them (and then the replays are expected to fail
//! until fixed). Remove a line from KNOWN.txt once its bug is fixed.

use elfw_core::elf::ElfFile;
use elfw_core::input::fatbin;
use elfw_core::target::Target;
use elfw_core::Linker;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

// ------------------------------------------------------------------------------------------
// Allocation guard: a counting allocator. Only threads that run a link under `guarded` are
// tracked (thread-local counters: the link's rayon pool has that one thread).

struct Counting;

thread_local! {
    static TRACK: Cell<bool> = const { Cell::new(false) };
    static BUSY: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
    static SOFT: Cell<i64> = const { Cell::new(i64::MAX) };
    static HARD: Cell<i64> = const { Cell::new(i64::MAX) };
    static OVER: Cell<bool> = const { Cell::new(false) };
    static TOKEN: Cell<u64> = const { Cell::new(0) };
    static TAG: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// Where the link first went over its soft allocation limit (token of the link, backtrace).
static OVER_AT: Mutex<Vec<(u64, std::backtrace::Backtrace)>> = Mutex::new(Vec::new());

/// Writes `parts` to stderr without allocating.
fn raw_message(parts: &[&[u8]], n: u64) {
    let mut buf = [0u8; 24];
    let mut i = buf.len();
    let mut v = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut e = std::io::stderr().lock();
    for p in parts {
        let _ = e.write_all(p);
    }
    let _ = e.write_all(&buf[i..]);
    let _ = e.write_all(b"\n");
}

impl Counting {
    #[inline]
    fn grow(&self, size: usize) -> bool {
        let track = TRACK.try_with(|t| t.get()).unwrap_or(false);
        if !track || BUSY.with(|b| b.get()) {
            return true;
        }
        let live = LIVE.with(|l| {
            let v = l.get() + size as i64;
            l.set(v);
            v
        });
        if live > PEAK.with(|p| p.get()) {
            PEAK.with(|p| p.set(live));
            if live > SOFT.with(|s| s.get()) && !OVER.with(|o| o.get()) {
                OVER.with(|o| o.set(true));
                BUSY.with(|b| b.set(true));
                let bt = std::backtrace::Backtrace::force_capture();
                let token = TOKEN.with(|t| t.get());
                if let Ok(mut v) = OVER_AT.lock() {
                    v.push((token, bt));
                }
                BUSY.with(|b| b.set(false));
            }
            if live > HARD.with(|h| h.get()) {
                let (seed, iter) = TAG.with(|t| t.get());
                raw_message(
                    &[b"link_fuzz: a link went past the hard allocation cap (4 GiB live), request bytes: "],
                    size as u64,
                );
                raw_message(&[b"link_fuzz: aborting in stream seed "], seed);
                raw_message(&[b"link_fuzz: ... iteration "], iter);
                return false;
            }
        }
        true
    }
    #[inline]
    fn shrink(&self, size: usize) {
        if TRACK.try_with(|t| t.get()).unwrap_or(false) && !BUSY.with(|b| b.get()) {
            LIVE.with(|l| l.set(l.get() - size as i64));
        }
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.grow(layout.size()) {
            self.shrink(layout.size());
            return std::ptr::null_mut();
        }
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !self.grow(layout.size()) {
            self.shrink(layout.size());
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.shrink(layout.size());
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            if !self.grow(new_size - layout.size()) {
                self.shrink(new_size - layout.size());
                return std::ptr::null_mut();
            }
        } else {
            self.shrink(layout.size() - new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// ------------------------------------------------------------------------------------------
// Panic capture: panics on tracked threads are recorded (message, location, backtrace) instead
// of printed.

struct PanicRecord {
    message: String,
    location: String,
    backtrace: std::backtrace::Backtrace,
}

static PANICS: Mutex<Vec<(u64, PanicRecord)>> = Mutex::new(Vec::new());

fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !TRACK.with(|t| t.get()) {
                return default(info);
            }
            // The hook's own allocations are not the link's.
            BUSY.with(|b| b.set(true));
            let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "<non-string panic payload>".to_string()
            };
            let location = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let rec = PanicRecord {
                message,
                location,
                backtrace: std::backtrace::Backtrace::force_capture(),
            };
            let token = TOKEN.with(|t| t.get());
            PANICS.lock().unwrap().push((token, rec));
            BUSY.with(|b| b.set(false));
        }));
    });
}

// ------------------------------------------------------------------------------------------
// Link cases.

/// One link: options and inputs (name, bytes), in link order.
#[derive(Clone, Debug, Default)]
struct Case {
    origin: String,
    target: String,
    relocatable: bool,
    preserve_relocs: bool,
    debug: bool,
    werror: bool,
    tools_patch: bool,
    suppress_stack: bool,
    kernels_used: Vec<String>,
    variables_used: Vec<String>,
    inputs: Vec<(String, Vec<u8>)>,
    /// The fuzz stream seed and iteration that made it (for messages after an abort).
    tag: (u64, u64),
}

impl Case {
    fn linker(&self) -> Option<Linker> {
        let target = Target::parse(&self.target)?;
        let mut l = Linker::new(target)
            .relocatable(self.relocatable)
            .preserve_relocs(self.preserve_relocs)
            .debug(self.debug)
            .warnings_as_errors(self.werror)
            .tools_patch(self.tools_patch)
            .suppress_stack_size_warning(self.suppress_stack)
            .kernels_used(self.kernels_used.iter().cloned())
            .variables_used(self.variables_used.iter().cloned());
        for (name, data) in &self.inputs {
            l = l.input_bytes(name.clone(), data.clone());
        }
        Some(l)
    }
    fn input_bytes(&self) -> usize {
        self.inputs.iter().map(|(_, d)| d.len()).sum()
    }
    /// The options as `args` lines (nvlink spelling), inputs given by `files`.
    fn args_text(&self, files: &[String]) -> String {
        let mut s = format!("-arch={}\n", self.target);
        if self.relocatable {
            s += "-r\n";
        }
        if self.preserve_relocs {
            s += "--preserve-relocs\n";
        }
        if self.debug {
            s += "-g\n";
        }
        if self.werror {
            s += "-Werror\n";
        }
        if self.tools_patch {
            s += "-astoolspatch\n";
        }
        if self.suppress_stack {
            s += "-suppress-stack-size-warning\n";
        }
        for k in &self.kernels_used {
            let _ = writeln!(s, "--kernels-used={k}");
        }
        for v in &self.variables_used {
            let _ = writeln!(s, "--variables-used={v}");
        }
        for f in files {
            let _ = writeln!(s, "{f}");
        }
        s
    }
    /// Writes `args` and the inputs into `dir`.
    fn save(&self, dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        let mut files = Vec::new();
        for (i, (name, data)) in self.inputs.iter().enumerate() {
            let base = name.rsplit(['/', ':']).next().unwrap_or(name);
            let f = format!("{i:02}_{base}");
            std::fs::write(dir.join(&f), data).unwrap();
            files.push(f);
        }
        std::fs::write(dir.join("args"), self.args_text(&files)).unwrap();
    }
}

/// Parses nvlink arguments (one or more per line) for a case in `dir`. `-L`/`-l` libraries are
/// resolved into byte inputs at the end; PTX inputs are dropped (no ptxas here).
fn parse_args(dir: &Path, text: &str, origin: &str) -> Option<Case> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    let mut c = Case {
        origin: origin.to_string(),
        ..Case::default()
    };
    let mut lib_dirs = Vec::new();
    let mut libs = Vec::new();
    let mut files = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        let mut value = |flag: &str| -> Option<String> {
            if let Some(v) = t.strip_prefix(flag).and_then(|v| v.strip_prefix('=')) {
                Some(v.to_string())
            } else if t == flag {
                i += 1;
                toks.get(i).map(|s| s.to_string())
            } else {
                None
            }
        };
        if let Some(v) = value("-arch") {
            c.target = v;
        } else if let Some(v) = value("--kernels-used").or_else(|| value("-kernels-used")) {
            c.kernels_used.extend(v.split(',').map(str::to_string));
        } else if let Some(v) = value("--variables-used").or_else(|| value("-variables-used")) {
            c.variables_used.extend(v.split(',').map(str::to_string));
        } else if t == "-o" {
            i += 1;
        } else if t == "-r" {
            c.relocatable = true;
        } else if t == "--preserve-relocs" || t == "-preserve-relocs" {
            c.preserve_relocs = true;
        } else if t == "-g" {
            c.debug = true;
        } else if t == "-Werror" {
            c.werror = true;
        } else if t == "-astoolspatch" || t == "--link-as-tools-patch" {
            c.tools_patch = true;
        } else if t == "-suppress-stack-size-warning" || t == "--suppress-stack-size-warning" {
            c.suppress_stack = true;
        } else if let Some(d) = t.strip_prefix("-L") {
            lib_dirs.push(d.to_string());
        } else if let Some(l) = t.strip_prefix("-l") {
            libs.push(l.to_string());
        } else if t.starts_with('-') {
            // -v, -m64, -cpu-arch=..., --dump-callgraph: nothing for the image.
        } else {
            files.push(t.to_string());
        }
        i += 1;
    }
    for f in files {
        if f.ends_with(".ptx") {
            continue;
        }
        let data = std::fs::read(dir.join(&f)).ok()?;
        let base = f.rsplit('/').next().unwrap().to_string();
        c.inputs.push((base, data));
    }
    for l in libs {
        let file = format!("lib{l}.a");
        if let Some(data) = lib_dirs
            .iter()
            .find_map(|d| std::fs::read(dir.join(d).join(&file)).ok())
        {
            c.inputs.push((file, data));
        }
    }
    Target::parse(&c.target)?;
    (!c.inputs.is_empty()).then_some(c)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn regressions_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/link-fuzz-regressions")
}

/// The corpus cases, plus for each case with host objects, fatbins or archives of its own a
/// twin where those are replaced by the device cubins they carry (system libraries kept).
fn corpus_cases() -> Vec<Case> {
    let root = repo().join("tests/corpus");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("args").is_file())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(text) = std::fs::read_to_string(d.join("args")) else {
            continue;
        };
        let Some(case) = parse_args(&d, &text, &name) else {
            continue;
        };
        if let Some(x) = extracted(&case) {
            out.push(x);
        }
        out.push(case);
    }
    out
}

fn is_device_elf(d: &[u8]) -> bool {
    d.len() >= 64 && &d[..4] == b"\x7fELF" && d[18] == 190 && d[19] == 0
}

fn extracted(case: &Case) -> Option<Case> {
    if case
        .inputs
        .iter()
        .all(|(n, d)| is_device_elf(d) || n.contains("cudadevrt"))
    {
        return None;
    }
    let linked = case.linker()?.keep_input_cubins(true).link();
    let mut x = case.clone();
    x.origin = format!("{}+extracted", case.origin);
    x.inputs.clear();
    for (name, data) in &case.inputs {
        if is_device_elf(data) || name.contains("cudadevrt") {
            x.inputs.push((name.clone(), data.clone()));
            continue;
        }
        let prefix = format!("{name}:");
        let stem = name.rsplit_once('.').map_or(name.as_str(), |(s, _)| s);
        for (k, c) in linked
            .cubins
            .iter()
            .filter(|c| c.name == *name || c.name.starts_with(&prefix))
            .enumerate()
        {
            x.inputs.push((format!("{stem}.{k}.cubin"), c.data.clone()));
        }
    }
    (!x.inputs.is_empty()).then_some(x)
}

/// A fatbin holding `cubin` uncompressed as its only entry, its header copied from a corpus
/// fatbin's stored cubin entry.
fn wrap_in_fatbin(cubin: &[u8], template: &[u8]) -> Vec<u8> {
    let flags = if cubin.len() >= 52 {
        u32::from_le_bytes(cubin[48..52].try_into().unwrap())
    } else {
        0
    };
    let sm = (flags >> 8) & 0xffff;
    let mut h = template.to_vec();
    h.resize(64, 0);
    let padded = cubin.len().div_ceil(8) * 8;
    h[4..8].copy_from_slice(&64u32.to_le_bytes());
    h[8..16].copy_from_slice(&(padded as u64).to_le_bytes());
    h[16..20].copy_from_slice(&0u32.to_le_bytes());
    h[20..24].copy_from_slice(&0u32.to_le_bytes());
    h[28..32].copy_from_slice(&sm.to_le_bytes());
    let f = u64::from_le_bytes(h[40..48].try_into().unwrap())
        & !(fatbin::FLAG_LZ4 | fatbin::FLAG_ZSTD | 0x100_0000);
    h[40..48].copy_from_slice(&f.to_le_bytes());
    h[56..64].copy_from_slice(&(cubin.len() as u64).to_le_bytes());
    let mut out = Vec::with_capacity(16 + 64 + padded);
    out.extend_from_slice(&fatbin::FATBIN_MAGIC.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(&((64 + padded) as u64).to_le_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(cubin);
    out.resize(16 + 64 + padded, 0);
    out
}

fn fatbin_template() -> Vec<u8> {
    let data = std::fs::read(repo().join("tests/corpus/sm90_fatbinary_tool/main.fatbin"))
        .unwrap_or_default();
    if let Ok(fb) = fatbin::Fatbin::parse(&data) {
        for e in &fb.entries {
            if e.kind == fatbin::KIND_CUBIN && e.flags & (fatbin::FLAG_LZ4 | fatbin::FLAG_ZSTD) == 0
            {
                let o = e.offset as usize;
                return data[o..o + 64].to_vec();
            }
        }
    }
    // A plausible header: kind 2, version 0x0101, 64-bit Linux.
    let mut h = vec![0u8; 64];
    h[0..2].copy_from_slice(&2u16.to_le_bytes());
    h[2..4].copy_from_slice(&0x0101u16.to_le_bytes());
    h[24..28].copy_from_slice(&[8, 0, 1, 0]);
    h[40..48].copy_from_slice(&0x11u64.to_le_bytes());
    h
}

// ------------------------------------------------------------------------------------------
// Mutations. Each is recorded as an `Op` (with a description) applied to the case, so that a
// failure can be minimised by dropping ops and reported as a list of mutations.

#[derive(Clone, Debug)]
enum Op {
    Write {
        input: usize,
        at: usize,
        bytes: Vec<u8>,
        what: String,
    },
    Truncate {
        input: usize,
        len: usize,
        what: String,
    },
    Target(String),
    Relocatable(bool),
    PreserveRelocs(bool),
    Debug(bool),
    Werror(bool),
    ToolsPatch(bool),
    KernelsUsed(String),
    VariablesUsed(String),
    Dup {
        from: usize,
        to: usize,
    },
    Swap(usize, usize),
    Remove(usize),
    Add {
        at: usize,
        name: String,
        data: Arc<Vec<u8>>,
        what: String,
    },
    Replace {
        input: usize,
        name: String,
        data: Arc<Vec<u8>>,
        what: String,
    },
}

impl Op {
    fn apply(&self, c: &mut Case) -> bool {
        let n = c.inputs.len();
        match self {
            Op::Write {
                input, at, bytes, ..
            } => match c.inputs.get_mut(*input) {
                Some((_, d)) if at + bytes.len() <= d.len() => {
                    d[*at..at + bytes.len()].copy_from_slice(bytes);
                    true
                }
                _ => false,
            },
            Op::Truncate { input, len, .. } => match c.inputs.get_mut(*input) {
                Some((_, d)) if *len <= d.len() => {
                    d.truncate(*len);
                    true
                }
                _ => false,
            },
            Op::Target(t) => {
                c.target = t.clone();
                true
            }
            Op::Relocatable(b) => {
                c.relocatable = *b;
                true
            }
            Op::PreserveRelocs(b) => {
                c.preserve_relocs = *b;
                true
            }
            Op::Debug(b) => {
                c.debug = *b;
                true
            }
            Op::Werror(b) => {
                c.werror = *b;
                true
            }
            Op::ToolsPatch(b) => {
                c.tools_patch = *b;
                true
            }
            Op::KernelsUsed(k) => {
                c.kernels_used.push(k.clone());
                true
            }
            Op::VariablesUsed(v) => {
                c.variables_used.push(v.clone());
                true
            }
            Op::Dup { from, to } if *from < n && *to <= n => {
                let x = c.inputs[*from].clone();
                c.inputs.insert(*to, x);
                true
            }
            Op::Swap(a, b) if *a < n && *b < n => {
                c.inputs.swap(*a, *b);
                true
            }
            Op::Remove(i) if *i < n && n > 1 => {
                c.inputs.remove(*i);
                true
            }
            Op::Add { at, name, data, .. } if *at <= n => {
                c.inputs.insert(*at, (name.clone(), data.to_vec()));
                true
            }
            Op::Replace {
                input, name, data, ..
            } if *input < n => {
                c.inputs[*input] = (name.clone(), data.to_vec());
                true
            }
            _ => false,
        }
    }
    fn describe(&self, c: &Case) -> String {
        let name = |i: &usize| {
            c.inputs
                .get(*i)
                .map_or_else(|| format!("#{i}"), |(n, _)| format!("#{i} {n}"))
        };
        match self {
            Op::Write {
                input,
                at,
                bytes,
                what,
            } => format!(
                "{}: {what} (write {} bytes at {at:#x})",
                name(input),
                bytes.len()
            ),
            Op::Truncate { input, what, .. } => format!("{}: {what}", name(input)),
            Op::Target(t) => format!("-arch={t}"),
            Op::Relocatable(b) => format!("-r {}", if *b { "on" } else { "off" }),
            Op::PreserveRelocs(b) => {
                format!("--preserve-relocs {}", if *b { "on" } else { "off" })
            }
            Op::Debug(b) => format!("-g {}", if *b { "on" } else { "off" }),
            Op::Werror(b) => format!("-Werror {}", if *b { "on" } else { "off" }),
            Op::ToolsPatch(b) => format!("-astoolspatch {}", if *b { "on" } else { "off" }),
            Op::KernelsUsed(k) => format!("--kernels-used={k}"),
            Op::VariablesUsed(v) => format!("--variables-used={v}"),
            Op::Dup { from, to } => format!("duplicate input {} at position {to}", name(from)),
            Op::Swap(a, b) => format!("swap inputs {} and {}", name(a), name(b)),
            Op::Remove(i) => format!("drop input {}", name(i)),
            Op::Add { at, what, .. } => format!("add {what} at position {at}"),
            Op::Replace { input, what, .. } => format!("{}: {what}", name(input)),
        }
    }
}

struct Rng(u64);
impl Rng {
    fn new(seed: u64, iter: u64) -> Rng {
        // splitmix64 of the pair, so each iteration can be replayed alone.
        let mut z = seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(iter.wrapping_mul(0xbf58_476d_1ce4_e5b9))
            .wrapping_add(0x94d0_49bb_1331_11eb);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

const INTERESTING: [u64; 26] = [
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    0x10,
    0x18,
    0x40,
    0x7f,
    0x80,
    0xff,
    0x100,
    0xfff,
    0x1000,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_fffe,
    0xffff_ffff,
    0x1_0000_0000,
    0x8000_0000_0000_0000,
];

/// A value for a field: interesting constants, values near the context (sizes, counts,
/// indices of the file), the field's old value nudged, or random bits.
fn value(rng: &mut Rng, old: u64, ctx: &[u64], bits: u32) -> u64 {
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let v = match rng.below(10) {
        0..=2 => *rng.pick(&INTERESTING),
        3..=5 if !ctx.is_empty() => {
            let base = *rng.pick(ctx);
            base.wrapping_add(rng.below(5) as u64).wrapping_sub(2)
        }
        6 | 7 => old.wrapping_add(rng.below(9) as u64).wrapping_sub(4),
        8 => u64::MAX - rng.below(16) as u64,
        _ => rng.next() >> rng.below(64),
    };
    v & mask
}

/// The kind of a section, by type and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Symtab,
    Rela,
    Rel,
    Info,
    CallGraph,
    Prototype,
    DebugFrame,
    Capsule,
    Text,
    Other,
}

fn kind_of(sh_type: u32, name: &[u8]) -> Kind {
    match sh_type {
        2 | 0x7000_0085 => Kind::Symtab,
        4 | 0x7000_0082 | 0x7000_0088 => Kind::Rela,
        9 => Kind::Rel,
        0x7000_0000 | 0x7000_0083 => Kind::Info,
        0x7000_0001 | 0x7000_008a => Kind::CallGraph,
        0x7000_0002 | 0x7000_008b => Kind::Prototype,
        0x7000_0016 => Kind::Capsule,
        _ if name.ends_with(b"debug_frame") => Kind::DebugFrame,
        _ if name.starts_with(b".nv.info") => Kind::Info,
        _ if name.starts_with(b".text.") => Kind::Text,
        _ => Kind::Other,
    }
}

fn weight(k: Kind) -> usize {
    match k {
        Kind::Symtab | Kind::Rela | Kind::Info | Kind::Capsule => 6,
        Kind::CallGraph | Kind::Prototype | Kind::DebugFrame | Kind::Rel => 4,
        Kind::Text => 1,
        Kind::Other => 2,
    }
}

struct Sec {
    name: String,
    kind: Kind,
    offset: usize,
    size: usize,
    has_data: bool,
}

/// What the mutators need to know about a device ELF.
struct ElfView {
    shoff: usize,
    shnum: usize,
    secs: Vec<Sec>,
    /// Symbol counts of `.symtab` and `.nv.merc.symtab`, function symbol indices, st_name
    /// values, section sizes: context for values.
    ctx: Vec<u64>,
    names: Vec<u64>,
    func_syms: Vec<u64>,
    symbol_names: Vec<String>,
}

fn view(data: &[u8]) -> Option<ElfView> {
    let elf = ElfFile::parse(data).ok()?;
    let h = elf.header();
    let mut secs = Vec::new();
    let mut ctx = vec![h.shnum as u64];
    let mut names = Vec::new();
    let mut func_syms = Vec::new();
    let mut symbol_names = Vec::new();
    for (i, s) in elf.sections().iter().enumerate() {
        let name = elf.section_name(i as u32).unwrap_or(b"");
        let kind = kind_of(s.sh_type, name);
        let in_file = s
            .offset
            .checked_add(s.size)
            .is_some_and(|e| e <= data.len() as u64);
        if kind == Kind::Symtab && in_file && s.entsize == 24 {
            let count = s.size / 24;
            ctx.push(count);
            ctx.push(s.size);
            for k in 0..count as usize {
                let o = s.offset as usize + k * 24;
                let st_name = u32::from_le_bytes(data[o..o + 4].try_into().unwrap());
                names.push(st_name as u64);
                if data[o + 4] & 0xf == 2 {
                    func_syms.push(k as u64);
                }
            }
        }
        if s.sh_type != 0 {
            ctx.push(s.size);
        }
        secs.push(Sec {
            name: String::from_utf8_lossy(name).into_owned(),
            kind,
            offset: s.offset as usize,
            size: s.size as usize,
            has_data: s.has_file_data() && in_file,
        });
    }
    for s in elf.symbols().flatten() {
        if !s.name.is_empty() && symbol_names.len() < 64 {
            symbol_names.push(s.name_lossy().into_owned());
        }
    }
    ctx.extend(func_syms.iter().copied());
    Some(ElfView {
        shoff: h.shoff as usize,
        shnum: h.shnum as usize,
        secs,
        ctx,
        names,
        func_syms,
        symbol_names,
    })
}

fn write_op(input: usize, at: usize, v: u64, width: usize, what: String) -> Op {
    Op::Write {
        input,
        at,
        bytes: v.to_le_bytes()[..width].to_vec(),
        what: format!("{what} := {v:#x}"),
    }
}

fn read(d: &[u8], at: usize, width: usize) -> u64 {
    let mut b = [0u8; 8];
    if at + width <= d.len() {
        b[..width].copy_from_slice(&d[at..at + width]);
    }
    u64::from_le_bytes(b)
}

/// What a file offset of a device ELF holds: a header field, or a place in a section.
fn locate(v: &ElfView, at: usize) -> String {
    const SH: [(usize, &str); 10] = [
        (0, "sh_name"),
        (4, "sh_type"),
        (8, "sh_flags"),
        (16, "sh_addr"),
        (24, "sh_offset"),
        (32, "sh_size"),
        (40, "sh_link"),
        (44, "sh_info"),
        (48, "sh_addralign"),
        (56, "sh_entsize"),
    ];
    if at < 64 {
        return format!("ELF header byte {at}");
    }
    if at >= v.shoff && at < v.shoff + v.shnum * 64 {
        let k = (at - v.shoff) / 64;
        let f = (at - v.shoff) % 64;
        let field = SH
            .iter()
            .rev()
            .find(|(o, _)| *o <= f)
            .map_or("?", |(_, n)| n);
        let name = v.secs.get(k).map_or("?", |s| s.name.as_str());
        return format!("§[{k}] {name} {field}");
    }
    const SYM: [(usize, &str); 6] = [
        (0, "st_name"),
        (4, "st_info"),
        (5, "st_other"),
        (6, "st_shndx"),
        (8, "st_value"),
        (16, "st_size"),
    ];
    const RELA: [(usize, &str); 4] = [
        (0, "r_offset"),
        (8, "r_type"),
        (12, "r_sym"),
        (16, "r_addend"),
    ];
    let Some(s) = v
        .secs
        .iter()
        .find(|s| s.has_data && at >= s.offset && at < s.offset + s.size)
    else {
        return "between sections".into();
    };
    let r = at - s.offset;
    let field = |table: &[(usize, &'static str)], size: usize| {
        let f = table
            .iter()
            .rev()
            .find(|(o, _)| *o <= r % size)
            .map_or("?", |(_, n)| *n);
        format!("§{}[{}].{f}", s.name, r / size)
    };
    match s.kind {
        Kind::Symtab => field(&SYM, 24),
        Kind::Rela => field(&RELA, 24),
        Kind::Rel => field(&RELA[..3], 16),
        _ => format!("in §{} +{r:#x}", s.name),
    }
}

/// One mutation inside a device ELF (input `i`).
fn elf_op(rng: &mut Rng, i: usize, d: &[u8], v: &ElfView) -> Option<Op> {
    let roll = rng.below(100);
    if roll < 72 {
        // Inside a section's data, aimed by kind.
        let cands: Vec<&Sec> = v.secs.iter().filter(|s| s.has_data && s.size > 0).collect();
        let total: usize = cands.iter().map(|s| weight(s.kind)).sum();
        let mut r = rng.below(total);
        let s = cands.iter().find(|s| {
            let w = weight(s.kind);
            if r < w {
                true
            } else {
                r -= w;
                false
            }
        })?;
        return section_op(rng, i, d, v, s);
    }
    if roll < 90 {
        // A section header field.
        let idx = rng.below(v.shnum.max(1));
        let s = v.secs.get(idx)?;
        let h = v.shoff + idx * 64;
        let (off, width, field, ctx): (usize, usize, &str, Vec<u64>) = match rng.below(9) {
            0 | 1 => {
                // Truncate: a smaller size, often a multiple of the entry size.
                let new = if s.size > 0 {
                    let k = rng.below(s.size);
                    if rng.chance(50) {
                        k - k % 24
                    } else {
                        k
                    }
                } else {
                    0
                };
                return Some(write_op(
                    i,
                    h + 32,
                    new as u64,
                    8,
                    format!("§[{idx}] {} sh_size (was {:#x}, truncated)", s.name, s.size),
                ));
            }
            2 => (
                32,
                8,
                "sh_size",
                vec![d.len().saturating_sub(s.offset) as u64],
            ),
            3 => (40, 4, "sh_link", v.ctx.clone()),
            4 => (44, 4, "sh_info", v.ctx.clone()),
            5 => (
                4,
                4,
                "sh_type",
                vec![
                    1,
                    2,
                    4,
                    8,
                    9,
                    0x7000_0000,
                    0x7000_0001,
                    0x7000_0002,
                    0x7000_0016,
                    0x7000_0082,
                    0x7000_0083,
                    0x7000_0085,
                ],
            ),
            6 => (48, 8, "sh_addralign", vec![0, 1, 3, 128, 1 << 31, 1 << 63]),
            7 => (56, 8, "sh_entsize", vec![0, 1, 8, 16, 24, 25]),
            _ => (
                8,
                8,
                "sh_flags",
                vec![0x40, 0x2, 0x4, 0x6, 0x10_0000, 0x1000_0000],
            ),
        };
        if h + off + width > d.len() {
            return None;
        }
        let old = read(d, h + off, width);
        let val = if !ctx.is_empty() && rng.chance(60) {
            *rng.pick(&ctx)
        } else {
            value(rng, old, &v.ctx, (width * 8) as u32)
        };
        return Some(write_op(
            i,
            h + off,
            val,
            width,
            format!("§[{idx}] {} {field}", s.name),
        ));
    }
    if roll < 96 {
        // Raw damage anywhere in the file.
        let at = rng.below(d.len());
        return Some(match rng.below(3) {
            0 => Op::Write {
                input: i,
                at,
                bytes: vec![d[at] ^ (1 << rng.below(8))],
                what: format!("bit flip at file offset {at:#x} ({})", locate(v, at)),
            },
            1 => Op::Write {
                input: i,
                at,
                bytes: vec![rng.next() as u8],
                what: format!("random byte at file offset {at:#x} ({})", locate(v, at)),
            },
            _ => {
                let at = at & !3;
                if at + 4 > d.len() {
                    return None;
                }
                let val = value(rng, read(d, at, 4), &v.ctx, 32);
                write_op(
                    i,
                    at,
                    val,
                    4,
                    format!("u32 at file offset {at:#x} ({})", locate(v, at)),
                )
            }
        });
    }
    // The file header: e_flags (another SM), e_shstrndx, or the file truncated.
    Some(match rng.below(3) {
        0 => {
            let sm = *rng.pick(&[75u64, 80, 86, 89, 90, 100, 103, 110, 120, 121, 0, 0xffff]);
            let old = read(d, 48, 4);
            let new = (old & 0xff00_00ff) | (sm << 8);
            write_op(i, 48, new, 4, format!("e_flags SM forged to sm_{sm}"))
        }
        1 => write_op(
            i,
            62,
            value(rng, read(d, 62, 2), &v.ctx, 16),
            2,
            "e_shstrndx".into(),
        ),
        _ => {
            let len = rng.below(d.len());
            Op::Truncate {
                input: i,
                len,
                what: format!("file truncated to {len:#x} of {:#x} bytes", d.len()),
            }
        }
    })
}

/// Offsets of `.nv.info` records in `data`: (offset, format, attribute, payload size).
fn info_records(data: &[u8]) -> Vec<(usize, u8, u8, usize)> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 4 <= data.len() {
        let (f, a) = (data[p], data[p + 1]);
        let size = if f == 4 {
            u16::from_le_bytes([data[p + 2], data[p + 3]]) as usize
        } else {
            0
        };
        out.push((p, f, a, size));
        p += 4 + size;
    }
    out
}

/// Offsets of `.debug_frame` entries: (offset, length field width).
fn frame_entries(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut p = 0;
    while p + 4 <= data.len() {
        let len = u32::from_le_bytes(data[p..p + 4].try_into().unwrap()) as u64;
        if len == 0xffff_ffff {
            if p + 12 > data.len() {
                break;
            }
            let l = u64::from_le_bytes(data[p + 4..p + 12].try_into().unwrap());
            out.push((p, 12));
            p = match (p as u64 + 12).checked_add(l) {
                Some(x) if x <= data.len() as u64 => x as usize,
                _ => break,
            };
        } else {
            out.push((p, 4));
            p += 4 + len as usize;
        }
    }
    out
}

fn section_op(rng: &mut Rng, i: usize, d: &[u8], v: &ElfView, s: &Sec) -> Option<Op> {
    let base = s.offset;
    let sd = &d[base..base + s.size];
    let sec = format!("§{}", s.name);
    let gen = |rng: &mut Rng, off: usize, width: usize, what: String, ctx: &[u64]| -> Option<Op> {
        if off + width > sd.len() {
            return None;
        }
        let val = value(rng, read(sd, off, width), ctx, (width * 8) as u32);
        Some(write_op(i, base + off, val, width, what))
    };
    match s.kind {
        Kind::Symtab if sd.len() >= 48 => {
            let n = sd.len() / 24;
            let e = 1 + rng.below(n - 1);
            let o = e * 24;
            let sz = |rng: &mut Rng| -> Vec<u64> {
                let mut c = v.ctx.clone();
                c.push(read(sd, o + 8, 8));
                c.push(read(sd, o + 16, 8));
                c.push(rng.next() & 0xffff);
                c
            };
            match rng.below(9) {
                0 if !v.names.is_empty() => {
                    // Another symbol's name: a clash.
                    let nm = *rng.pick(&v.names);
                    Some(write_op(
                        i,
                        base + o,
                        nm,
                        4,
                        format!("{sec}[{e}].st_name (another symbol's)"),
                    ))
                }
                1 => gen(rng, o, 4, format!("{sec}[{e}].st_name"), &v.ctx),
                2 => {
                    let bind = *rng.pick(&[0u64, 1, 2, 3, 10, 13, 15]);
                    let ty = *rng.pick(&[0u64, 1, 2, 3, 4, 5, 6, 10, 13, 15]);
                    let val = if rng.chance(70) {
                        bind << 4 | ty
                    } else {
                        rng.next() & 0xff
                    };
                    Some(write_op(
                        i,
                        base + o + 4,
                        val,
                        1,
                        format!("{sec}[{e}].st_info"),
                    ))
                }
                3 => {
                    let val = *rng.pick(&[0u64, 0x10, 0x20, 0x80, 1, 2, 3, 0xff]);
                    Some(write_op(
                        i,
                        base + o + 5,
                        val,
                        1,
                        format!("{sec}[{e}].st_other"),
                    ))
                }
                4 | 5 => {
                    let mut c = vec![
                        0u64,
                        1,
                        v.shnum as u64 - 1,
                        v.shnum as u64,
                        v.shnum as u64 + 1,
                        0xff00,
                        0xfff1,
                        0xfff2,
                        0xffff,
                    ];
                    c.push(rng.below(v.shnum) as u64);
                    c.push(rng.below(v.shnum) as u64);
                    let val = if rng.chance(80) {
                        *rng.pick(&c)
                    } else {
                        rng.next() & 0xffff
                    };
                    Some(write_op(
                        i,
                        base + o + 6,
                        val,
                        2,
                        format!("{sec}[{e}].st_shndx"),
                    ))
                }
                6 => {
                    let c = sz(rng);
                    gen(rng, o + 8, 8, format!("{sec}[{e}].st_value"), &c)
                }
                7 => {
                    let c = sz(rng);
                    gen(rng, o + 16, 8, format!("{sec}[{e}].st_size"), &c)
                }
                _ => {
                    // Copy another entry over this one (same name, section, value...).
                    let f = 1 + rng.below(n - 1);
                    Some(Op::Write {
                        input: i,
                        at: base + o,
                        bytes: sd[f * 24..f * 24 + 24].to_vec(),
                        what: format!("{sec}[{e}] := copy of entry {f}"),
                    })
                }
            }
        }
        Kind::Rela | Kind::Rel if sd.len() >= 16 => {
            let es = if s.kind == Kind::Rela { 24 } else { 16 };
            let n = (sd.len() / es).max(1);
            let e = rng.below(n);
            let o = e * es;
            match rng.below(8) {
                0 | 1 => {
                    let mut c = v.ctx.clone();
                    c.push(read(sd, o, 8));
                    gen(rng, o, 8, format!("{sec}[{e}].r_offset"), &c)
                }
                2 | 3 => {
                    let val = if rng.chance(70) {
                        rng.below(160) as u64
                    } else if o + es + 12 <= sd.len() || o >= es {
                        let f = rng.below(n);
                        read(sd, f * es + 8, 4)
                    } else {
                        rng.next() & 0xffff_ffff
                    };
                    if o + 12 > sd.len() {
                        return None;
                    }
                    Some(write_op(
                        i,
                        base + o + 8,
                        val,
                        4,
                        format!("{sec}[{e}].r_type"),
                    ))
                }
                4 | 5 => {
                    let mut c = v.ctx.clone();
                    c.extend(v.func_syms.iter().copied());
                    gen(rng, o + 12, 4, format!("{sec}[{e}].r_sym"), &c)
                }
                6 if es == 24 => gen(rng, o + 16, 8, format!("{sec}[{e}].r_addend"), &v.ctx),
                _ => {
                    let f = rng.below(n);
                    if f * es + es > sd.len() || o + es > sd.len() {
                        return None;
                    }
                    Some(Op::Write {
                        input: i,
                        at: base + o,
                        bytes: sd[f * es..f * es + es].to_vec(),
                        what: format!("{sec}[{e}] := copy of entry {f}"),
                    })
                }
            }
        }
        Kind::Info => {
            let recs = info_records(sd);
            if recs.is_empty() {
                return gen(rng, 0, sd.len().min(4), format!("{sec} bytes"), &v.ctx);
            }
            let (p, f, a, size) = *rng.pick(&recs);
            match rng.below(7) {
                0 | 1 if f == 4 => {
                    let rest = (sd.len() - p - 4) as u64;
                    let c = vec![
                        0,
                        1,
                        2,
                        3,
                        4,
                        8,
                        size as u64 + 4,
                        size as u64 - (size as u64).min(4),
                        rest,
                        rest + 4,
                        0xffff,
                    ];
                    let val = *rng.pick(&c);
                    Some(write_op(
                        i,
                        base + p + 2,
                        val,
                        2,
                        format!("{sec} record @{p:#x} (attr {a:#x}) size"),
                    ))
                }
                2 => {
                    let val = if rng.chance(60) {
                        *rng.pick(&[1u64, 2, 3, 4, 0, 5, 0xff])
                    } else {
                        rng.next() & 0xff
                    };
                    Some(write_op(
                        i,
                        base + p,
                        val,
                        1,
                        format!("{sec} record @{p:#x} (attr {a:#x}) format"),
                    ))
                }
                3 => {
                    let val = rng.below(0x80) as u64;
                    Some(write_op(
                        i,
                        base + p + 1,
                        val,
                        1,
                        format!("{sec} record @{p:#x} (attr {a:#x}) attribute"),
                    ))
                }
                _ if f == 4 && size >= 4 => {
                    // A payload word: the symbol operand (word 0) or later ones.
                    let w = if rng.chance(50) {
                        0
                    } else {
                        rng.below(size / 4)
                    };
                    let mut c = v.ctx.clone();
                    c.extend(v.func_syms.iter().copied());
                    gen(
                        rng,
                        p + 4 + w * 4,
                        4,
                        format!("{sec} record @{p:#x} (attr {a:#x}) payload word {w}"),
                        &c,
                    )
                }
                _ => gen(
                    rng,
                    p + 2,
                    2,
                    format!("{sec} record @{p:#x} (attr {a:#x}) value"),
                    &v.ctx,
                ),
            }
        }
        Kind::CallGraph | Kind::Prototype => {
            let n = sd.len() / 4;
            if n == 0 {
                return None;
            }
            let w = rng.below(n);
            let mut c = v.ctx.clone();
            c.extend(v.func_syms.iter().copied());
            c.extend([0xffff_ffff, 0xffff_fffe, 0xffff_fffd, 0xffff_fffc]);
            gen(rng, w * 4, 4, format!("{sec} word {w}"), &c)
        }
        Kind::DebugFrame => {
            let ents = frame_entries(sd);
            if ents.is_empty() {
                return gen(rng, 0, sd.len().min(4), format!("{sec} bytes"), &v.ctx);
            }
            let (p, lw) = *rng.pick(&ents);
            let old_len = read(sd, p, 4);
            match rng.below(5) {
                0 | 1 => {
                    let rest = (sd.len() - p) as u64;
                    let c = vec![
                        0,
                        4,
                        old_len + 1,
                        old_len.wrapping_sub(1),
                        old_len + 4,
                        old_len.wrapping_sub(4),
                        rest,
                        rest - 4,
                        rest + 4,
                        0xffff_ffff,
                        0xffff_fff0,
                    ];
                    let val = *rng.pick(&c);
                    Some(write_op(
                        i,
                        base + p,
                        val,
                        4,
                        format!("{sec} entry @{p:#x} length"),
                    ))
                }
                2 => {
                    let c = vec![
                        0,
                        0xffff_ffff,
                        p as u64,
                        (p as u64).wrapping_sub(4),
                        sd.len() as u64,
                    ];
                    gen(
                        rng,
                        p + lw,
                        4,
                        format!("{sec} entry @{p:#x} CIE id/pointer"),
                        &c,
                    )
                }
                3 => gen(
                    rng,
                    p + lw + 4,
                    8,
                    format!("{sec} entry @{p:#x} initial location"),
                    &v.ctx,
                ),
                _ => gen(
                    rng,
                    p + lw + 12,
                    8,
                    format!("{sec} entry @{p:#x} address range"),
                    &v.ctx,
                ),
            }
        }
        Kind::Capsule => {
            let slots = read(sd, 8, 4);
            match rng.below(8) {
                0 => gen(
                    rng,
                    0,
                    4,
                    format!("{sec} header word 0 (text index)"),
                    &[0, 1, v.shnum as u64 - 1, v.shnum as u64, 0xffff_ffff],
                ),
                1 => gen(
                    rng,
                    4,
                    4,
                    format!("{sec} header word 1"),
                    &[0xc000_0001, 0xc000_0000, 0x4000_0001, 1],
                ),
                2 | 3 => {
                    let c = [
                        0,
                        1,
                        slots + 1,
                        slots.wrapping_sub(1),
                        slots * 2,
                        sd.len() as u64 * 8,
                        0xffff_ffff,
                        0x7fff_ffff,
                        0x1_0000,
                    ];
                    gen(rng, 8, 4, format!("{sec} header word 2 (slots)"), &c)
                }
                4 | 5 => {
                    // The bitmap.
                    let bytes = (slots as usize)
                        .div_ceil(8)
                        .min(sd.len().saturating_sub(12));
                    if bytes == 0 {
                        return None;
                    }
                    let at = 12 + rng.below(bytes);
                    let val = if rng.chance(50) {
                        sd[at] ^ (1 << rng.below(8))
                    } else {
                        *rng.pick(&[0u8, 0xff])
                    };
                    Some(Op::Write {
                        input: i,
                        at: base + at,
                        bytes: vec![val],
                        what: format!("{sec} bitmap byte {:#x} := {val:#x}", at - 12),
                    })
                }
                6 => {
                    // Instruction stream or trailer bytes.
                    let at = rng.below(sd.len());
                    let r = rng.next() as u8;
                    let val = *rng.pick(&[0u8, 1, 2, 0xd0, 0xd1, 0x50, 0x51, 0xff, r]);
                    Some(Op::Write {
                        input: i,
                        at: base + at,
                        bytes: vec![val],
                        what: format!("{sec} byte {at:#x} := {val:#x}"),
                    })
                }
                _ => {
                    let at = (rng.below(sd.len()) & !3).min(sd.len().saturating_sub(4));
                    gen(rng, at, 4, format!("{sec} word @{at:#x}"), &v.ctx)
                }
            }
        }
        _ => {
            // Text and everything else: generic damage within the section.
            let at = rng.below(sd.len());
            match rng.below(3) {
                0 => Some(Op::Write {
                    input: i,
                    at: base + at,
                    bytes: vec![sd[at] ^ (1 << rng.below(8))],
                    what: format!("{sec} bit flip @{at:#x}"),
                }),
                1 => {
                    let at = at & !3;
                    gen(rng, at, 4, format!("{sec} u32 @{at:#x}"), &v.ctx)
                }
                _ => {
                    let at = at & !7;
                    gen(rng, at, 8, format!("{sec} u64 @{at:#x}"), &v.ctx)
                }
            }
        }
    }
}

/// Offsets of fatbin containers in `d` (by magic).
fn fatbins_in(d: &[u8]) -> Vec<usize> {
    let magic = fatbin::FATBIN_MAGIC.to_le_bytes();
    let mut out = Vec::new();
    let mut p = 0;
    while p + 16 <= d.len() && out.len() < 8 {
        match d[p..].windows(4).position(|w| w == magic) {
            Some(k) => {
                out.push(p + k);
                p += k + 4;
            }
            None => break,
        }
    }
    out
}

/// A mutation of a container input (host object, fatbin, archive): fatbin header and entry
/// fields, else raw damage.
fn container_op(rng: &mut Rng, i: usize, d: &[u8]) -> Option<Op> {
    let fbs = fatbins_in(d);
    if fbs.is_empty() || rng.chance(10) {
        if d.is_empty() {
            return None;
        }
        let at = rng.below(d.len());
        return Some(Op::Write {
            input: i,
            at,
            bytes: vec![rng.next() as u8],
            what: format!("random byte at file offset {at:#x}"),
        });
    }
    let f = *rng.pick(&fbs);
    let hsize = read(d, f + 6, 2) as usize;
    // Entry headers.
    let mut entries = Vec::new();
    let mut p = f + hsize.max(16);
    while p + 64 <= d.len() && entries.len() < 16 {
        entries.push(p);
        let eh = read(d, p + 4, 4) as usize;
        let ps = read(d, p + 8, 8) as usize;
        match p.checked_add(eh).and_then(|x| x.checked_add(ps)) {
            Some(n) if eh >= 64 && n > p => p = n,
            _ => break,
        }
    }
    let total = read(d, f + 8, 8);
    if entries.is_empty() || rng.chance(15) {
        let (off, width, field) = *rng.pick(&[
            (6usize, 2usize, "header size"),
            (8, 8, "entries size"),
            (4, 2, "version"),
        ]);
        if f + off + width > d.len() {
            return None;
        }
        let val = value(
            rng,
            read(d, f + off, width),
            &[total, d.len() as u64, 16, 64],
            (width * 8) as u32,
        );
        return Some(write_op(
            i,
            f + off,
            val,
            width,
            format!("fatbin @{f:#x} {field}"),
        ));
    }
    let (ei, e) = {
        let k = rng.below(entries.len());
        (k, entries[k])
    };
    let psize = read(d, e + 8, 8);
    let (off, width, field) = *rng.pick(&[
        (0usize, 2usize, "kind"),
        (4, 4, "header size"),
        (8, 8, "payload size"),
        (8, 8, "payload size"),
        (16, 4, "compressed size"),
        (20, 4, "options offset"),
        (28, 4, "sm"),
        (40, 8, "flags"),
        (40, 8, "flags"),
        (56, 8, "uncompressed size"),
        (56, 8, "uncompressed size"),
    ]);
    let ctx = match field {
        "kind" => vec![1, 2, 8, 0x100, 0x40],
        "sm" => vec![75, 80, 86, 90, 100, 103, 110, 120, 121, 0],
        "flags" => {
            let old = read(d, e + 40, 8);
            vec![
                old ^ 0x2000,
                old ^ 0x8000,
                old ^ 0x1,
                old ^ 0x2,
                old ^ 0x10_0000,
                old ^ 0x20_0000,
                old ^ 0x100_0000,
                old ^ 0x1_0000,
            ]
        }
        _ => vec![
            psize,
            psize.wrapping_add(8),
            psize.wrapping_sub(8),
            d.len() as u64,
            64,
            0x40_0000,
            1 << 40,
        ],
    };
    let val = if rng.chance(70) {
        *rng.pick(&ctx)
    } else {
        value(rng, read(d, e + off, width), &ctx, (width * 8) as u32)
    };
    let val = if width < 8 {
        val & ((1 << (width * 8)) - 1)
    } else {
        val
    };
    Some(write_op(
        i,
        e + off,
        val,
        width,
        format!("fatbin @{f:#x} entry {ei} {field}"),
    ))
}

const TARGETS: [&str; 18] = [
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
    "sm_100f", "sm_103", "sm_103f", "sm_110", "sm_110f", "sm_120", "sm_120a", "sm_121",
];

/// Link-level mutations, each one op or several.
fn link_ops(rng: &mut Rng, c: &Case, corpus: &[Case], template: &[u8]) -> Vec<Op> {
    let n = c.inputs.len();
    match rng.below(12) {
        0 => vec![Op::Dup {
            from: rng.below(n),
            to: rng.below(n + 1),
        }],
        1 => vec![Op::Swap(rng.below(n), rng.below(n))],
        2 => vec![Op::Remove(rng.below(n))],
        3 | 4 => {
            // The wrong -arch, with the device ELFs' e_flags forged to match half the time.
            let t = rng.pick(&TARGETS).to_string();
            let mut ops = vec![Op::Target(t.clone())];
            if rng.chance(50) {
                let tg = Target::parse(&t).unwrap();
                let flags = tg.e_flags() as u64;
                for (k, (_, d)) in c.inputs.iter().enumerate() {
                    if is_device_elf(d) {
                        let old = read(d, 48, 4);
                        let new = (old & 0xff00_0000) | (flags & 0x00ff_ffff);
                        ops.push(write_op(k, 48, new, 4, format!("e_flags forged for {t}")));
                    }
                }
            }
            ops
        }
        5 => vec![Op::Relocatable(!c.relocatable)],
        6 => vec![Op::PreserveRelocs(!c.preserve_relocs)],
        7 => vec![Op::Debug(!c.debug)],
        8 => {
            // --kernels-used / --variables-used with a name (or a piece of one) from an input.
            let names: Vec<String> = c
                .inputs
                .iter()
                .filter_map(|(_, d)| view(d))
                .flat_map(|v| v.symbol_names)
                .collect();
            let mut p = if names.is_empty() {
                "k".to_string()
            } else {
                rng.pick(&names).clone()
            };
            if rng.chance(30) && p.len() > 2 {
                let a = rng.below(p.len() - 1);
                p = p.get(a..).unwrap_or("x").to_string();
            }
            if rng.chance(75) {
                vec![Op::KernelsUsed(p)]
            } else {
                vec![Op::VariablesUsed(p)]
            }
        }
        9 if rng.chance(50) => vec![Op::Werror(!c.werror)],
        9 => vec![Op::ToolsPatch(!c.tools_patch)],
        10 => {
            // A device input from another case (same SM family mostly): clashes, mixed arches.
            let same: Vec<&Case> = corpus
                .iter()
                .filter(|o| o.target == c.target || rng.chance(5))
                .collect();
            let o = if same.is_empty() {
                rng.pick(corpus)
            } else {
                *rng.pick(&same)
            };
            let (name, data) = rng.pick(&o.inputs);
            vec![Op::Add {
                at: rng.below(n + 1),
                name: name.clone(),
                data: Arc::new(data.clone()),
                what: format!("input {name} of case {}", o.origin),
            }]
        }
        _ => {
            // A device input re-wrapped as an uncompressed fatbin (container mutations then
            // reach a cubin that may itself be mutated by a later op).
            let devs: Vec<usize> = (0..n).filter(|&k| is_device_elf(&c.inputs[k].1)).collect();
            if devs.is_empty() {
                return vec![];
            }
            let k = *rng.pick(&devs);
            let name = c.inputs[k].0.clone();
            let stem = name
                .rsplit_once('.')
                .map_or(name.as_str(), |(s, _)| s)
                .to_string();
            vec![Op::Replace {
                input: k,
                name: format!("{stem}.fatbin"),
                data: Arc::new(wrap_in_fatbin(&c.inputs[k].1, template)),
                what: "wrapped in an uncompressed fatbin".into(),
            }]
        }
    }
}

/// `ELFW_LINK_FUZZ_AVOID`: comma-separated pieces of mutation descriptions not to make (to
/// look past a known failure, e.g. `sh_addralign`).
fn avoided() -> &'static [String] {
    static A: OnceLock<Vec<String>> = OnceLock::new();
    A.get_or_init(|| {
        std::env::var("ELFW_LINK_FUZZ_AVOID")
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    })
}

/// The mutations of one iteration, applied to `case` as they are made.
fn mutate(rng: &mut Rng, case: &mut Case, corpus: &[Case], template: &[u8]) -> Vec<Op> {
    let mut ops = Vec::new();
    // ELFW_LINK_FUZZ_MAX_OPS: mutations per link at most (default 4).
    static MAX_OPS: OnceLock<usize> = OnceLock::new();
    let max = *MAX_OPS
        .get_or_init(|| env_u64("ELFW_LINK_FUZZ_MAX_OPS").map_or(4, |v| v.clamp(1, 64) as usize));
    let count = 1 + rng.below(max);
    let mut tries = 0;
    while ops.len() < count && tries < (5 * count).max(20) {
        tries += 1;
        let new: Vec<Op> = if rng.chance(18) {
            link_ops(rng, case, corpus, template)
        } else {
            let i = rng.below(case.inputs.len());
            let d = &case.inputs[i].1;
            if is_device_elf(d) {
                match view(d) {
                    Some(v) => elf_op(rng, i, d, &v).into_iter().collect(),
                    None => container_op(rng, i, d).into_iter().collect(),
                }
            } else if d.len() >= 16 {
                // A device ELF inside a stored fatbin payload is mutated in place.
                container_or_embedded(rng, i, d).into_iter().collect()
            } else {
                vec![]
            }
        };
        for op in new {
            let avoid = avoided();
            if !avoid.is_empty() {
                let text = format!("{op:?}");
                if avoid.iter().any(|a| text.contains(a.as_str())) {
                    continue;
                }
            }
            if op.apply(case) {
                ops.push(op);
            }
        }
    }
    ops
}

/// A container mutation, or an ELF mutation of a device ELF stored uncompressed inside it.
fn container_or_embedded(rng: &mut Rng, i: usize, d: &[u8]) -> Option<Op> {
    if rng.chance(50) {
        let mut starts = Vec::new();
        let mut p = 1;
        while let Some(k) = d
            .get(p..)
            .and_then(|s| s.windows(4).position(|w| w == b"\x7fELF"))
        {
            if is_device_elf(&d[p + k..]) {
                starts.push(p + k);
            }
            p += k + 4;
        }
        if !starts.is_empty() {
            let s = *rng.pick(&starts);
            let inner = &d[s..];
            if let Some(v) = view(inner) {
                if let Some(op) = elf_op(rng, i, inner, &v) {
                    return Some(match op {
                        Op::Write {
                            at, bytes, what, ..
                        } => Op::Write {
                            input: i,
                            at: at + s,
                            bytes,
                            what: format!("embedded ELF @{s:#x}: {what}"),
                        },
                        _ => return None,
                    });
                }
            }
        }
    }
    container_op(rng, i, d)
}

// ------------------------------------------------------------------------------------------
// Running links under guard.

#[derive(Clone, Debug)]
enum Failure {
    Panic {
        message: String,
        location: String,
        /// The first elfw-core frame when the location is outside it (std, alloc).
        frame: String,
    },
    Alloc {
        peak: i64,
        limit: i64,
        frame: String,
    },
    Timeout {
        limit: Duration,
    },
}

impl Failure {
    /// Exact identity within a run.
    fn key(&self) -> String {
        match self {
            Failure::Panic {
                message,
                location,
                frame,
            } => format!("panic {location} {frame} {}", normalize(message)),
            Failure::Alloc { frame, .. } => format!("alloc {frame}"),
            Failure::Timeout { .. } => "timeout".into(),
        }
    }
    /// The signature KNOWN.txt lists: file (no line) and the message with numbers elided, so
    /// that it survives edits to the file.
    fn signature(&self) -> String {
        // `file:line` -> `file`; `file:line (function)` -> `file (function)`.
        let file = |loc: &str| {
            let (at, func) = loc.split_once(" (").map_or((loc, ""), |(a, f)| (a, f));
            let f = at.rsplit_once(':').map_or(at, |(f, _)| f);
            if func.is_empty() {
                f.to_string()
            } else {
                format!("{f} ({func}")
            }
        };
        match self {
            Failure::Panic {
                message,
                location,
                frame,
            } => {
                let at = if location.contains("elfw-core/src") || frame.is_empty() {
                    file(location)
                } else {
                    file(frame)
                };
                format!("panic {at}: {}", normalize(message))
            }
            Failure::Alloc { frame, .. } => format!("alloc {}", file(frame)),
            Failure::Timeout { .. } => "timeout".into(),
        }
    }
    fn describe(&self) -> String {
        match self {
            Failure::Panic {
                message,
                location,
                frame,
            } => {
                let mut s = format!("panic at {location}: {message}");
                if !frame.is_empty() && !location.contains("elfw-core/src") {
                    let _ = write!(s, " (first elfw-core frame: {frame})");
                }
                s
            }
            Failure::Alloc { peak, limit, frame } => {
                format!("peak live heap {peak} bytes > limit {limit} (first went over in {frame})")
            }
            Failure::Timeout { limit } => format!("link still running after {limit:?}"),
        }
    }
}

fn normalize(msg: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '0' && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                chars.next();
            }
            out.push('N');
            in_num = false;
            continue;
        }
        if c.is_ascii_digit() {
            if !in_num {
                out.push('N');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    out.chars().take(160).collect()
}

/// The first `elfw-core/src` frame of a backtrace, as `function @ file:line`.
fn first_core_frame(bt: &std::backtrace::Backtrace) -> String {
    first_core_frame_text(&format!("{bt}"))
}

/// Whether a backtrace `at` path is elfw-core's source (not std's, a crate's or the test's).
fn is_core_source(at: &str) -> bool {
    at.contains("src/")
        && !at.starts_with("/rustc/")
        && !at.contains("/.cargo/")
        && !at.contains("tests/")
}

/// The same, from a printed backtrace.
fn first_core_frame_text(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    for (k, l) in lines.iter().enumerate() {
        // Frame lines are `N: function`, followed by `at file:line:column`.
        let Some((_, func)) = l.split_once(": ") else {
            continue;
        };
        if l.starts_with("at ")
            || !(func.starts_with("elfw_core::") || func.starts_with("<elfw_core::"))
        {
            continue;
        }
        let func = func.rsplit_once("::h").map_or(func, |(f, _)| f);
        // Its `at` line; a frame without one (inlined) takes the next elfw-core source line.
        let own = lines
            .get(k + 1)
            .and_then(|n| n.strip_prefix("at "))
            .filter(|a| is_core_source(a));
        let at = own
            .or_else(|| {
                lines[k + 1..]
                    .iter()
                    .filter_map(|n| n.strip_prefix("at "))
                    .find(|a| is_core_source(a))
            })
            .unwrap_or("");
        let at = at.rsplit_once(':').map_or(at, |(a, _)| a); // drop the column
        let at = match at.find("src/") {
            Some(p) => format!("elfw-core/{}", &at[p..]),
            None => at.to_string(),
        };
        if own.is_none() {
            return format!("{at} ({func}, called here)");
        }
        return format!("{at} ({func})");
    }
    String::new()
}

#[derive(Clone, Debug)]
struct Outcome {
    failure: Option<Failure>,
    status: i32,
    /// Every input loaded: the link pipeline ran.
    reached_link: bool,
    peak: i64,
}

static TOKENS: AtomicU64 = AtomicU64::new(1);

/// Runs `case` on the current thread with panic capture and allocation accounting.
fn guarded(case: &Case) -> Outcome {
    let Some(linker) = case.linker() else {
        return Outcome {
            failure: None,
            status: -1,
            reached_link: false,
            peak: 0,
        };
    };
    let inputs = case.inputs.len();
    let bytes = case.input_bytes() as i64;
    let soft = 64 * bytes + (16 << 20);
    let token = TOKENS.fetch_add(1, Ordering::Relaxed);
    TOKEN.with(|t| t.set(token));
    TAG.with(|t| t.set(case.tag));
    let base = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(base));
    SOFT.with(|s| s.set(base + soft));
    HARD.with(|h| h.set(base + (4i64 << 30)));
    OVER.with(|o| o.set(false));
    TRACK.with(|t| t.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let out = linker.link();
        (out.status(), out.inputs.len() >= inputs)
    }));
    drop(linker);
    TRACK.with(|t| t.set(false));
    let peak = PEAK.with(|p| p.get()) - base;
    let over = OVER.with(|o| o.get());
    let (status, reached_link, mut failure) = match r {
        Ok((s, reached)) => (s, reached, None),
        Err(_) => {
            let rec = {
                let mut v = PANICS.lock().unwrap();
                let k = v.iter().position(|(t, _)| *t == token);
                k.map(|k| v.remove(k).1)
            };
            let f = match rec {
                Some(rec) => {
                    let frame = if rec.location.contains("elfw-core/src") {
                        String::new()
                    } else {
                        first_core_frame(&rec.backtrace)
                    };
                    Failure::Panic {
                        message: rec.message,
                        location: rec.location,
                        frame,
                    }
                }
                None => Failure::Panic {
                    message: "<panic not recorded>".into(),
                    location: String::new(),
                    frame: String::new(),
                },
            };
            (101, true, Some(f))
        }
    };
    if over {
        let bt = {
            let mut v = OVER_AT.lock().unwrap();
            let k = v.iter().position(|(t, _)| *t == token);
            k.map(|k| v.remove(k).1)
        };
        if failure.is_none() {
            failure = Some(Failure::Alloc {
                peak,
                limit: soft,
                frame: bt.map(|b| first_core_frame(&b)).unwrap_or_default(),
            });
        }
    }
    Outcome {
        failure,
        status,
        reached_link,
        peak,
    }
}

/// A one-thread rayon pool that runs links with a time limit.
struct Executor {
    pool: rayon::ThreadPool,
    tx: mpsc::Sender<Outcome>,
    rx: mpsc::Receiver<Outcome>,
}

impl Executor {
    fn new() -> Executor {
        install_hook();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .stack_size(8 << 20)
            .thread_name(|_| "link-fuzz".into())
            .build()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        Executor { pool, tx, rx }
    }
    /// Runs the link; on a timeout the pool (and its stuck thread) is abandoned for a new one.
    fn run(&mut self, case: Arc<Case>, limit: Duration) -> Outcome {
        let tx = self.tx.clone();
        self.pool.spawn(move || {
            let _ = tx.send(guarded(&case));
        });
        match self.rx.recv_timeout(limit) {
            Ok(o) => o,
            Err(_) => {
                *self = Executor::new();
                Outcome {
                    failure: Some(Failure::Timeout { limit }),
                    status: -1,
                    reached_link: true,
                    peak: 0,
                }
            }
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn time_limit() -> Duration {
    Duration::from_secs(env_u64("ELFW_LINK_FUZZ_TIMEOUT_SECS").unwrap_or(10))
}

fn known_env() -> bool {
    std::env::var("ELFW_LINK_FUZZ_KNOWN").is_ok_and(|v| v == "1")
}

/// Whether `sig` is listed: equal to a KNOWN.txt signature, or starting with one that ends
/// in `*`.
fn is_known(known: &[(String, String)], sig: &str) -> bool {
    known.iter().any(|(_, k)| match k.strip_suffix('*') {
        Some(prefix) => sig.starts_with(prefix),
        None => k == sig,
    })
}

/// KNOWN.txt: `name<whitespace>signature` lines (`#` comments).
fn known() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(regressions_dir().join("KNOWN.txt")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (n, s) = l.split_once(char::is_whitespace)?;
            Some((n.to_string(), s.trim().to_string()))
        })
        .collect()
}

fn out_dir() -> PathBuf {
    std::env::var_os("ELFW_LINK_FUZZ_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("link-fuzz"))
}

// ------------------------------------------------------------------------------------------
// The fuzz loop.

struct Corpus {
    cases: Vec<Case>,
    /// Cumulative weights: links that succeed unmutated weigh more.
    weights: Vec<usize>,
    template: Vec<u8>,
}

fn corpus() -> &'static Corpus {
    static C: OnceLock<Corpus> = OnceLock::new();
    C.get_or_init(|| {
        let cases = corpus_cases();
        let mut ex = Executor::new();
        let mut weights = Vec::new();
        let mut acc = 0;
        for c in &cases {
            let o = ex.run(Arc::new(c.clone()), Duration::from_secs(60));
            let w = if o.failure.is_some() {
                1
            } else if o.status == 0 {
                6
            } else if o.reached_link {
                3
            } else {
                1
            };
            acc += w;
            weights.push(acc);
        }
        Corpus {
            cases,
            weights,
            template: fatbin_template(),
        }
    })
}

/// The case and mutations of iteration `iter` of stream `seed`.
fn iteration(corpus: &Corpus, seed: u64, iter: u64) -> (usize, Case, Vec<Op>) {
    let mut rng = Rng::new(seed, iter);
    let total = *corpus.weights.last().unwrap();
    let r = rng.below(total);
    let k = corpus.weights.iter().position(|&w| r < w).unwrap();
    let mut case = corpus.cases[k].clone();
    let ops = mutate(&mut rng, &mut case, &corpus.cases, &corpus.template);
    (k, case, ops)
}

/// Drops ops while the failure (same key) stays.
fn minimise(ex: &mut Executor, base: &Case, ops: &[Op], key: &str) -> (Case, Vec<Op>) {
    let build = |ops: &[Op]| {
        let mut c = base.clone();
        for op in ops {
            op.apply(&mut c);
        }
        c
    };
    let mut cur: Vec<Op> = ops.to_vec();
    let mut k = cur.len();
    while k > 0 {
        k -= 1;
        if cur.len() == 1 {
            break;
        }
        let mut trial = cur.clone();
        trial.remove(k);
        let o = ex.run(Arc::new(build(&trial)), Duration::from_secs(30));
        if o.failure.as_ref().is_some_and(|f| f.key() == key) {
            cur = trial;
        }
    }
    // Then inputs the failure does not need.
    let mut case = build(&cur);
    let mut k = case.inputs.len();
    while k > 0 && case.inputs.len() > 1 {
        k -= 1;
        let mut trial = case.clone();
        trial.inputs.remove(k);
        let o = ex.run(Arc::new(trial.clone()), Duration::from_secs(30));
        if o.failure.as_ref().is_some_and(|f| f.key() == key) {
            cur.push(Op::Remove(k));
            case = trial;
        }
    }
    (case, cur)
}

#[derive(Default)]
struct Stats {
    links: u64,
    reached_link: u64,
    images: u64,
    failures: u64,
    tolerated: u64,
    /// Largest peak live heap of one link, and that link's input bytes.
    peak: (u64, u64),
}

/// Appends a failure to `<out>/found.tsv`: key, signature, seed:iteration, folder, description.
fn record_found(key: &str, sig: &str, at: &str, dir: &Path, desc: &str) {
    let file = out_dir().join("found.tsv");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
    {
        let _ = writeln!(
            f,
            "{key}\t{sig}\t{at}\t{}\t{}",
            dir.display(),
            desc.replace(['\t', '\n'], " ")
        );
    }
}

fn read_found() -> Vec<Vec<String>> {
    std::fs::read_to_string(out_dir().join("found.tsv"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

fn slug(sig: &str) -> String {
    sig.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(80)
        .collect()
}

/// Child process: runs iterations `0..end` of stream `seed` (after a crash, `resume` skips
/// to the iteration after the one that was running). A timeout records itself and ends the
/// process with status 3 (its pool thread cannot be stopped otherwise).
fn run_stream(seed: u64, end: u64, progress: &Progress, slot: usize, resume: bool) {
    let corpus = corpus();
    let known = known();
    let tolerate_known = !known_env();
    let limit = time_limit();
    let mut ex = Executor::new();
    let mut st = Stats::default();
    let mut seen: Vec<String> = read_found()
        .into_iter()
        .filter_map(|l| l.into_iter().next())
        .collect();
    let mut start = 0;
    let mut resumes = 0;
    if resume {
        let w = progress.get(slot);
        if w[0] == seed {
            start = w[1] + 1;
            (
                st.links,
                st.reached_link,
                st.images,
                st.failures,
                st.tolerated,
            ) = (w[2], w[3], w[4], w[5], w[6]);
            st.peak = (w[8], w[9]);
            resumes = w[7] + 1;
        }
    }
    for iter in start..end {
        let (k, mut case, ops) = iteration(corpus, seed, iter);
        case.tag = (seed, iter);
        progress.set(
            slot,
            [
                seed,
                iter,
                st.links,
                st.reached_link,
                st.images,
                st.failures,
                st.tolerated,
                resumes,
                st.peak.0,
                st.peak.1,
            ],
        );
        let bytes = case.input_bytes() as u64;
        let o = ex.run(Arc::new(case), limit);
        if o.peak.max(0) as u64 > st.peak.0 {
            st.peak = (o.peak as u64, bytes);
        }
        st.links += 1;
        st.reached_link += o.reached_link as u64;
        st.images += (o.status == 0) as u64;
        let Some(f) = o.failure else {
            continue;
        };
        let sig = f.signature();
        if tolerate_known && is_known(&known, &sig) {
            st.tolerated += 1;
            continue;
        }
        st.failures += 1;
        let key = f.key();
        let timeout = matches!(f, Failure::Timeout { .. });
        if seen.contains(&key) && !timeout {
            continue;
        }
        seen.push(key.clone());
        // New: minimise (not timeouts: each trial could take the full limit), save, report.
        let base = &corpus.cases[k];
        let (min_case, min_ops) = if timeout {
            let mut c = base.clone();
            for op in &ops {
                op.apply(&mut c);
            }
            (c, ops.clone())
        } else {
            minimise(&mut ex, base, &ops, &key)
        };
        let dir = out_dir().join(format!("{}-{seed}-{iter}", slug(&sig)));
        min_case.save(&dir);
        let mut desc = format!(
            "failure: {}\nsignature: {sig}\nbase case: {}\nreplay: ELFW_LINK_FUZZ_REPLAY={seed}:{iter}\nmutations (minimised):\n",
            f.describe(),
            base.origin
        );
        let mut c = base.clone();
        for op in &min_ops {
            let _ = writeln!(desc, "  - {}", op.describe(&c));
            op.apply(&mut c);
        }
        std::fs::write(dir.join("finding.txt"), &desc).unwrap();
        eprintln!(
            "link_fuzz: NEW FAILURE (seed {seed}, iteration {iter}) saved to {}\n{desc}",
            dir.display()
        );
        record_found(&key, &sig, &format!("{seed}:{iter}"), &dir, &f.describe());
        if timeout {
            // Skipped on resume, like a crash.
            progress.set(
                slot,
                [
                    seed,
                    iter,
                    st.links,
                    st.reached_link,
                    st.images,
                    st.failures,
                    st.tolerated,
                    resumes,
                    st.peak.0,
                    st.peak.1,
                ],
            );
            std::process::exit(3);
        }
    }
    progress.set(
        slot,
        [
            seed,
            end,
            st.links,
            st.reached_link,
            st.images,
            st.failures,
            st.tolerated,
            resumes,
            st.peak.0,
            st.peak.1,
        ],
    );
}

/// Each worker's current seed and iteration and its counters (links, reached the pipeline,
/// images, new failures, tolerated failures, resumes after a crash), as u64 LE in a
/// memory-mapped file that survives a crash of the process.
struct Progress {
    map: Mutex<memmap2::MmapMut>,
}

const PROGRESS_WORDS: usize = 10;

impl Progress {
    fn new(slots: usize) -> Progress {
        let dir = out_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join("progress.bin"))
            .unwrap();
        f.set_len((slots * PROGRESS_WORDS * 8) as u64).unwrap();
        let map = unsafe { memmap2::MmapMut::map_mut(&f).unwrap() };
        Progress {
            map: Mutex::new(map),
        }
    }
    fn get(&self, slot: usize) -> [u64; PROGRESS_WORDS] {
        let m = self.map.lock().unwrap();
        let mut out = [0u64; PROGRESS_WORDS];
        for (k, w) in out.iter_mut().enumerate() {
            let o = (slot * PROGRESS_WORDS + k) * 8;
            *w = u64::from_le_bytes(m[o..o + 8].try_into().unwrap());
        }
        out
    }
    fn set(&self, slot: usize, words: [u64; PROGRESS_WORDS]) {
        let mut m = self.map.lock().unwrap();
        for (k, w) in words.iter().enumerate() {
            let o = (slot * PROGRESS_WORDS + k) * 8;
            m[o..o + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
}

/// What killed a child process, from its stderr: (key, signature, description).
fn classify_crash(stderr: &str) -> (String, String, String) {
    if stderr.contains("has overflowed its stack") {
        let s = "crash stack overflow".to_string();
        return (s.clone(), s, "stack overflow (the process aborts)".into());
    }
    if stderr.contains("went past the hard allocation cap") {
        let text = stderr
            .split_once("memory allocation of")
            .map_or(stderr, |(_, t)| t);
        let frame = first_core_frame_text(text);
        let request = stderr
            .lines()
            .find(|l| l.contains("request bytes:"))
            .and_then(|l| l.rsplit(' ').next())
            .unwrap_or("?");
        let f = Failure::Alloc {
            peak: 0,
            limit: 0,
            frame: frame.clone(),
        };
        let sig = f.signature().replacen("alloc", "crash alloc-cap", 1);
        return (
            format!("crash alloc-cap {frame}"),
            sig,
            format!("one allocation of {request} bytes (over the 4 GiB cap; the process aborts) in {frame}"),
        );
    }
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("<no output>")
        .trim()
        .to_string();
    let s = format!("crash {}", normalize(&last));
    (s.clone(), s, format!("the process died: {last}"))
}

fn exe() -> PathBuf {
    std::env::current_exe().unwrap()
}

/// Supervisor: runs the streams in child processes, resuming after each crash (abort, stack
/// overflow) or timeout; a crash is reproduced alone in another child to name it.
fn supervise(iters: u64, seed: u64, threads: u64) {
    let out = out_dir();
    std::fs::create_dir_all(&out).unwrap();
    let _ = std::fs::remove_file(out.join("found.tsv"));
    let _ = std::fs::remove_file(out.join("progress.bin"));
    let known = known();
    let tolerate_known = !known_env();
    let per = iters / threads;
    let start = Instant::now();
    let (mut segments, mut crashes, mut crashes_tolerated, mut timeouts) = (0u64, 0u64, 0u64, 0u64);
    loop {
        let status = std::process::Command::new(exe())
            .args(["link_fuzz", "--exact", "--nocapture", "--test-threads=1"])
            .env("ELFW_LINK_FUZZ_ROLE", "child")
            .env("RUST_BACKTRACE", "0")
            .env(
                "ELFW_LINK_FUZZ_RESUME",
                if segments > 0 { "1" } else { "0" },
            )
            .env_remove("ELFW_LINK_FUZZ_REPLAY")
            .status()
            .expect("run the fuzz child");
        segments += 1;
        assert!(segments < 100_000, "too many crashes");
        match status.code() {
            Some(0) => break,
            Some(3) => {
                timeouts += 1;
                continue;
            }
            // The harness's own failure status: a panic in the fuzzer, not in a link.
            Some(101) => panic!("the fuzz child failed outside a link (a bug in this test)"),
            _ => {}
        }
        // A crash: which iteration? Replay each stream's current one alone.
        let progress = Progress::new(threads as usize);
        let mut named = false;
        for slot in 0..threads as usize {
            let w = progress.get(slot);
            if w[0] != seed * 16 + slot as u64 || w[1] >= per {
                continue;
            }
            let at = format!("{}:{}", w[0], w[1]);
            let r = std::process::Command::new(exe())
                .args(["link_fuzz", "--exact", "--nocapture", "--test-threads=1"])
                .env("ELFW_LINK_FUZZ_REPLAY", &at)
                .env("RUST_BACKTRACE", "1")
                .output()
                .expect("run a replay child");
            if r.status.success() {
                continue;
            }
            named = true;
            crashes += 1;
            let stderr = String::from_utf8_lossy(&r.stderr);
            let (key, sig, desc) = classify_crash(&stderr);
            if tolerate_known && is_known(&known, &sig) {
                crashes_tolerated += 1;
                continue;
            }
            if read_found().iter().any(|l| l[0] == key) {
                continue;
            }
            let (s, i) = at.split_once(':').unwrap();
            let dir = out.join(format!("replay-{s}-{i}"));
            let ops: String = stderr
                .lines()
                .filter(|l| l.starts_with("  - ") || l.starts_with("base case"))
                .map(|l| format!("{l}\n"))
                .collect();
            let text = format!(
                "failure: {desc}\nsignature: {sig}\nreplay: ELFW_LINK_FUZZ_REPLAY={at}\nmutations (not minimised):\n{ops}"
            );
            let _ = std::fs::write(dir.join("finding.txt"), &text);
            eprintln!(
                "link_fuzz: NEW FAILURE ({at}) saved to {}\n{text}",
                dir.display()
            );
            record_found(&key, &sig, &at, &dir, &desc);
        }
        if !named {
            crashes += 1;
            eprintln!("link_fuzz: a child crashed and no replay reproduced it");
        }
    }
    let progress = Progress::new(threads as usize);
    let mut t = Stats::default();
    for slot in 0..threads as usize {
        let w = progress.get(slot);
        t.links += w[2];
        t.reached_link += w[3];
        t.images += w[4];
        t.failures += w[5];
        t.tolerated += w[6];
        t.peak = t.peak.max((w[8], w[9]));
    }
    let found = read_found();
    eprintln!(
        "link_fuzz: {} links in {:.1}s ({threads} threads, seed {seed}, {segments} child processes): {} reached the link pipeline, {} produced an image; {} failures (+{} crashes, {} timeouts), {} tolerated as known (+{} crashes); {} distinct new failures; largest heap peak of a link {} bytes ({} input bytes)",
        t.links,
        start.elapsed().as_secs_f64(),
        t.reached_link,
        t.images,
        t.failures,
        crashes - crashes_tolerated,
        timeouts,
        t.tolerated,
        crashes_tolerated,
        found.len(),
        t.peak.0,
        t.peak.1,
    );
    for l in &found {
        eprintln!(
            "  {}\n      {}\n      first {}, saved in {}",
            l[1],
            l.get(4).map_or("", |s| s),
            l[2],
            l[3]
        );
    }
    assert!(
        found.is_empty(),
        "the link fuzzer found {} distinct failures (see above)",
        found.len()
    );
}

#[test]
fn link_fuzz() {
    if let Ok(spec) = std::env::var("ELFW_LINK_FUZZ_REPLAY") {
        let (s, i) = spec
            .split_once(':')
            .expect("ELFW_LINK_FUZZ_REPLAY=<seed>:<iteration>");
        let (seed, iter) = (s.parse().unwrap(), i.parse().unwrap());
        let corpus = corpus();
        let (k, mut case, ops) = iteration(corpus, seed, iter);
        case.tag = (seed, iter);
        let mut c = corpus.cases[k].clone();
        eprintln!("base case {}", c.origin);
        for op in &ops {
            eprintln!("  - {}", op.describe(&c));
            op.apply(&mut c);
        }
        let dir = out_dir().join(format!("replay-{seed}-{iter}"));
        case.save(&dir);
        let mut ex = Executor::new();
        let o = ex.run(Arc::new(case), time_limit());
        eprintln!("saved to {}\noutcome: {o:?}", dir.display());
        if let Some(f) = o.failure.filter(|f| !matches!(f, Failure::Timeout { .. })) {
            // Minimised too, into replay-<seed>-<iteration>-min.
            let base = &corpus.cases[k];
            let (min_case, min_ops) = minimise(&mut ex, base, &ops, &f.key());
            let dir = out_dir().join(format!("replay-{seed}-{iter}-min"));
            let _ = std::fs::remove_dir_all(&dir);
            min_case.save(&dir);
            let mut desc = format!(
                "failure: {}\nsignature: {}\nbase case: {}\nreplay: ELFW_LINK_FUZZ_REPLAY={seed}:{iter}\nmutations (minimised):\n",
                f.describe(),
                f.signature(),
                base.origin
            );
            let mut c = base.clone();
            for op in &min_ops {
                let _ = writeln!(desc, "  - {}", op.describe(&c));
                op.apply(&mut c);
            }
            std::fs::write(dir.join("finding.txt"), &desc).unwrap();
            eprintln!("minimised into {}\n{desc}", dir.display());
        }
        return;
    }
    // The bounded CI run: a few seconds (the test profile is ~10x slower than release).
    let default_iters = if cfg!(debug_assertions) { 4000 } else { 16000 };
    let iters = env_u64("ELFW_LINK_FUZZ_ITERS").unwrap_or(default_iters);
    let seed = env_u64("ELFW_LINK_FUZZ_SEED").unwrap_or(1);
    let threads = env_u64("ELFW_LINK_FUZZ_THREADS").unwrap_or(2).clamp(1, 2);
    if std::env::var("ELFW_LINK_FUZZ_ROLE").is_ok_and(|r| r == "child") {
        let progress = Progress::new(threads as usize);
        let resume = std::env::var("ELFW_LINK_FUZZ_RESUME").is_ok_and(|v| v == "1");
        let per = iters / threads;
        std::thread::scope(|s| {
            for t in 0..threads {
                let progress = &progress;
                s.spawn(move || run_stream(seed * 16 + t, per, progress, t as usize, resume));
            }
        });
        return;
    }
    supervise(iters, seed, threads);
}

/// Every corpus link (and its extracted twin) runs unmutated without failure.
#[test]
fn link_fuzz_seeds_unmutated() {
    let corpus = corpus();
    let mut ex = Executor::new();
    assert!(corpus.cases.len() > 100, "corpus not found");
    for c in &corpus.cases {
        let o = ex.run(Arc::new(c.clone()), time_limit());
        assert!(o.failure.is_none(), "{}: {:?}", c.origin, o.failure);
    }
}

// ------------------------------------------------------------------------------------------
// Regressions: tests/link-fuzz-regressions/<name>/ (args + inputs), replayed by name, each in
// a child process (some abort the process).

/// Child side of [`replay`]: links the folder named by `ELFW_LINK_FUZZ_REPLAY_DIR`.
#[test]
fn link_fuzz_replay_dir() {
    let Some(dir) = std::env::var_os("ELFW_LINK_FUZZ_REPLAY_DIR").map(PathBuf::from) else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("args")).expect("args");
    let case = parse_args(&dir, &text, "replay").expect("a case");
    let o = Executor::new().run(Arc::new(case), time_limit());
    match o.failure {
        None => eprintln!("link_fuzz replay: ok (status {})", o.status),
        Some(f) => eprintln!(
            "link_fuzz replay: failure: {} [signature: {}]",
            f.describe(),
            f.signature()
        ),
    }
}

fn replay(name: &str) {
    let listed = known().iter().any(|(n, _)| n == name);
    if listed && !known_env() {
        eprintln!(
            "{name}: listed in KNOWN.txt (not fixed yet); set ELFW_LINK_FUZZ_KNOWN=1 to replay"
        );
        return;
    }
    let dir = regressions_dir().join(name);
    assert!(dir.join("args").is_file(), "{name}: no args file");
    let r = std::process::Command::new(exe())
        .args([
            "link_fuzz_replay_dir",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ELFW_LINK_FUZZ_REPLAY_DIR", &dir)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("run the replay child");
    let stderr = String::from_utf8_lossy(&r.stderr);
    if stderr.contains("link_fuzz replay: ok") {
        return;
    }
    if let Some(l) = stderr
        .lines()
        .find(|l| l.starts_with("link_fuzz replay: failure"))
    {
        panic!("{name}: {l}");
    }
    let (_, sig, desc) = classify_crash(&stderr);
    panic!("{name}: {desc} [signature: {sig}]");
}

/// Every regression folder has a test below (and KNOWN.txt names only existing folders).
#[test]
fn link_fuzz_regressions_all_named() {
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/link_fuzz.rs"))
            .unwrap_or_default();
    let Ok(rd) = std::fs::read_dir(regressions_dir()) else {
        return;
    };
    for e in rd.flatten() {
        if e.path().is_dir() {
            let n = e.file_name().to_string_lossy().into_owned();
            assert!(
                src.contains(&format!("replay(\"{n}\")")),
                "no test replays {n}"
            );
        }
    }
    for (n, _) in known() {
        assert!(
            regressions_dir().join(&n).is_dir(),
            "KNOWN.txt names {n}, which has no folder"
        );
    }
}

// One test per folder of tests/link-fuzz-regressions/ (see its finding.txt and
// /work/notes/fuzz/link-fuzz-findings.md).

#[test]
fn regression_align_emit_contents_out_of_range() {
    replay("align_emit_contents_out_of_range");
}

#[test]
fn regression_align_emit_image_abort() {
    replay("align_emit_image_abort");
}

#[test]
fn regression_align_emit_image_alloc() {
    replay("align_emit_image_alloc");
}

#[test]
fn regression_align_emit_image_capacity_overflow() {
    replay("align_emit_image_capacity_overflow");
}

#[test]
fn regression_align_emit_node_out_of_range() {
    replay("align_emit_node_out_of_range");
}

#[test]
fn regression_align_merc_build_alloc_non_power_of_two() {
    replay("align_merc_build_alloc_non_power_of_two");
}

#[test]
fn regression_align_merc_build_capacity_overflow() {
    replay("align_merc_build_capacity_overflow");
}

#[test]
fn regression_align_merc_emit_image_alloc() {
    replay("align_merc_emit_image_alloc");
}

#[test]
fn regression_align_merc_emit_image_capacity_overflow() {
    replay("align_merc_emit_image_capacity_overflow");
}

#[test]
fn regression_align_section_bytes_capacity_overflow() {
    replay("align_section_bytes_capacity_overflow");
}

#[test]
fn regression_align_section_bytes_out_of_range() {
    replay("align_section_bytes_out_of_range");
}

#[test]
fn regression_nobits_size_section_bytes_alloc() {
    replay("nobits_size_section_bytes_alloc");
}

#[test]
fn regression_nobits_size_section_bytes_capacity_overflow() {
    replay("nobits_size_section_bytes_capacity_overflow");
}

#[test]
fn regression_nvinfo_num_barriers_empty_payload() {
    replay("nvinfo_num_barriers_empty_payload");
}

#[test]
fn regression_nvinfo_regcount_short_payload() {
    replay("nvinfo_regcount_short_payload");
}

#[test]
fn regression_nvinfo_symbol_operand_short_payload() {
    replay("nvinfo_symbol_operand_short_payload");
}

#[test]
fn regression_overflow_merc_reloc_offset() {
    replay("overflow_merc_reloc_offset");
}

#[test]
fn regression_overflow_reloc_offset() {
    replay("overflow_reloc_offset");
}

#[test]
fn regression_overflow_symbol_value() {
    replay("overflow_symbol_value");
}

#[test]
fn regression_shared_symbol_alignment_emit_abort() {
    replay("shared_symbol_alignment_emit_abort");
}

#[test]
fn regression_shared_symbol_alignment_emit_out_of_range() {
    replay("shared_symbol_alignment_emit_out_of_range");
}

#[test]
fn regression_shared_symbol_alignment_merc_emit_abort() {
    replay("shared_symbol_alignment_merc_emit_abort");
}

#[test]
fn regression_shared_symbol_size_section_bytes_alloc() {
    replay("shared_symbol_size_section_bytes_alloc");
}

#[test]
fn regression_shared_symbol_size_segment_span_overflow() {
    replay("shared_symbol_size_segment_span_overflow");
}

#[test]
fn regression_bank2_symbol_value_panic() {
    replay("bank2_symbol_value_panic");
}

#[test]
fn regression_bank2_symbol_value_alloc() {
    replay("bank2_symbol_value_alloc");
}

#[test]
fn regression_bank2_symbol_value_emit_abort() {
    replay("bank2_symbol_value_emit_abort");
}

#[test]
fn regression_relocatable_shared_alignment_merc_emit() {
    replay("relocatable_shared_alignment_merc_emit");
}

#[test]
fn regression_relocatable_instance_alignment_emit_alloc() {
    replay("relocatable_instance_alignment_emit_alloc");
}

#[test]
fn regression_relocatable_debug_shared_type_emit_panic() {
    replay("relocatable_debug_shared_type_emit_panic");
}

#[test]
fn regression_fatbin_forged_size_decompress_alloc() {
    replay("fatbin_forged_size_decompress_alloc");
}

/// Seed 2020: a `-g` sm_100 link whose damaged `.debug_frame` gives a CIE code alignment of 0
/// divided by it while moving the frame rows past the exit fences.
#[test]
fn regression_fence_frame_zero_code_align() {
    replay("fence_frame_zero_code_align");
}

/// Seed 2323: an sm_100a `.debug_frame` made `SHT_NOBITS` with a forged size of about 1 TB;
/// the frame's bytes, read to place CIE pointers, were allocated at that size.
#[test]
fn regression_relocate_nobits_frame_alloc() {
    replay("relocate_nobits_frame_alloc");
}
