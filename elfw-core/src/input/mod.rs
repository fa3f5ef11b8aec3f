//! Reading everything nvlink reads: cubins, host objects with fatbins, fatbin files, archives
//! and PTX, recognised as nvlink recognises them, in nvlink's order.
//!
//! How nvlink 13.5.37 dispatches an input (each row run on real files; "skip" = silently
//! ignored, reported by elfw as an [`InputWarning`]):
//!
//! | condition (checked in this order) | nvlink |
//! |---|---|
//! | missing file, directory, 1..=55 bytes | fatal `Could not open input file '%s'` |
//! | 0 bytes; a name without extension | skip |
//! | name `*.nvvm`, `*.ltoir` | with `-dlto`: an LTO-IR module as it is (libnvvm judges it: `elfLink nvvm error` when it refuses it); else fatal `should only see nvvm files when -lto` |
//! | name `*.bc` | fatal `should never see bc files` |
//! | name `*.cubin` | not ELF: fatal `cubin not an elf?`; not EM_CUDA: fatal `cubin not a device elf?`; else cubin |
//! | name `*.fatbin` | no magic: fatal `fatbin wrong format?`; else fatbin |
//! | name `*.ptx` | fatbin, cubin or PTX by content (PTX skipped for targets before sm_90); else error `Can't load this binary kind, as it's not recognized` + fatal `elfLink fatbinary error` |
//! | archive magic (any other name, `.so` included) | archive |
//! | name `*.so` | skip |
//! | ELF, name `*.o`, EM_CUDA | cubin |
//! | other ELF `ET_REL` (any extension: `.o`, `.a`, `.bin` ...) | host object ([`host`]) |
//! | anything else (text, fatbin or PTX named `.o` ...) | skip |
//!
//! A cubin whose section table or data lie outside the file is skipped silently. In archives
//! only host objects count: plain cubin members are skipped (their symbols stay undefined), as
//! are members of any other kind. An archive whose file name contains `cudadevrt` is a system
//! library: nvlink keeps only what is referenced from it, even under `-r`, unless
//! `-keep-system-libraries` (a copy of libcudadevrt.a named libfoo.a loads whole; a user
//! archive renamed libcudadevrt.a is trimmed). Empty archives contribute nothing.
//! Cubins are checked against the target: see [`InputErrorKind`] for the messages.

pub mod archive;
mod error;
pub mod fatbin;
pub mod host;
pub mod ptx;
pub mod scramble;

pub use error::{IgnoreReason, InputError, InputErrorKind, InputWarning, Severity, WarningKind};

use crate::elf::arch::{
    ArchMismatch, DeviceFlags, DEVICE_ABI_VERSION, OLDEST_TOOLKIT_VERSION, TOOLKIT_VERSION,
};
use crate::elf::consts::*;
use crate::elf::{ElfError, ElfFile, SmArch};
use std::path::{Path, PathBuf};

/// One input as given on the command line.
#[derive(Clone, Debug)]
pub enum InputSource {
    /// A file; its display name is the path as given.
    Path(PathBuf),
    /// Bytes already in memory, with the name to show in messages.
    Bytes {
        /// The display name (its extension matters, as for files).
        name: String,
        /// The content.
        data: Vec<u8>,
    },
}

/// How to load.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// The `-arch` target.
    pub target: SmArch,
    /// `-dlto`/`-lto`: a fatbin's LTO-IR for the target becomes an [`LtoModule`] (taken before
    /// any cubin or PTX entry of that fatbin), and every other device code is reported as not
    /// built for LTO.
    pub lto: bool,
    /// `-g`: PTX is compiled with debug information.
    pub debug: bool,
    /// The ptxas to compile PTX with; `None` makes PTX inputs fail with a message that says
    /// what to install.
    pub ptxas: Option<ptx::Ptxas>,
    /// Options for that ptxas from the link itself (nvlink's `-Xptxas` words, then its
    /// `-maxrregcount`), after the fatbin entry's own.
    pub ptxas_options: Vec<String>,
}

/// Where a cubin came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A cubin file (or an archive member? never: nvlink takes no cubin members).
    Cubin,
    /// A fatbin cubin entry (from a fatbin file or a host object).
    FatbinCubin {
        /// The entry's architecture.
        entry_arch: SmArch,
    },
    /// PTX compiled by ptxas (a `.ptx` file or a fatbin PTX entry).
    CompiledPtx {
        /// The PTX `.target`, when readable.
        ptx_target: Option<SmArch>,
    },
}

