//! The [`Linker`] builder: one call from inputs (paths or bytes) to an image and its
//! diagnostics, with nvlink's input order, library search and messages. The `elfw` command
//! line is a thin layer over it.
//!
//! A `Linker` holds no global state and never prints or exits: every error, warning and info
//! comes back as a [`Diagnostic`] in [`Linked::diagnostics`], in the order nvlink would print
//! it. Independent `Linker`s may run on several threads at once.
//!
//! Input order is nvlink's: the inputs in the order they were added, then each library named
//! with [`Linker::library`] (`-lfoo` → `libfoo.a`), looked up in the [`Linker::library_path`]
//! folders in order; a library that is not found is skipped without a word, as nvlink skips
//! it. An archive given twice (by any path to the same file) is read once.

use crate::diag::{Diagnostic, Severity};
use crate::elf::ElfFile;
use crate::input::{self, InputWarning, LoadOptions, WarningKind};
use crate::link::{self, InputObject, LinkOptions, PhaseTimes, ToolRecord};
use crate::lto::{self, libnvvm::Libnvvm, LtoOptions};
use crate::target::{ArchKind, Target};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One input of a [`Linker`].
#[derive(Clone, Debug)]
pub enum LinkerInput {
    /// A file read at link time.
    Path {
        /// Where to read it (relative paths are taken from [`Linker::working_dir`]).
        path: PathBuf,
        /// The name used in messages (`a.o`, and `lib.a:member.o` for its members).
        name: String,
    },
    /// Bytes already in memory.
    Bytes {
        /// The name used in messages; its extension decides the kind as nvlink's does
        /// (`.cubin`, `.fatbin`, `.ptx`, `.o`, `.a` ...).
        name: String,
        /// The content.
        data: Vec<u8>,
    },
}

impl LinkerInput {
    fn name(&self) -> &str {
        match self {
            LinkerInput::Path { name, .. } | LinkerInput::Bytes { name, .. } => name,
        }
    }
}

/// A link to run: target, options and inputs. Build it with the chained setters, then call
/// [`Linker::link`] (as often as you like: it does not consume the builder).
#[derive(Clone, Debug)]
pub struct Linker {
    target: Target,
    relocatable: bool,
    preserve_relocs: bool,
    tools_patch: bool,
    debug: bool,
    kernels_used: Vec<String>,
    variables_used: Vec<String>,
    keep_system_libraries: bool,
    ignore_host_info: bool,
    warnings_as_errors: bool,
    suppress_arch_warning: bool,
    suppress_stack_size_warning: bool,
    disable_infos: bool,
    extra_warnings: bool,
    suppress_debug_info: bool,
    register_link_binaries: bool,
    keep_input_cubins: bool,
    skip_teardown: bool,
    want_map: bool,
    want_callgraph: bool,
    want_refused_image: bool,
    tool_record: Option<ToolRecord>,
    ptxas: Option<input::ptx::Ptxas>,
    ptxas_options: Vec<String>,
    lto: Option<LtoOptions>,
    working_dir: Option<PathBuf>,
    inputs: Vec<LinkerInput>,
    libraries: Vec<String>,
    library_paths: Vec<String>,
}

/// What the link did with one input (a command-line input or a found library).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputReport {
    /// The name used in messages.
    pub name: String,
    /// Number of device cubins it contributed.
    pub cubins: usize,
    /// The `__cudaRegisterLinkedBinary_<id>` suffixes nvcc's `.reg.c` needs for it: the
    /// `__nv_module_id` of each host object (none for system libraries), or a name made of
    /// the absolute path for an input without host code. Filled only with
    /// [`Linker::register_link_binaries`].
    pub registrations: Vec<String>,
    /// Whether it was skipped as a second copy of an archive already read.
    pub duplicate: bool,
}

/// One device cubin as it entered the link, kept with [`Linker::keep_input_cubins`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptCubin {
    /// Display name (`a.o`, `lib.a:member.o`).
    pub name: String,
    /// The cubin bytes.
    pub data: Vec<u8>,
}

/// The result of [`Linker::link`].
#[derive(Clone, Debug, Default)]
pub struct Linked {
    /// The image, when the link succeeded (no error, no fatal), or when nvlink writes its
    /// output before a fatal: a whole-program LTO whose last input is not libcudadevrt
    /// (`expected libcudadevrt object`, observed).
    pub image: Option<Vec<u8>>,
    /// The image of a link refused only after it was made (warnings as errors, e.g. a stack
    /// size that cannot be determined under `-Werror`), or, when [`Linker::refused_image`]
    /// asked for it, of one refused after its merge (undefined references, register or
    /// shared-memory limits): nvlink writes no output but still prints its reports (`-v`,
    /// `--dump-callgraph`) from it (observed).
    pub report_image: Option<Vec<u8>>,
    /// Every error, warning and info, in the order nvlink prints them.
    pub diagnostics: Vec<Diagnostic>,
    /// How long each phase took: `inputs` (opening and loading every input), the link's own
    /// phases, then `teardown` (the rest of the link: dropping its working state, mostly).
    pub times: PhaseTimes,
    /// What became of each input, in link order (command-line inputs, then libraries).
    pub inputs: Vec<InputReport>,
    /// Inputs (or archive members) nvlink skips without a word, with the reason.
    pub ignored: Vec<InputWarning>,
    /// The device cubins in link order (only with [`Linker::keep_input_cubins`]).
    pub cubins: Vec<KeptCubin>,
    /// What the link did (only with [`Linker::link_map`]).
    pub map: Option<link::LinkMap>,
    /// The merged call graph (only with [`Linker::callgraph`]; `None` also when the link
    /// merged nothing, nor in a relocatable link).
    pub callgraph: Option<link::Callgraph>,
    /// The image is a whole-program LTO compile (libnvvm's and ptxas's, not a merge): nvlink
    /// then lists the inputs' registrations in reverse order (observed).
    pub whole_program_lto: bool,
    /// The image is libnvvm's PTX text (`-emit-ptx`), not a cubin: nvlink writes it as the
    /// output and nothing else (no `.reg.c`).
    pub emitted_ptx: bool,
    /// The link ended once its inputs were read, for errors counted while reading them:
    /// nothing was merged, and nvlink reports nothing (`-v`: observed).
    pub ended_after_inputs: bool,
}

impl Linked {
    /// Whether an error has been counted (an uncounted error, such as `Uncompress failed`,
    /// does not count).
    fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// nvlink's exit status for this result: 1 after a fatal, 255 after errors, else 0.
    pub fn status(&self) -> i32 {
        if self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Fatal)
        {
            1
        } else if self.has_errors() {
            255
        } else {
            0
        }
    }
    /// Diagnostics of one severity.
    pub fn with_severity(&self, severity: Severity) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(move |d| d.severity == severity)
    }
}

/// Hands over bytes made whole elsewhere (ptxas's cubin of a whole-program LTO, libnvvm's PTX
/// under `-emit-ptx`) as the link's image: written to `sink` when there is one (the image is
/// then `Some` and empty), kept in `out` otherwise; a failed write is nvlink's fatal.
fn deliver_image(out: &mut Linked, sink: Option<&mut dyn std::io::Write>, bytes: Vec<u8>) {
    match sink {
        Some(w) => {
            if w.write_all(&bytes).is_err() {
                out.diagnostics.push(Diagnostic::new(
                    Severity::Fatal,
                    "elfLink output write error",
                ));
                return;
            }
            out.image = Some(Vec::new());
        }
        None => out.image = Some(bytes),
    }
}

/// nvlink's warning for `--preserve-relocs` on targets where it is "not fully implemented"
/// (printed by nvlink 13.5.37 from sm_90 on).
fn preserve_relocs_warning(target: Target) -> Option<String> {
    (target.sm >= 90).then(|| {
        format!(
            "Option '--preserve-relocs' is not fully implemented for gpu archtecture '{}' and may not work as expected",
            target.sm_name()
        )
    })
}

/// One input of a link once opened, before it is loaded.
enum Opened<'d> {
    /// Its bytes.
    Data(&'d [u8]),
    /// Missing, a folder, unreadable, or 1 to 55 bytes: nvlink's `Could not open input file`.
    CannotOpen,
    /// A second copy of an archive already read.
    Duplicate,
}

const STACK_SIZE_WARNING: &str = "Stack size for entry function '";