/// One device cubin to link.
#[derive(Clone, Debug)]
pub struct InputCubin<'s> {
    /// Display name: the path as given, `lib.a:member.o` inside archives.
    pub name: String,
    /// The cubin bytes: borrowed from the input's memory map when stored plainly.
    pub data: &'s [u8],
    /// The parsed and validated ELF.
    pub elf: ElfFile<'s>,
    /// Where it came from.
    pub origin: Origin,
    /// From a system library (libcudadevrt): only what is referenced survives.
    pub system_library: bool,
}

/// The result of [`load`]: the cubins in link order, plus warnings.
#[derive(Clone, Debug, Default)]
pub struct LoadedInputs<'s> {
    /// Device cubins in nvlink's order.
    pub cubins: Vec<InputCubin<'s>>,
    /// Warnings in input order.
    pub warnings: Vec<InputWarning>,
    /// `__nv_module_id` strings of the host objects, in order.
    pub module_ids: Vec<&'s [u8]>,
    /// What the inputs say their host code references.
    pub host_refs: HostRefs<'s>,
    /// LTO-IR modules (under [`LoadOptions::lto`]), in input order.
    pub lto_modules: Vec<LtoModule<'s>>,
    /// The host-reference lists of every host object, in input order (see
    /// [`host::HostReferences`]), with whether the object is from a system library.
    pub host_references: Vec<(bool, host::HostReferences<'s>)>,
    /// Whether the last host object with device code this input held is from a system
    /// library (`None`: it held none). nvlink's whole-program LTO wants the last such object
    /// of the link to be libcudadevrt's (observed: fatbin files, NVVM IR files and host
    /// objects without a fatbin do not count).
    pub last_unit_system: Option<bool>,
}

/// An LTO-IR module: a fatbin's LTO-IR entry, decompressed.
#[derive(Clone, Debug)]
pub struct LtoModule<'s> {
    /// The input's display name (nvlink passes it to libnvvm with the module).
    pub name: String,
    /// The IR bytes.
    pub ir: &'s [u8],
    /// The fatbin entry's options (cicc's, e.g. `-ftz=0 -prec_div=1 -prec_sqrt=1 -fmad=1`);
    /// `None` for an NVVM IR file (`.ltoir`, `.nvvm`), which carries none.
    pub options: Option<&'s [u8]>,
}

/// What the inputs (system libraries aside) say about the kernels their host code references.
#[derive(Clone, Debug, Default)]
pub struct HostRefs<'s> {
    /// Host objects that list the kernels they reference (`.nvHRKE`).
    pub listing: usize,
    /// Inputs that do not: cubins, fatbins, PTX, and host objects without the list (plain
    /// objects included).
    pub unlisted: usize,
    /// The listed kernel name patterns, in input order (see [`host::HostKernels`]).
    pub kernels: Vec<&'s [u8]>,
}

impl<'s> HostRefs<'s> {
    /// Adds what another set of inputs says.
    pub fn extend(&mut self, other: HostRefs<'s>) {
        self.listing += other.listing;
        self.unlisted += other.unlisted;
        self.kernels.extend(other.kernels);
    }
    /// Whether the lists decide which kernels stay: every input has one and together they
    /// name at least one kernel (observed: when all the lists are empty, every kernel stays).
    pub fn complete(&self) -> bool {
        self.listing > 0 && self.unlisted == 0 && !self.kernels.is_empty()
    }
}

/// The bytes of one input file: a read-only memory map, or (for what cannot be mapped: an
/// empty file, a pipe, a character device) the bytes read into memory. Owned, `Send` and
/// `Sync`, so files may be opened on several threads at once.
#[derive(Debug)]
pub enum FileBytes {
    /// A memory map of a regular file.
    Map(memmap2::Mmap),
    /// Bytes read into memory.
    Owned(Vec<u8>),
}