impl Linker {
    /// A final link for `target` with nvlink's defaults and no inputs.
    pub fn new(target: Target) -> Linker {
        Linker {
            target,
            relocatable: false,
            preserve_relocs: false,
            tools_patch: false,
            debug: false,
            kernels_used: Vec::new(),
            variables_used: Vec::new(),
            keep_system_libraries: false,
            ignore_host_info: false,
            warnings_as_errors: false,
            suppress_arch_warning: false,
            suppress_stack_size_warning: false,
            disable_infos: false,
            extra_warnings: false,
            suppress_debug_info: false,
            register_link_binaries: false,
            keep_input_cubins: false,
            skip_teardown: false,
            want_map: false,
            want_callgraph: false,
            want_refused_image: false,
            tool_record: None,
            ptxas: None,
            ptxas_options: Vec::new(),
            lto: None,
            working_dir: None,
            inputs: Vec::new(),
            libraries: Vec::new(),
            library_paths: Vec::new(),
        }
    }
    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }
    /// `-r`: a relocatable (incremental) link.
    pub fn relocatable(mut self, on: bool) -> Linker {
        self.relocatable = on;
        self
    }
    /// `--preserve-relocs`.
    pub fn preserve_relocs(mut self, on: bool) -> Linker {
        self.preserve_relocs = on;
        self
    }
    /// `-astoolspatch`: link patch code for CUDA tools (every input function compiled with
    /// ptxas's `-astoolspatch`; all of them stay).
    pub fn tools_patch(mut self, on: bool) -> Linker {
        self.tools_patch = on;
        self
    }
    /// `-g`: the inputs were compiled for debugging (PTX inputs are compiled with `-g`).
    pub fn debug(mut self, on: bool) -> Linker {
        self.debug = on;
        self
    }
    /// `-suppress-debug-info` (with `-g`): the image is linked as without `-g` (PTX compiled
    /// without `-g`, shared memory laid out and listed as without it, no exit fences of its
    /// own), except that no function is eliminated (observed).
    pub fn suppress_debug_info(mut self, on: bool) -> Linker {
        self.suppress_debug_info = on;
        self
    }
    /// Whether the image is a `-g` one: `-g` without `-suppress-debug-info`.
    fn debug_image(&self) -> bool {
        self.debug && !self.suppress_debug_info
    }
    /// `--kernels-used`: kernels whose name contains one of `patterns` are kept; others are dead.
    pub fn kernels_used(mut self, patterns: impl IntoIterator<Item = String>) -> Linker {
        self.kernels_used.extend(patterns);
        self
    }
    /// `--variables-used`: nvlink 13.5 keeps every variable whatever the patterns, but the
    /// option alone (without `--kernels-used`) selects no kernel, and so does elfw (observed).
    pub fn variables_used(mut self, patterns: impl IntoIterator<Item = String>) -> Linker {
        self.variables_used.extend(patterns);
        self
    }
    /// `--keep-system-libraries`: keep all of libcudadevrt, not only what is referenced.
    pub fn keep_system_libraries(mut self, on: bool) -> Linker {
        self.keep_system_libraries = on;
        self
    }

    /// `-ignore-host-info`: keep kernels no host object references. By default, when every
    /// input is a host object that lists the kernels its host code references (`.nvHRKE`, as
    /// `nvcc -dc` writes), only those kernels and what they reach stay, as in nvlink.
    pub fn ignore_host_info(mut self, on: bool) -> Linker {
        self.ignore_host_info = on;
        self
    }
    /// `-Werror`: warnings become errors (the link fails), as nvlink does it: the next host
    /// object, archive, fatbin or PTX file then stops the link with a fatal, an attribute
    /// check's warning fails the merge (`merge_elf failed`), a ptxas warning aborts the
    /// assembly, and a link that made its image still reports from it
    /// ([`Linked::report_image`]). Like `--disable-infos`, it holds only until the link's
    /// first PTX compile (nvlink's embedded ptxas resets both: observed).
    pub fn warnings_as_errors(mut self, on: bool) -> Linker {
        self.warnings_as_errors = on;
        self
    }
    /// `--suppress-arch-warning`: no `SM Arch ('sm_XX') not found in '...'` warning.
    pub fn suppress_arch_warning(mut self, on: bool) -> Linker {
        self.suppress_arch_warning = on;
        self
    }
    /// `--disable-infos`: as nvlink 13.5 has it, the link's warnings are dropped (so
    /// `-Werror` has none to turn into errors); its infos stay, as do the option parser's
    /// warnings (observed; `-w` drops nothing).
    pub fn disable_infos(mut self, on: bool) -> Linker {
        self.disable_infos = on;
        self
    }
    /// `--extra-warnings`: nvlink's extra warnings too (`Function '...' has address taken but
    /// no calls to it found`, from dead-code elimination).
    pub fn extra_warnings(mut self, on: bool) -> Linker {
        self.extra_warnings = on;
        self
    }
    /// `--suppress-stack-size-warning`: no `Stack size ... cannot be statically determined`.
    pub fn suppress_stack_size_warning(mut self, on: bool) -> Linker {
        self.suppress_stack_size_warning = on;
        self
    }
    /// `--register-link-binaries`: collect the registration names of
    /// [`InputReport::registrations`] (and give nvlink's info for inputs without host code).
    pub fn register_link_binaries(mut self, on: bool) -> Linker {
        self.register_link_binaries = on;
        self
    }
    /// Keep a copy of every device cubin in [`Linked::cubins`] (for reports over the inputs).
    pub fn keep_input_cubins(mut self, on: bool) -> Linker {
        self.keep_input_cubins = on;
        self
    }
    /// For a process that exits as soon as the link returns (the `elfw` command): the link's
    /// input maps and working structures are left for the exit to reclaim instead of being
    /// unmapped and freed one by one. Their memory stays in use until the process ends, so a
    /// program that links more than once must leave this off (the default).
    pub fn skip_teardown(mut self, on: bool) -> Linker {
        self.skip_teardown = on;
        self
    }
    /// Also report the merged call graph in [`Linked::callgraph`] (`--dump-callgraph`).
    pub fn callgraph(mut self, on: bool) -> Linker {
        self.want_callgraph = on;
        self
    }

    /// Also make the image of a link refused after its merge (undefined references, register
    /// or shared-memory limits) for the reports: [`Linked::report_image`], never written
    /// (`-v`: nvlink reports such a link's propagated registers and stack and its laid-out
    /// shared memory).
    pub fn refused_image(mut self, on: bool) -> Linker {
        self.want_refused_image = on;
        self
    }

    /// Also describe the link in [`Linked::map`]: output sections and their contributions,
    /// why each function stayed or went, weak contests (`--print-map`).
    pub fn link_map(mut self, on: bool) -> Linker {
        self.want_map = on;
        self
    }
    /// The linker's own `.note.nv.tkinfo` record (tool name, version, arguments).
    pub fn tool_record(mut self, record: ToolRecord) -> Linker {
        self.tool_record = Some(record);
        self
    }
    /// Link-time optimization (`-dlto`): LTO-IR is compiled with the toolkit's libnvvm (see
    /// [`crate::lto`]); the PTX it makes is compiled with [`Linker::ptxas`].
    pub fn link_time_optimization(mut self, lto: Option<LtoOptions>) -> Linker {
        self.lto = lto;
        self
    }

    /// The ptxas that compiles PTX inputs (none: PTX inputs fail with a message).
    pub fn ptxas(mut self, ptxas: Option<input::ptx::Ptxas>) -> Linker {
        self.ptxas = ptxas;
        self
    }
    /// Options for ptxas when PTX inputs are compiled, after those their fatbin entry carries
    /// (nvlink's `-Xptxas` words, then `-maxrregcount=N`).
    pub fn ptxas_options(mut self, options: impl IntoIterator<Item = String>) -> Linker {
        self.ptxas_options = options.into_iter().collect();
        self
    }
    /// The folder relative input paths and library folders are taken from (default: the
    /// process's current directory).
    pub fn working_dir(mut self, dir: impl Into<PathBuf>) -> Linker {
        self.working_dir = Some(dir.into());
        self
    }
    /// Adds a file input; its name in messages is the path as given.
    pub fn input_path(mut self, path: impl AsRef<Path>) -> Linker {
        let path = path.as_ref();
        self.inputs.push(LinkerInput::Path {
            path: path.to_path_buf(),
            name: path.display().to_string(),
        });
        self
    }
    /// Adds an input held in memory, shown in messages as `name`.
    pub fn input_bytes(mut self, name: impl Into<String>, data: impl Into<Vec<u8>>) -> Linker {
        self.inputs.push(LinkerInput::Bytes {
            name: name.into(),
            data: data.into(),
        });
        self
    }
    /// Adds an input of either kind.
    pub fn input(mut self, input: LinkerInput) -> Linker {
        self.inputs.push(input);
        self
    }
    /// `-l name`: the library `libname.a`, searched after all inputs.
    pub fn library(mut self, name: impl Into<String>) -> Linker {
        self.libraries.push(name.into());
        self
    }
    /// `-L dir`: a folder to search for libraries, in the order given.
    pub fn library_path(mut self, dir: impl Into<String>) -> Linker {
        self.library_paths.push(dir.into());
        self
    }

    fn resolve(&self, p: &Path) -> PathBuf {
        match &self.working_dir {
            Some(dir) if p.is_relative() => dir.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// The inputs in link order: the inputs as added, then each found library.
    pub fn link_order(&self) -> Vec<LinkerInput> {
        let mut all = self.inputs.clone();
        all.extend(self.found_libraries());
        all
    }

    /// The libraries found, in the order named.
    fn found_libraries(&self) -> Vec<LinkerInput> {
        let mut all = Vec::new();
        for lib in &self.libraries {
            let file = format!("lib{lib}.a");
            let found = self.library_paths.iter().find_map(|dir| {
                let shown = Path::new(dir).join(&file);
                self.resolve(&shown).is_file().then_some(shown)
            });
            if let Some(shown) = found {
                all.push(LinkerInput::Path {
                    name: shown.display().to_string(),
                    path: shown,
                });
            }
        }
        all
    }

    /// The name nvlink registers an input without host code under: `_` and the absolute
    /// path with every character other than a letter or digit made `_`.
    fn path_registration(&self, input: &LinkerInput) -> String {
        let shown = Path::new(input.name());
        let abs = match &self.working_dir {
            Some(dir) if shown.is_relative() => dir.join(shown),
            None if shown.is_relative() => std::env::current_dir()
                .map(|d| d.join(shown))
                .unwrap_or_else(|_| shown.to_path_buf()),
            _ => shown.to_path_buf(),
        };
        let text = abs.display().to_string().replace("/./", "/");
        text.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    }

    /// Runs the link.
    pub fn link(&self) -> Linked {
        self.link_inner(None)
    }

    /// Runs the link and writes the image to `w` as it is made, without holding it in memory
    /// ([`link::link_to`]); on success [`Linked::image`] is `Some` and empty. On failure `w`
    /// may have received part of an image: give it a temporary file and rename it on success.
    pub fn link_to(&self, w: &mut dyn std::io::Write) -> Linked {
        self.link_inner(Some(w))
    }

    fn link_inner(&self, sink: Option<&mut dyn std::io::Write>) -> Linked {
        let mut out = Linked::default();
        let mut messages = MessageSettings {
            disable_infos: self.disable_infos,
            warnings_as_errors: self.warnings_as_errors,
        };
        if let Some(info) = self.lto.as_ref().and_then(LtoOptions::emit_ptx_info) {
            out.diagnostics.push(Diagnostic::new(Severity::Info, info));
        }
        if self.preserve_relocs {
            if let Some(w) = preserve_relocs_warning(self.target) {
                messages.warn(&mut out, Diagnostic::new(Severity::Warning, w));
            }
        }
        let inputs_start = Instant::now();
        let libnvvm = match &self.lto {
            Some(l) => match Libnvvm::open(&l.nvvmpath) {
                Ok(lib) => Some(lib),
                Err(_) => {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Fatal,
                        "elfLink linker library load error",
                    ));
                    return out;
                }
            },
            None => None,
        };
        let load_opts = LoadOptions {
            target: self.target.sm_arch(),
            lto: self.lto.is_some(),
            // (`-suppress-debug-info`: PTX is compiled without `-g`, observed: the embedded
            // ptxas records `-O 1 -arch sm_90 -m 64 -c` and takes `-O1` code.)
            debug: self.debug_image(),
            ptxas: self.ptxas.clone(),
            ptxas_options: self.ptxas_options.clone(),
        };
        let libraries = self.found_libraries();
        let order: Vec<&LinkerInput> = self.inputs.iter().chain(&libraries).collect();

        // Inputs are opened (memory-mapped) and loaded on rayon's threads, each with its own
        // store; what that yields is then taken in link order below, so the first input
        // nvlink would stop at still decides the messages, whatever the thread count.
        // (Whether a file is an archive is read there too: the first read of a mapped file
        // maps its first page in, which on a large link is one fault per input.)
        let files: Vec<Option<(input::FileBytes, bool)>> = order
            .par_iter()
            .map(|item| match item {
                LinkerInput::Bytes { .. } => None,
                LinkerInput::Path { path, .. } => {
                    input::FileBytes::open(&self.resolve(path)).ok().map(|f| {
                        let archive = input::archive::is_archive(f.bytes());
                        (f, archive)
                    })
                }
            })
            .collect();
        let mut opened: Vec<Opened<'_>> = Vec::with_capacity(order.len());
        let mut seen_archives: Vec<PathBuf> = Vec::new();
        for (item, file) in order.iter().zip(&files) {
            opened.push(match (item, file) {
                (LinkerInput::Bytes { data, .. }, _) => Opened::Data(data),
                (LinkerInput::Path { .. }, None) => Opened::CannotOpen,
                (LinkerInput::Path { path, .. }, Some((file, archive))) => {
                    let d = file.bytes();
                    if !d.is_empty() && d.len() < 56 {
                        Opened::CannotOpen
                    } else if *archive {
                        let full = self.resolve(path);
                        let canon = std::fs::canonicalize(&full).unwrap_or(full);
                        if seen_archives.contains(&canon) {
                            Opened::Duplicate
                        } else {
                            seen_archives.push(canon);
                            Opened::Data(d)
                        }
                    } else {
                        Opened::Data(d)
                    }
                }
            });
        }
        let mut stores: Vec<input::InputStore> =
            order.iter().map(|_| input::InputStore::new()).collect();
        let mut results: Vec<Option<Result<input::LoadedInputs<'_>, input::InputError>>> = stores
            .par_iter_mut()
            .zip(order.par_iter().zip(opened.par_iter()))
            .map(|(store, (item, opened))| {
                let store: &input::InputStore = store;
                match opened {
                    Opened::Data(d) => Some(input::load_bytes(store, item.name(), d, &load_opts)),
                    Opened::CannotOpen | Opened::Duplicate => None,
                }
            })
            .collect();

        // nvlink adds each LTO-IR module to libnvvm's program as it reads its input: a module
        // libnvvm refuses stops the link there (observed: inputs after it say nothing).
        let mut program = None;
        let lto_store = input::InputStore::new();
        let mut cubins = Vec::new();
        let mut host_refs = input::HostRefs::default();
        let mut lto_modules: Vec<input::LtoModule<'_>> = Vec::new();
        let mut host_references = Vec::new();
        let mut last_unit_system = None;
        let mut not_built_for_lto = false;
        // libcudadevrt must come after every input with device code not built for LTO, once
        // some device code came before it (see below).
        let mut device_code_seen = false;
        let mut after_cudadevrt = false;
        // libcudadevrt's registrations, by input report: nvlink registers its module when
        // the link uses its code (observed: not when nothing calls into it, nor under LTO).
        let mut system_registrations: Vec<(usize, Vec<String>)> = Vec::new();
        let mut unexpected_after_cudadevrt = false;
        for (i, item) in order.iter().enumerate() {
            let name = item.name().to_string();
            match opened[i] {
                Opened::CannotOpen => {
                    out.diagnostics.push(
                        Diagnostic::new(
                            Severity::Fatal,
                            format!("Could not open input file '{name}'"),
                        )
                        .in_file(name),
                    );
                    return out;
                }
                Opened::Duplicate => {
                    out.inputs.push(InputReport {
                        name,
                        cubins: 0,
                        registrations: Vec::new(),
                        duplicate: true,
                    });
                    continue;
                }
                Opened::Data(d) => {
                    // A container reached once an error is counted stops the link.
                    if let Some(c) = input::container(&name, d) {
                        if out.has_errors() {
                            out.diagnostics
                                .push(Diagnostic::new(Severity::Fatal, c.fatal_after_errors()));
                            return out;
                        }
                    }
                }
            }
            let loaded = match results[i].take().expect("every opened input is loaded") {
                Ok(l) => l,
                Err(e) => {
                    let lines = e.nvlink_diagnostics();
                    if lines.is_empty() {
                        out.diagnostics.push(
                            Diagnostic::new(Severity::Fatal, e.to_string()).in_file(e.name.clone()),
                        );
                    }
                    for (sev, msg) in lines {
                        let sev = match sev {
                            input::Severity::Warning => Severity::Warning,
                            input::Severity::Error => Severity::Error,
                            input::Severity::Fatal => Severity::Fatal,
                            input::Severity::Verbatim => Severity::Verbatim,
                        };
                        messages.warn(&mut out, Diagnostic::new(sev, msg).in_file(e.name.clone()));
                    }
                    return out;
                }
            };
            for w in &loaded.warnings {
                match &w.kind {
                    WarningKind::Ignored(_) => out.ignored.push(w.clone()),
                    WarningKind::ArchNotFound { .. } if self.suppress_arch_warning => {}
                    WarningKind::PtxasMessages(lines) => {
                        // `--disable-infos` drops ptxas's warnings too (not its infos), and
                        // `-Werror` makes them errors that abort the assembly (observed).
                        if !messages.pass_ptxas_lines(&mut out, lines, Some(&w.name)) {
                            return out;
                        }
                        // The embedded ptxas leaves nvlink's message settings at its own
                        // defaults: from the first PTX compile on, neither option holds, for
                        // ptxas or the link (observed: a later input's missing SM, later
                        // stack-size warnings and later compiles' warnings are plain warnings).
                        messages = MessageSettings::default();
                    }
                    WarningKind::NotBuiltForLto => {
                        not_built_for_lto = true;
                        if let Some(text) = w.nvlink_text() {
                            out.diagnostics.push(
                                Diagnostic::new(Severity::Info, text).in_file(w.name.clone()),
                            );
                        }
                    }
                    _ => {
                        let Some(mut text) = w.nvlink_text() else {
                            continue;
                        };
                        // A virtual target is named as given (observed: `SM Arch
                        // ('compute_80') not found`).
                        if matches!(w.kind, WarningKind::ArchNotFound { .. })
                            && self.target.kind == ArchKind::Compute
                        {
                            text = format!("SM Arch ('{}') not found in '{}'", self.target, w.name);
                        }
                        // (nvlink checks these attributes as it merges the cubin: as
                        // errors they fail that merge.)
                        let merge_check = matches!(
                            w.kind,
                            WarningKind::LimitedToArch { .. } | WarningKind::IsaClassMissing { .. }
                        );
                        let severity = match w.kind {
                            WarningKind::UncompressFailed => Severity::UncountedError,
                            _ => Severity::Warning,
                        };
                        messages.warn(
                            &mut out,
                            Diagnostic::new(severity, text).in_file(w.name.clone()),
                        );
                        if merge_check && messages.warnings_as_errors {
                            out.diagnostics
                                .push(Diagnostic::new(Severity::Fatal, "merge_elf failed"));
                            return out;
                        }
                    }
                }
            }
            let mut registrations = Vec::new();
            if self.register_link_binaries {
                let system = Path::new(&name)
                    .file_name()
                    .is_some_and(|f| f.to_string_lossy().contains("cudadevrt"));
                if !loaded.module_ids.is_empty() {
                    let ids = loaded
                        .module_ids
                        .iter()
                        .map(|m| String::from_utf8_lossy(m).into_owned());
                    if system {
                        // Registered only when the link takes its code (below).
                        system_registrations.push((out.inputs.len(), ids.collect()));
                    } else {
                        registrations.extend(ids);
                    }
                } else if !loaded.cubins.is_empty()
                    || loaded.lto_modules.iter().any(|m| m.options.is_some())
                {
                    // (A fatbin file's LTO-IR gets the info but no registration; an NVVM IR
                    // file neither: observed.)
                    out.diagnostics.push(
                        Diagnostic::new(
                            Severity::Info,
                            format!(
                                "Input '{name}' has no host code, which could cause later host link error if there is a reference to it"
                            ),
                        )
                        .in_file(name.clone()),
                    );
                    if !loaded.cubins.is_empty() {
                        registrations.push(self.path_registration(item));
                    }
                }
            }
            out.inputs.push(InputReport {
                name: name.clone(),
                cubins: loaded.cubins.len(),
                registrations,
                duplicate: false,
            });
            host_refs.extend(loaded.host_refs);
            let user_cubins = loaded.cubins.iter().any(|c| !c.system_library);
            cubins.extend(loaded.cubins);
            if let Some(libnvvm) = &libnvvm {
                for m in &loaded.lto_modules {
                    let added = match &mut program {
                        Some(p) => Ok(p),
                        None => libnvvm.program().map(|p| program.insert(p)),
                    }
                    .and_then(|p| {
                        p.add(&lto::libnvvm::Module {
                            name: &m.name,
                            ir: m.ir,
                        })
                    });
                    if added.is_err() {
                        out.diagnostics
                            .push(Diagnostic::new(Severity::Fatal, "elfLink nvvm error"));
                        return out;
                    }
                }
            }
            lto_modules.extend(loaded.lto_modules);
            let user_fatbin_objects = loaded.host_references.iter().any(|(system, _)| !system);
            let system_objects = loaded.host_references.iter().any(|(system, _)| *system);
            unexpected_after_cudadevrt |= after_cudadevrt && user_cubins;
            after_cudadevrt |= system_objects && device_code_seen;
            device_code_seen |= user_cubins || user_fatbin_objects;
            host_references.extend(loaded.host_references);
            if loaded.last_unit_system.is_some() {
                last_unit_system = loaded.last_unit_system;
            }
        }
        // Errors counted while reading the inputs (warnings as errors) end the link here.
        if out.has_errors() {
            out.ended_after_inputs = true;
            return out;
        }
        // A virtual target (`compute_XX`, nvcc's PTX-only `-gencode`): nvlink reads the inputs
        // and links nothing, with no image written and no undefined or multiply defined
        // symbol reported, every module registered, libcudadevrt's too (observed).
        if self.target.kind == ArchKind::Compute && lto_modules.is_empty() {
            register(&mut out, system_registrations);
            return out;
        }
        // Link-time optimization: libnvvm compiles the LTO-IR; a whole program is the image
        // itself, a partial one is linked first as `lto.cubin`.
        let mut lto_compiled = false;
        // A partial LTO libnvvm chose (not one forced by an object not built for LTO or `-r`).
        let mut lto_partial_chosen = false;
        if let (Some(lto_opts), Some(_)) = (&self.lto, &libnvvm) {
            if lto_modules.is_empty() {
                messages.warn(
                    &mut out,
                    Diagnostic::new(
                        Severity::Warning,
                        "Ignoring -dlto option because no LTO objects found",
                    ),
                );
                // (Under `-Werror` the merge that met it fails: observed.)
                if messages.warnings_as_errors {
                    out.diagnostics
                        .push(Diagnostic::new(Severity::Fatal, "merge_elf failed"));
                }
                if out.status() != 0 {
                    return out;
                }
            } else {
                let lto_force_partial = self.relocatable || not_built_for_lto;
                lto_compiled = true;
                let refs = if !self.kernels_used.is_empty() || !self.variables_used.is_empty() {
                    lto::HostRefOptions::from_used(&self.kernels_used, &self.variables_used)
                } else {
                    lto::HostRefOptions::from_objects(&host_references)
                };
                // Every module from a fatbin must have been compiled with the same
                // floating-point options as the first (NVVM IR files carry none).
                // Modules built with and without `-lineinfo` (`-generate-line-info` in the entry's
                // options): nvlink says so before anything else it checks in the options
                // (observed: before a `-ftz` mismatch's fatal, in either input order, and
                // under `-r`), and the image is the one it would make anyway.
                let line_info: Vec<bool> = lto_modules
                    .iter()
                    .filter_map(|m| m.options)
                    .map(lto::generates_line_info)
                    .collect();
                if line_info.contains(&true) && line_info.contains(&false) {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Info,
                        "Some objects do not have '-lineinfo' specified but others do; \
                         will build everything with '-lineinfo'",
                    ));
                }
                // The modules' register caps (`-maxreg N` in the entry's options), unless the
                // link gives its own: checked over every module before the floating-point
                // options (observed).
                let mut lto_opts = lto_opts.clone();
                if lto_opts.maxrregcount.is_none() {
                    match lto::ModuleMaxreg::of(lto_modules.iter().filter_map(|m| m.options)) {
                        lto::ModuleMaxreg::None => {}
                        lto::ModuleMaxreg::All(n) => lto_opts.maxrregcount = Some(n),
                        lto::ModuleMaxreg::Some(n) => {
                            out.diagnostics.push(Diagnostic::new(
                                Severity::Info,
                                format!(
                                    "Some objects do not have '-maxrregcount' specified but \
                                     others do; will build everything with '-maxrregcount={n}'"
                                ),
                            ));
                            lto_opts.maxrregcount = Some(n);
                        }
                        lto::ModuleMaxreg::Mismatch => {
                            out.diagnostics.push(Diagnostic::new(
                                Severity::Fatal,
                                "Cicc option values for '-maxrregcount' do not match",
                            ));
                            return out;
                        }
                    }
                }
                let lto_opts = &lto_opts;
                let mut cicc: Option<lto::CiccOptions> = None;
                for options in lto_modules.iter().filter_map(|m| m.options) {
                    let these = lto::CiccOptions::parse(options);
                    match &cicc {
                        None => cicc = Some(these),
                        Some(first) => {
                            if let Some(name) = first.mismatch(&these) {
                                out.diagnostics.push(Diagnostic::new(
                                    Severity::Fatal,
                                    format!("Cicc option values for '{name}' do not match"),
                                ));
                                return out;
                            }
                        }
                    }
                }
                // `-v2`: nvlink's stage lines around libnvvm's own (observed: before the
                // split-compile info, and the ptxas one even under `-emit-ptx`).
                if lto_opts.verbose2 {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Verbatim,
                        " Running nvlink cicc-lto",
                    ));
                }
                let (split, split_info) = lto_opts.nvvm_split();
                if let Some(info) = split_info {
                    out.diagnostics.push(Diagnostic::new(Severity::Info, info));
                }
                let options = lto::nvvm_options(&lto::NvvmOptionInputs {
                    target: self.target.sm_arch(),
                    maxrregcount: lto_opts.maxrregcount,
                    partial: !cubins.is_empty(),
                    force_partial: lto_force_partial,
                    debug: self.debug_image(),
                    // (`-kernels-used`/`-variables-used` are passed even under
                    // `-ignore-host-info`, which drops the host objects' lists: observed.)
                    host_info: !self.ignore_host_info
                        || !self.kernels_used.is_empty()
                        || !self.variables_used.is_empty(),
                    host_refs: &refs,
                    split: split.as_deref(),
                    xnvvm: &lto_opts.xnvvm,
                    cicc: &cicc.unwrap_or_default(),
                    fast_compile: lto_opts.fast_compile_level(),
                    nvvm_latest: lto_opts.nvvm_latest,
                });
                let Some(program) = program.as_mut() else {
                    // (Unreachable: every module was added to the program.)
                    out.diagnostics
                        .push(Diagnostic::new(Severity::Fatal, "elfLink nvvm error"));
                    return out;
                };
                if lto_opts.verbose2 {
                    if let Err(e) = program.report_progress() {
                        out.diagnostics
                            .push(Diagnostic::new(Severity::Fatal, e.to_string()));
                        return out;
                    }
                }
                let compiled = program.compile(&options);
                for line in program.take_progress() {
                    push_verbatim(&mut out, &line, None);
                }
                let compiled = match compiled {
                    Ok(c) => c,
                    Err(e) => {
                        out.diagnostics
                            .push(Diagnostic::new(Severity::Info, e.to_string()));
                        out.diagnostics.push(Diagnostic::new(
                            Severity::Fatal,
                            "elfLink JIT compile failed",
                        ));
                        return out;
                    }
                };
                // libnvvm's log of a compile that worked is shown as it is (observed).
                if !compiled.log.is_empty() {
                    out.diagnostics
                        .push(Diagnostic::new(Severity::Info, compiled.log.clone()));
                }
                if lto_opts.verbose2 {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Verbatim,
                        " Running nvlink ptxas-lto",
                    ));
                }
                // (A forced partial LTO stays partial whatever libnvvm says: observed with
                // `-r`, where libnvvm answers 100 too.)
                // (Several PTX modules, from -split-compile-extended, are each compiled as
                // relocatable code and linked, however libnvvm answered: observed, nvlink's
                // image then has its own record and one ptxas record per module, and no
                // libcudadevrt check.)
                let whole = compiled.status == lto::libnvvm::WHOLE_PROGRAM
                    && !lto_force_partial
                    && compiled.module_sizes.len() <= 1;
                if lto_opts.emit_ptx {
                    // `-emit-ptx`: libnvvm's PTX is the output, whole or partial (other
                    // device code is left out), with no .reg.c and no libcudadevrt check.
                    out.emitted_ptx = true;
                    out.times.phases.push(("inputs", inputs_start.elapsed()));
                    deliver_image(&mut out, sink, compiled.ptx);
                    return out;
                }
                let Some(ptxas) = &self.ptxas else {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Fatal,
                        input::ptx::PtxError::PtxasNotFound {
                            looked: "nowhere: no ptxas configured".into(),
                        }
                        .to_string(),
                    ));
                    return out;
                };
                let args = lto::ptxas_arguments(
                    self.target.sm_arch(),
                    self.debug_image(),
                    lto_opts,
                    whole,
                );
                let mut lto_cubins = Vec::new();
                let mut start = 0usize;
                for size in &compiled.module_sizes {
                    let end = (start + size).min(compiled.ptx.len());
                    let ptx = &compiled.ptx[start..end];
                    start = end;
                    let cubin = match input::ptx::compile_with_arguments(ptxas, ptx, &args) {
                        Ok(c) => c,
                        // nvlink's embedded ptxas prints its lines, then nvlink gives up
                        // (observed with a bad -Xptxas option).
                        Err(input::ptx::PtxError::Failed { stderr, .. }) => {
                            for l in stderr.lines() {
                                out.diagnostics.push(Diagnostic::new(Severity::Verbatim, l));
                            }
                            out.diagnostics
                                .push(Diagnostic::new(Severity::Fatal, "elfLink fatbinary error"));
                            return out;
                        }
                        Err(e) => {
                            out.diagnostics
                                .push(Diagnostic::new(Severity::Fatal, e.to_string()));
                            return out;
                        }
                    };
                    // The link's ptxas sees `--disable-infos` and `-Werror` as an input's
                    // PTX compile does (observed), unless a PTX input's compile reset them.
                    if !messages.pass_ptxas_lines(&mut out, &cubin.messages, None) {
                        return out;
                    }
                    // (And resets them, as a PTX input's compile does: observed, later
                    // stack-size warnings stay warnings.)
                    messages = MessageSettings::default();
                    if whole {
                        if out.status() != 0 {
                            return out;
                        }
                        out.whole_program_lto = true;
                        // nvlink writes the image, then looks for libcudadevrt as the last
                        // host object with device code (to drop it) and gives up when another
                        // one is last; with no such object at all (only fatbin or NVVM IR
                        // files, or plain host objects) it says nothing: observed.
                        if last_unit_system == Some(false) {
                            out.diagnostics.push(Diagnostic::new(
                                Severity::Fatal,
                                "expected libcudadevrt object",
                            ));
                        }
                        out.times.phases.push(("inputs", inputs_start.elapsed()));
                        deliver_image(&mut out, sink, cubin.cubin);
                        return out;
                    }
                    let data = lto_store.keep(cubin.cubin);
                    let lto_load_opts = LoadOptions {
                        lto: false,
                        ..load_opts.clone()
                    };
                    match input::load_bytes(&lto_store, "lto.cubin", data, &lto_load_opts) {
                        Ok(loaded) => {
                            for mut c in loaded.cubins {
                                c.origin = input::Origin::CompiledPtx {
                                    ptx_target: input::ptx::ptx_target(ptx),
                                };
                                lto_cubins.push(c);
                            }
                        }
                        Err(e) => {
                            out.diagnostics
                                .push(Diagnostic::new(Severity::Fatal, e.to_string()));
                            return out;
                        }
                    }
                }
                lto_partial_chosen = !lto_force_partial;
                lto_cubins.append(&mut cubins);
                cubins = lto_cubins;
            }
        }
        // nvlink drops what is not referenced from libcudadevrt at the end of its list of
        // objects, and gives up when an object with device code not built for LTO follows
        // libcudadevrt there (observed, with and without -dlto, -r included): libcudadevrt
        // counts once an input with device code (a cubin, a fatbin, a host object with a
        // fatbin, LTO-IR included) came before it; fatbin and NVVM IR files holding only
        // LTO-IR, and host objects without device code, count neither before nor after.
        // `-keep-system-libraries` keeps libcudadevrt whole and skips this.
        // (It looks after the merge: a merge that fails, say an object given twice, fails
        // the link with its own messages first: observed, sm_90 `dp.o libcudadevrt.a dp.o`.)
        let unexpected_after_cudadevrt = unexpected_after_cudadevrt && !self.keep_system_libraries;
        if self.keep_input_cubins {
            out.cubins = cubins
                .iter()
                .map(|c| KeptCubin {
                    name: c.name.clone(),
                    data: c.data.to_vec(),
                })
                .collect();
        }
        let mut opts = LinkOptions::new(self.target);
        opts.system_library = cubins.iter().map(|c| c.system_library).collect();
        opts.compiled_ptx = cubins
            .iter()
            .map(|c| matches!(c.origin, crate::input::Origin::CompiledPtx { .. }))
            .collect();
        // `nvcc -ewp` objects are typed 0xff00 rather than ET_REL (observed).
        opts.whole_program_inputs = cubins
            .iter()
            .any(|c| c.elf.header().e_type == crate::link::merge::ET_WHOLE_PROGRAM);
        opts.merge_warnings_as_errors = messages.warnings_as_errors;
        let objects: Vec<InputObject<'_>> = cubins
            .into_iter()
            .map(|c| InputObject {
                name: c.name,
                elf: c.elf,
            })
            .collect();
        opts.relocatable = self.relocatable;
        opts.preserve_relocs = self.preserve_relocs;
        opts.tools_patch = self.tools_patch;
        opts.kernels_used = self.kernels_used.clone();
        opts.variables_used = self.variables_used.clone();
        // Host references decide which kernels stay unless told otherwise (`-kernels-used` and
        // `-variables-used` take precedence, observed) or an input does not list them.
        // (Under LTO the host references went to libnvvm; the merge keeps every kernel, even
        // in a forced partial LTO: observed.)
        let by_host = !self.ignore_host_info
            && self.kernels_used.is_empty()
            && self.variables_used.is_empty()
            && host_refs.complete();
        let host_kernels = || {
            host_refs
                .kernels
                .iter()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect()
        };
        if by_host && !lto_compiled {
            opts.host_kernels = Some(host_kernels());
        } else if by_host && lto_partial_chosen {
            // In a partial LTO libnvvm chose, the kernels the host code does not reference
            // are held apart as `--kernels-used` holds those it leaves out, though none is
            // demoted (observed, sm_90 `nvcc -dlto` of a kernel launching another: no
            // `.nv.shared.<k>` name for the launched one; a forced partial LTO keeps the names).
            opts.lto_host_kernels = Some(host_kernels());
        }
        opts.debug = self.debug_image();
        opts.extra_warnings = self.extra_warnings;
        // (Only with `-g`: the option alone is nvlink's conflict, refused by the CLI.)
        opts.suppress_debug_info = self.debug && self.suppress_debug_info;
        opts.input_names = objects.iter().map(|o| o.name.clone()).collect();
        opts.keep_system_libraries = self.keep_system_libraries;
        opts.skip_teardown = self.skip_teardown;
        if let Some(r) = &self.tool_record {
            opts.tool_record = r.clone();
        }
        let inputs_time = inputs_start.elapsed();
        let link_start = Instant::now();
        opts.want_map = self.want_map;
        opts.want_callgraph = self.want_callgraph;
        opts.want_refused_image = self.want_refused_image;
        let result = match sink {
            _ if unexpected_after_cudadevrt => match link::link(&objects, &opts) {
                Err(f)
                    if f.diagnostics
                        .iter()
                        .any(|d| d.message == "merge_elf failed") =>
                {
                    Err(f)
                }
                _ => {
                    out.diagnostics.push(Diagnostic::new(
                        Severity::Fatal,
                        "unexpected object after cudadevrt",
                    ));
                    return out;
                }
            },
            Some(w) => link::link_to(&objects, &opts, w),
            None => link::link(&objects, &opts),
        };
        let (image, diags, times) = match result {
            Ok(o) => {
                out.map = o.map;
                out.callgraph = o.callgraph;
                let system_used = o
                    .merged_inputs
                    .iter()
                    .zip(&opts.system_library)
                    .any(|(&merged, &system)| merged && system);
                if system_used {
                    register(&mut out, std::mem::take(&mut system_registrations));
                }
                // A libcudadevrt the link dropped is not among the cubins it took (observed:
                // `--dump-callgraph` lists none of its functions then).
                if out.cubins.len() == o.merged_inputs.len() {
                    let mut i = 0;
                    out.cubins.retain(|_| {
                        let keep = o.merged_inputs[i] || !opts.system_library[i];
                        i += 1;
                        keep
                    });
                }
                (Some(o.image), o.diagnostics, o.times)
            }
            Err(f) => {
                // A link that fails has not dropped libcudadevrt yet: its module stays
                // registered (observed: nvlink's `.reg.c` after undefined references).
                register(&mut out, std::mem::take(&mut system_registrations));
                out.callgraph = f.callgraph;
                (f.image, f.diagnostics, PhaseTimes::default())
            }
        };
        let link_time = link_start.elapsed();
        let phased: Duration = times.phases.iter().map(|(_, d)| *d).sum();
        out.times.phases.push(("inputs", inputs_time));
        out.times.phases.extend(times.phases);
        out.times
            .phases
            .push(("teardown", link_time.saturating_sub(phased)));
        for d in diags.into_vec() {
            if self.suppress_stack_size_warning
                && d.severity == Severity::Warning
                && d.message.starts_with(STACK_SIZE_WARNING)
            {
                continue;
            }
            messages.warn(&mut out, d);
        }
        match out.status() {
            0 => out.image = image,
            255 => out.report_image = image,
            _ => {}
        }
        if self.skip_teardown {
            // Nothing below borrows from these any more; the process's exit reclaims them.
            std::mem::forget(opts);
            std::mem::forget(objects);
            std::mem::forget(results);
            std::mem::forget(stores);
            std::mem::forget(files);
        }
        out
    }
}