impl FileBytes {
    /// Opens `path`: maps a regular file, reads anything else; a directory is an error.
    pub fn open(path: &Path) -> std::io::Result<FileBytes> {
        let file = std::fs::File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        if meta.is_file() {
            if meta.len() == 0 {
                return Ok(FileBytes::Owned(Vec::new()));
            }
            // SAFETY: the map is read-only; like every linker we assume inputs are not
            // modified while the link runs. (The length is given: one `statx` less per file.)
            let map = unsafe {
                memmap2::MmapOptions::new()
                    .len(meta.len() as usize)
                    .map(&file)
            };
            if let Ok(map) = map {
                return Ok(FileBytes::Map(map));
            }
        }
        let mut data = Vec::new();
        std::io::Read::read_to_end(&mut &file, &mut data)?;
        Ok(FileBytes::Owned(data))
    }
    /// The content.
    pub fn bytes(&self) -> &[u8] {
        match self {
            FileBytes::Map(m) => m,
            FileBytes::Owned(v) => v,
        }
    }
}

/// Owns the bytes [`load`] hands out (memory maps, decompressed and compiled cubins); the
/// loaded inputs borrow from it. Append-only; one store per link (or one per input, to load
/// inputs on several threads).
#[derive(Default)]
pub struct InputStore {
    arena: typed_arena::Arena<FileBytes>,
}

impl InputStore {
    /// An empty store.
    pub fn new() -> InputStore {
        InputStore::default()
    }
    pub(crate) fn keep(&self, bytes: Vec<u8>) -> &[u8] {
        self.arena.alloc(FileBytes::Owned(bytes)).bytes()
    }
    /// Opens `path` with [`FileBytes::open`] and keeps it as long as the store.
    pub fn map(&self, path: &Path) -> std::io::Result<&[u8]> {
        let file = FileBytes::open(path)?;
        if file.bytes().is_empty() {
            return Ok(&[]);
        }
        Ok(self.arena.alloc(file).bytes())
    }
}

struct Loader<'s, 'o> {
    store: &'s InputStore,
    opts: &'o LoadOptions,
    out: LoadedInputs<'s>,
}

/// Loads `sources` in order. The first input nvlink would stop at becomes the error.
pub fn load<'s>(
    store: &'s InputStore,
    sources: &[InputSource],
    opts: &LoadOptions,
) -> Result<LoadedInputs<'s>, InputError> {
    let mut l = Loader {
        store,
        opts,
        out: LoadedInputs::default(),
    };
    for source in sources {
        let (name, data, dir) = match source {
            InputSource::Path(p) => {
                let name = p.display().to_string();
                let data = store
                    .map(p)
                    .map_err(|e| err(&name, InputErrorKind::CouldNotOpen(e.to_string())))?;
                (name, data, p.parent().map(Path::to_path_buf))
            }
            InputSource::Bytes { name, data } => (name.clone(), store.keep(data.clone()), None),
        };
        l.file(&name, data, dir.as_deref())?;
    }
    Ok(l.out)
}

/// Loads one input whose bytes are already in memory (a [`FileBytes`], the caller's buffer),
/// without copying them, as [`load`] loads an [`InputSource::Bytes`] named `name`: what the
/// input yields borrows from `data` and from `store` (decompressed and compiled cubins, the
/// members of thin archives, found from the current directory). Inputs are independent, so
/// several may load at once, each with its own store.
pub fn load_bytes<'s>(
    store: &'s InputStore,
    name: &str,
    data: &'s [u8],
    opts: &LoadOptions,
) -> Result<LoadedInputs<'s>, InputError> {
    let mut l = Loader {
        store,
        opts,
        out: LoadedInputs::default(),
    };
    l.file(name, data, None)?;
    Ok(l.out)
}

/// How nvlink reads an input that carries device code in a container rather than as a cubin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// A fatbin file, or a PTX file (nvlink assembles PTX through its fatbin path).
    Fatbin,
    /// A host object or an archive.
    HostObject,
}

impl Container {
    /// The fatal nvlink gives on reaching such an input once an error has been counted
    /// (observed: `-Werror` with an earlier warning, e.g. a missing architecture).
    pub fn fatal_after_errors(self) -> &'static str {
        match self {
            Container::Fatbin => "elfLink fatbinary error",
            Container::HostObject => "elfLink internal error",
        }
    }
}