/// How the link's warnings are treated at a point of the link: `--disable-infos` and
/// `-Werror` as given, until the first PTX compile resets both.
#[derive(Clone, Copy, Debug, Default)]
struct MessageSettings {
    disable_infos: bool,
    warnings_as_errors: bool,
}

impl MessageSettings {
    /// Records `d`, as an error when warnings are errors (a warning not at all under
    /// `--disable-infos`).
    fn warn(&self, out: &mut Linked, mut d: Diagnostic) {
        if d.severity == Severity::Warning && self.disable_infos {
            return;
        }
        if d.severity == Severity::Warning && self.warnings_as_errors {
            d.severity = Severity::Error;
        }
        out.diagnostics.push(d);
    }
}

impl MessageSettings {
    /// Passes ptxas's `lines` on (from the compile of `file`'s PTX) as the settings have
    /// them: without warnings under `--disable-infos`; under `-Werror`, warnings become
    /// errors that abort the assembly, and nvlink gives up (`false`; observed). `file` is
    /// the input whose PTX it was (none for the link's own LTO compile).
    fn pass_ptxas_lines(&self, out: &mut Linked, lines: &str, file: Option<&str>) -> bool {
        if self.disable_infos {
            push_verbatim(out, &drop_ptxas_warnings(lines), file);
        } else if let Some(text) = self
            .warnings_as_errors
            .then(|| input::ptx::warnings_as_errors(lines))
            .flatten()
        {
            push_verbatim(out, &text, file);
            out.diagnostics
                .push(Diagnostic::new(Severity::Fatal, "elfLink fatbinary error"));
            return false;
        } else {
            push_verbatim(out, lines, file);
        }
        true
    }
}