/// Which container `data` (named `name`) is, as [`load_bytes`] would read it; `None` for
/// cubins, LTO-IR files and inputs nvlink skips.
pub fn container(name: &str, data: &[u8]) -> Option<Container> {
    if data.len() < 56 {
        return None;
    }
    let elf_machine = ElfFile::is_elf(data).then(|| u16::from_le_bytes([data[18], data[19]]));
    match extension(name)? {
        "fatbin" => Some(Container::Fatbin),
        "ptx" if elf_machine.is_some() && !fatbin::is_fatbin(data) => None,
        "ptx" => Some(Container::Fatbin),
        "nvvm" | "ltoir" | "bc" | "cubin" => None,
        _ if archive::is_archive(data) => Some(Container::HostObject),
        "so" => None,
        "o" if elf_machine == Some(EM_CUDA) => None,
        _ => elf_machine.map(|_| Container::HostObject),
    }
}

fn err(name: &str, kind: InputErrorKind) -> InputError {
    InputError {
        name: name.to_string(),
        kind,
    }
}

fn extension(name: &str) -> Option<&str> {
    let base = name.rsplit('/').next().unwrap_or(name);
    base.rfind('.').map(|i| &base[i + 1..])
}

fn is_nvvm_ir(d: &[u8]) -> bool {
    const NVVM: [u8; 4] = 0x1EE5_5A01u32.to_le_bytes();
    d.starts_with(&NVVM) || (d.len() >= 8 && d[..4] == [0; 4] && d[4..8] == NVVM)
}