/// Adds libcudadevrt's module registrations (by input report) to their reports.
fn register(out: &mut Linked, registrations: Vec<(usize, Vec<String>)>) {
    for (report, ids) in registrations {
        out.inputs[report].registrations.extend(ids);
    }
}

/// ptxas's `lines` without the warnings `--disable-infos` drops.
fn drop_ptxas_warnings(lines: &str) -> String {
    lines
        .lines()
        .filter(|l| !input::ptx::is_settable_warning(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Each of ptxas's `lines` as printed, as nvlink passes them on.
fn push_verbatim(out: &mut Linked, lines: &str, file: Option<&str>) {
    for l in lines.lines() {
        let d = Diagnostic::new(Severity::Verbatim, l);
        out.diagnostics.push(match file {
            Some(f) => d.in_file(f),
            None => d,
        });
    }
}

/// Whether `data` is a device ELF (a cubin), for callers sorting inputs.
pub fn is_cubin(data: &[u8]) -> bool {
    ElfFile::parse(data).is_ok_and(|e| e.header().machine == crate::elf::consts::EM_CUDA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libraries_come_after_inputs_and_missing_ones_are_skipped() {
        let dir = std::env::temp_dir().join(format!("elfw-linker-order-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("d")).unwrap();
        std::fs::write(dir.join("d/libx.a"), b"!<arch>\n").unwrap();
        let l = Linker::new(Target::sm(90))
            .working_dir(&dir)
            .library("x")
            .library("missing")
            .input_path("a.cubin")
            .library_path("nowhere")
            .library_path("d");
        let names: Vec<String> = l
            .link_order()
            .iter()
            .map(|i| i.name().to_string())
            .collect();
        assert_eq!(names, ["a.cubin", "d/libx.a"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_first_failing_input_in_link_order_decides_the_message() {
        // Inputs are opened and loaded on several threads; the messages must still be those
        // of the first input nvlink would stop at.
        let dir = std::env::temp_dir().join(format!("elfw-linker-first-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("short.cubin"), b"tiny").unwrap();
        std::fs::write(dir.join("text.cubin"), [b'x'; 100]).unwrap();
        let first = |names: &[&str]| {
            let mut l = Linker::new(Target::sm(90)).working_dir(&dir);
            for n in names {
                l = l.input_path(n);
            }
            let r = l.link();
            assert!(r.image.is_none());
            r.diagnostics[0].message.clone()
        };
        let text_error = first(&["text.cubin"]);
        assert!(text_error.contains("text.cubin") || text_error.contains("elf"));
        for _ in 0..8 {
            assert_eq!(
                first(&["short.cubin", "text.cubin", "missing.cubin"]),
                "Could not open input file 'short.cubin'"
            );
            assert_eq!(first(&["text.cubin", "short.cubin"]), text_error);
            assert_eq!(
                first(&["missing.cubin", "text.cubin"]),
                "Could not open input file 'missing.cubin'"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_input_is_fatal_with_nvlink_text() {
        let r = Linker::new(Target::sm(90))
            .working_dir(std::env::temp_dir())
            .input_path("elfw-no-such-file.cubin")
            .link();
        assert_eq!(r.status(), 1);
        assert!(r.image.is_none());
        assert_eq!(
            r.diagnostics[0].message,
            "Could not open input file 'elfw-no-such-file.cubin'"
        );
    }
}