impl<'s> Loader<'s, '_> {
    fn warn(&mut self, name: &str, kind: WarningKind) {
        self.out.warnings.push(InputWarning {
            name: name.to_string(),
            kind,
        });
    }
    fn ignore(&mut self, name: &str, reason: IgnoreReason) {
        self.warn(name, WarningKind::Ignored(reason));
    }

    fn file(&mut self, name: &str, data: &'s [u8], dir: Option<&Path>) -> Result<(), InputError> {
        if data.is_empty() {
            self.ignore(name, IgnoreReason::Empty);
            return Ok(());
        }
        if data.len() < 56 {
            return Err(err(
                name,
                InputErrorKind::CouldNotOpen("shorter than 56 bytes".into()),
            ));
        }
        let is_elf = ElfFile::is_elf(data);
        let machine = if is_elf {
            u16::from_le_bytes([data[18], data[19]])
        } else {
            0
        };
        match extension(name) {
            None => self.ignore(name, IgnoreReason::NoExtension),
            // NVVM IR files go to libnvvm as they are, whatever they hold (libnvvm judges
            // them); `.bc` files are refused (observed, with and without -dlto).
            Some("nvvm" | "ltoir") if !self.opts.lto => {
                return Err(err(name, InputErrorKind::NvvmFileWithoutLto))
            }
            Some("nvvm" | "ltoir") => self.out.lto_modules.push(LtoModule {
                name: name.to_string(),
                ir: data,
                options: None,
            }),
            Some("bc") => return Err(err(name, InputErrorKind::BitcodeFile)),
            Some("cubin") if !is_elf => return Err(err(name, InputErrorKind::CubinNotElf)),
            Some("cubin") if machine != EM_CUDA => {
                return Err(err(name, InputErrorKind::CubinNotDeviceElf))
            }
            Some("cubin") => self.cubin_file(name, data)?,
            Some("fatbin") if !fatbin::is_fatbin(data) => {
                return Err(err(name, InputErrorKind::FatbinWrongFormat))
            }
            Some("fatbin") => self.fatbin(name, data, false)?,
            Some("ptx") => {
                if fatbin::is_fatbin(data) {
                    self.fatbin(name, data, false)?;
                } else if is_elf && machine == EM_CUDA {
                    self.cubin_file(name, data)?;
                } else if ptx::is_ptx(data) && self.opts.target.sm < 90 {
                    // Still assembled: its messages and failures are nvlink's (observed:
                    // `-g` warnings, `elfLink fatbinary error` for bad PTX on sm_75).
                    self.compile_ptx(name, data, b"")?;
                    self.ignore(name, IgnoreReason::PtxBeforeSm90);
                } else if ptx::is_ptx(data) {
                    self.out.host_refs.unlisted += 1;
                    self.ptx(name, data, b"", false)?;
                } else if is_nvvm_ir(data) {
                    // (nvlink takes IR files under -lto; elfw does not read them yet.)
                    return Err(err(name, InputErrorKind::LtoNotSupported));
                } else {
                    return Err(err(name, InputErrorKind::UnrecognizedKind));
                }
            }
            Some(_) if archive::is_archive(data) => self.archive(name, data, dir)?,
            Some("so") => self.ignore(name, IgnoreReason::SharedLibrary),
            Some("o") if is_elf && machine == EM_CUDA => self.cubin_file(name, data)?,
            Some(_) if is_elf => self.host_object(name, data, false)?,
            Some(_) => self.ignore(name, IgnoreReason::NotRecognized),
        }
        Ok(())
    }

    fn host_object(&mut self, name: &str, data: &'s [u8], system: bool) -> Result<(), InputError> {
        if u16::from_le_bytes([data[16], data[17]]) != ET_REL {
            self.ignore(name, IgnoreReason::NotRelocatable);
            return Ok(());
        }
        let content = host::scan(data).map_err(|e| err(name, InputErrorKind::NoFatbin(e)))?;
        if !system {
            match content {
                host::HostContent::Fatbin {
                    host_kernels: Some(k),
                    ..
                } => {
                    self.out.host_refs.listing += 1;
                    self.out.host_refs.kernels.extend(k.patterns());
                }
                _ => self.out.host_refs.unlisted += 1,
            }
        }
        match content {
            host::HostContent::Fatbin {
                fatbin,
                module_id,
                references,
                ..
            } => {
                self.out.last_unit_system = Some(system);
                self.out.host_references.push((system, references));
                if let Some(id) = module_id {
                    self.out.module_ids.push(id);
                }
                self.fatbin_contents(name, fatbin, system)
            }
            host::HostContent::NoDeviceCode(host::NoDeviceCode::WholeProgramOnly) => {
                self.ignore(name, IgnoreReason::WholeProgramObject);
                Ok(())
            }
            host::HostContent::NoDeviceCode(host::NoDeviceCode::NoFatbinSegment) => {
                // A plain host object is normal input; a device ELF here (a cubin not named
                // `.o`/`.cubin`) is a foreign input nvlink drops without a word.
                if u16::from_le_bytes([data[18], data[19]]) == EM_CUDA {
                    self.ignore(name, IgnoreReason::NotRecognized);
                }
                Ok(())
            }
        }
    }

    /// A cubin file: it says nothing of host references.
    fn cubin_file(&mut self, name: &str, data: &'s [u8]) -> Result<(), InputError> {
        self.out.host_refs.unlisted += 1;
        self.cubin(name, data, Origin::Cubin, false)
    }

    /// A fatbin file (not one inside a host object): it says nothing of host references.
    fn fatbin(&mut self, name: &str, data: &'s [u8], system: bool) -> Result<(), InputError> {
        self.out.host_refs.unlisted += usize::from(!system);
        self.fatbin_contents(name, data, system)
    }

    fn fatbin_contents(
        &mut self,
        name: &str,
        data: &'s [u8],
        system: bool,
    ) -> Result<(), InputError> {
        let fb = fatbin::Fatbin::parse(data).map_err(|e| err(name, InputErrorKind::Fatbin(e)))?;
        let target = self.opts.target;
        if self.opts.lto {
            if let Some(index) = fatbin::select_lto_ir(&fb, target) {
                // libnvvm gets the module nvlink gets out of the entry (observed): a stored
                // entry as it is (key at +40, bitcode scrambled: libnvvm unscrambles it), a
                // compressed one unscrambled and decompressed (key zeroed, plain bitcode).
                // fatbinary never puts LTO-IR in a concatenated group.
                if fb.entries[index].location != fatbin::Location::Direct {
                    return Err(err(name, InputErrorKind::LtoIrInGroup));
                }
                let ir = match fb.payload(index) {
                    Ok(std::borrow::Cow::Borrowed(b)) => b,
                    Ok(std::borrow::Cow::Owned(v)) => self.store.keep(v),
                    Err(fatbin::FatbinError::Decompress { .. }) => {
                        // nvlink: `Uncompress failed`, no arch found, the input skipped (it
                        // does not fall back to the fatbin's PTX).
                        self.warn(name, WarningKind::UncompressFailed);
                        self.warn(name, WarningKind::ArchNotFound { target });
                        return Ok(());
                    }
                    Err(e) => return Err(err(name, InputErrorKind::Fatbin(e))),
                };
                self.out.lto_modules.push(LtoModule {
                    name: name.to_string(),
                    ir,
                    options: Some(fb.entries[index].options),
                });
                return Ok(());
            }
        }
        let Some(index) = fatbin::select(&fb, target) else {
            // LTO-IR that could be compiled for the target, as PTX could (observed: `lto_75`
            // under `-arch=sm_90`, sm_120 for `lto_100`, sm_90a for `lto_90`), but not the
            // arch-specific IR of another target (`lto_90a` under sm_90: SM Arch not found).
            if fatbin::select_lto_ir(&fb, target).is_some() {
                return Err(err(name, InputErrorKind::LtoObjectsFound));
            }
            self.warn(name, WarningKind::ArchNotFound { target });
            return Ok(());
        };
        let entry = fb.entries[index];
        let payload = match fb.payload(index) {
            Ok(p) => p,
            Err(fatbin::FatbinError::Decompress { .. }) => {
                self.warn(name, WarningKind::UncompressFailed);
                self.warn(name, WarningKind::ArchNotFound { target });
                return Ok(());
            }
            Err(e) => return Err(err(name, InputErrorKind::Fatbin(e))),
        };
        let bytes: &'s [u8] = match payload {
            std::borrow::Cow::Borrowed(b) => b,
            std::borrow::Cow::Owned(v) => self.store.keep(v),
        };
        if entry.kind == fatbin::KIND_PTX {
            self.ptx(name, bytes, entry.options, system)
        } else {
            self.cubin(
                name,
                bytes,
                Origin::FatbinCubin {
                    entry_arch: entry.arch(),
                },
                system,
            )
        }
    }

    fn ptx(
        &mut self,
        name: &str,
        text: &'s [u8],
        options: &[u8],
        system: bool,
    ) -> Result<(), InputError> {
        let cubin = self.compile_ptx(name, text, options)?;
        let bytes = self.store.keep(cubin);
        self.cubin(
            name,
            bytes,
            Origin::CompiledPtx {
                ptx_target: ptx::ptx_target(text),
            },
            system,
        )
    }

    /// Assembles `text` with ptxas, passing on its messages; returns the cubin.
    fn compile_ptx(
        &mut self,
        name: &str,
        text: &[u8],
        options: &[u8],
    ) -> Result<Vec<u8>, InputError> {
        let ptxas = self.opts.ptxas.as_ref().ok_or_else(|| {
            err(
                name,
                InputErrorKind::Ptx(ptx::PtxError::PtxasNotFound {
                    looked: "nowhere: no ptxas configured".into(),
                }),
            )
        })?;
        let compiled = ptx::compile(
            ptxas,
            text,
            self.opts.target,
            self.opts.debug,
            options,
            &self.opts.ptxas_options,
        )
        .map_err(|e| err(name, InputErrorKind::Ptx(e)))?;
        // (One per compile, even without messages: the first compile of a link changes how
        // nvlink treats warnings from then on, see `Linker::warnings_as_errors`.)
        self.warn(name, WarningKind::PtxasMessages(compiled.messages));
        Ok(compiled.cubin)
    }

    fn archive(
        &mut self,
        name: &str,
        data: &'s [u8],
        dir: Option<&Path>,
    ) -> Result<(), InputError> {
        let members = archive::members(data).map_err(|e| err(name, InputErrorKind::Archive(e)))?;
        let base = name.rsplit('/').next().unwrap_or(name);
        let system = base.contains("cudadevrt");
        for m in members {
            let member_name = format!("{name}:{}", String::from_utf8_lossy(m.name));
            let bytes = match m.data {
                archive::MemberData::Inline(b) => b,
                archive::MemberData::External => {
                    let rel = String::from_utf8_lossy(m.name).into_owned();
                    let path = dir.map_or_else(|| PathBuf::from(&rel), |d| d.join(&rel));
                    self.store.map(&path).map_err(|e| {
                        err(&member_name, InputErrorKind::CouldNotOpen(e.to_string()))
                    })?
                }
            };
            let is_host = ElfFile::is_elf(bytes)
                && bytes.len() > 52
                && u16::from_le_bytes([bytes[18], bytes[19]]) != EM_CUDA;
            if is_host {
                self.host_object(&member_name, bytes, system)?;
            } else if !bytes.is_empty() {
                self.ignore(&member_name, IgnoreReason::ArchiveMemberNotHostObject);
            }
        }
        Ok(())
    }

    fn cubin(
        &mut self,
        name: &str,
        data: &'s [u8],
        origin: Origin,
        system: bool,
    ) -> Result<(), InputError> {
        let e = |kind| err(name, kind);
        let elf = match ElfFile::parse(data) {
            Ok(elf) => elf,
            Err(ElfError::Class32) => return Err(e(InputErrorKind::Elf32)),
            Err(x @ (ElfError::OutOfBounds { .. } | ElfError::NotElf)) => {
                self.ignore(name, IgnoreReason::TruncatedCubin(x));
                return Ok(());
            }
            Err(x) => return Err(e(InputErrorKind::DamagedCubin(x))),
        };
        if let Err(x) = elf.check_layout() {
            self.ignore(name, IgnoreReason::TruncatedCubin(x));
            return Ok(());
        }
        if elf.header().machine != EM_CUDA {
            return Err(e(InputErrorKind::CubinNotDeviceElf));
        }
        let h = elf.header();
        if h.osabi() != ELFOSABI_CUDA || h.abi_version() != DEVICE_ABI_VERSION {
            return Err(e(InputErrorKind::AbiMismatch {
                osabi: h.osabi(),
                abi_version: h.abi_version(),
            }));
        }
        let flags = DeviceFlags(h.flags);
        // Since CUDA 12 the top byte of e_flags is the section index of `.note.nv.cuinfo`
        // (0xff when larger); nvlink refuses a cubin where they disagree (observed: every other
        // value of that byte is refused, for plain, -lineinfo and -G cubins alike).
        let cuinfo = elf
            .section_by_name(b".note.nv.cuinfo")
            .unwrap_or(0)
            .min(0xff);
        if flags.format() != cuinfo {
            return Err(e(InputErrorKind::TooOld));
        }
        elf.validate()
            .map_err(|x| e(InputErrorKind::DamagedCubin(x)))?;
        let arch = elf
            .device_arch()
            .map_err(|x| e(InputErrorKind::DamagedCubin(x)))?;
        if let Some(info) = arch.cuda_info {
            if info.toolkit_version < OLDEST_TOOLKIT_VERSION {
                return Err(e(InputErrorKind::TooOld));
            }
            if info.toolkit_version > TOOLKIT_VERSION {
                return Err(e(InputErrorKind::NewerThanToolkit {
                    input: info.toolkit_version,
                    toolkit: TOOLKIT_VERSION,
                }));
            }
        }
        let target = self.opts.target;
        if target.sm >= 100 && !flags.family_portable() {
            self.warn(name, WarningKind::LimitedToArch { target });
        }
        // An input whose `.nv.compat` has no ISA_CLASS record (0x02) counts as ISA class 0:
        // code for this SM only (observed, nvlink 13.5: one warning per such input).
        if let Some(d) = elf
            .section_by_name(b".nv.compat")
            .and_then(|i| elf.section_data(i).ok())
        {
            if !compat_has(d, 0x02) {
                self.warn(name, WarningKind::IsaClassMissing { target });
            }
        }
        match arch.arch.cubin_links_into(target) {
            Ok(()) => {}
            Err(ArchMismatch::Incompatible) => {
                return Err(e(InputErrorKind::ArchMismatch {
                    input: arch.arch,
                    target,
                }))
            }
            Err(ArchMismatch::AcceleratedToNonAccelerated) => {
                return Err(e(InputErrorKind::AcceleratedToNonAccelerated {
                    input: arch.arch,
                    target,
                }))
            }
        }
        if self.opts.lto && !name.contains("cudadevrt") {
            self.warn(name, WarningKind::NotBuiltForLto);
        }
        self.out.cubins.push(InputCubin {
            name: name.to_string(),
            data,
            elf,
            origin,
            system_library: system,
        });
        Ok(())
    }
}

/// Whether a `.nv.compat` section has a record for attribute `code` (records are 4 bytes, or 4
/// plus a 16-bit length for format 4).
fn compat_has(d: &[u8], code: u8) -> bool {
    let mut o = 0;
    while o + 4 <= d.len() {
        if d[o + 1] == code {
            return true;
        }
        o += if d[o] == 0x04 {
            4 + u16::from_le_bytes([d[o + 2], d[o + 3]]) as usize
        } else {
            4
        };
    }
    false
}
