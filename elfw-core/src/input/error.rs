//! Input errors and warnings, with the text nvlink 13.5.37 prints for the same condition.
//!
//! Every message below was produced by running nvlink 13.5.37 on such an input. nvlink exits
//! with status 1 after a fatal message and 255 after errors; all input problems are fatal
//! except `Can't load this binary kind`, an error followed by a fatal.

use super::archive::ArchiveError;
use super::fatbin::FatbinError;
use super::host::HostError;
use super::ptx::PtxError;
use crate::elf::{ElfError, SmArch};

/// The severity of an nvlink message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `nvlink warning : ...`
    Warning,
    /// `nvlink error   : ...` (exit status 255 unless a fatal follows).
    Error,
    /// `nvlink fatal   : ...` (exit status 1).
    Fatal,
    /// A line another tool printed (ptxas), shown as it is.
    Verbatim,
}

/// An input that cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {kind}")]
pub struct InputError {
    /// The input's display name (`lib.a:member.o` inside archives).
    pub name: String,
    /// What is wrong.
    pub kind: InputErrorKind,
}

/// What is wrong with an input.
#[derive(Debug, thiserror::Error)]
pub enum InputErrorKind {
    /// Missing, unreadable, a directory, or 1..=55 bytes long (nvlink reads a 56-byte probe).
    #[error("could not open input file: {0}")]
    CouldNotOpen(String),
    /// A `.cubin` that is not ELF.
    #[error("a .cubin file that is not ELF")]
    CubinNotElf,
    /// A `.cubin` that is ELF for another machine.
    #[error("a .cubin file that is not a CUDA device ELF")]
    CubinNotDeviceElf,
    /// A `.fatbin` without the fatbin magic.
    #[error("a .fatbin file without the fatbin magic")]
    FatbinWrongFormat,
    /// A `.ptx` file that is neither PTX, a fatbin nor a cubin.
    #[error("a .ptx file that is neither PTX, a fatbin nor a cubin")]
    UnrecognizedKind,
    /// A host object whose embedded fatbin cannot be found.
    #[error("could not find the fatbin: {0}")]
    NoFatbin(HostError),
    /// A damaged fatbin.
    #[error("bad fatbin: {0}")]
    Fatbin(FatbinError),
    /// A damaged archive.
    #[error("bad archive: {0}")]
    Archive(ArchiveError),
    /// A device ELF that passed nvlink's layout check but is inconsistent inside (nvlink's
    /// behaviour varies: it may crash).
    #[error("damaged cubin: {0}")]
    DamagedCubin(ElfError),
    /// A 32-bit ELF.
    #[error("32-bit ELF input is not supported")]
    Elf32,
    /// `EI_ABIVERSION` other than 8 or `EI_OSABI` other than 0x41.
    #[error("ELF ABI does not match (OS/ABI {osabi:#x}, ABI version {abi_version})")]
    AbiMismatch {
        /// `EI_OSABI`.
        osabi: u8,
        /// `EI_ABIVERSION`.
        abi_version: u8,
    },
    /// Made by a toolkit older than 12.0 (`e_flags` format or `.note.nv.cuinfo` version).
    #[error("built by a toolkit older than CUDA 12.0")]
    TooOld,
    /// Made by a newer toolkit than 13.5.
    #[error("built by a newer toolkit ({input} vs {toolkit})")]
    NewerThanToolkit {
        /// The input's toolkit version (major * 10 + minor).
        input: u32,
        /// Ours.
        toolkit: u32,
    },
    /// Built for an architecture that does not link into the target.
    #[error("built for {input}, which does not link into {target}")]
    ArchMismatch {
        /// The input's architecture.
        input: SmArch,
        /// The target.
        target: SmArch,
    },
    /// An 'a' cubin for a target without 'a'.
    #[error("built for {input}, an accelerated arch, which does not link into {target}")]
    AcceleratedToNonAccelerated {
        /// The input's architecture.
        input: SmArch,
        /// The target.
        target: SmArch,
    },
    /// Only LTO-IR for the target and no `-dlto`.
    #[error("holds only LTO-IR for the target (link with -dlto)")]
    LtoObjectsFound,
    /// LTO-IR inside a concatenated fatbin group (fatbinary does not make those).
    #[error("holds LTO-IR in a concatenated fatbin group, which elfw cannot read")]
    LtoIrInGroup,
    /// An NVVM IR file (not in a fatbin): elfw does not read those yet.
    #[error("an NVVM IR file; elfw links LTO-IR only from fatbins")]
    LtoNotSupported,
    /// An NVVM IR file (`.nvvm`, `.ltoir`) in a link without `-dlto`/`-lto`.
    #[error("an NVVM IR file, which needs -dlto")]
    NvvmFileWithoutLto,
    /// A `.bc` file (nvlink refuses LLVM bitcode files whatever they hold).
    #[error("an LLVM bitcode (.bc) file")]
    BitcodeFile,
    /// PTX that could not be compiled.
    #[error("{0}")]
    Ptx(PtxError),
}

impl InputError {
    /// The lines nvlink prints for this condition, when nvlink reports it.
    pub fn nvlink_diagnostics(&self) -> Vec<(Severity, String)> {
        use InputErrorKind::*;
        use Severity::*;
        let n = &self.name;
        match &self.kind {
            CouldNotOpen(_) => vec![(Fatal, format!("Could not open input file '{n}'"))],
            CubinNotElf => vec![(Fatal, "cubin not an elf?".into())],
            CubinNotDeviceElf => vec![(Fatal, "cubin not a device elf?".into())],
            FatbinWrongFormat => vec![(Fatal, "fatbin wrong format?".into())],
            UnrecognizedKind => vec![
                (
                    Error,
                    "Can't load this binary kind, as it's not recognized".into(),
                ),
                (Fatal, "elfLink fatbinary error".into()),
            ],
            NoFatbin(_) => vec![
                (Fatal, format!("Could not find fatbin in '{n}'")),
                (Fatal, "elfLink internal error".into()),
            ],
            AbiMismatch { osabi, .. } => {
                let mut v = Vec::new();
                if *osabi != crate::elf::consts::ELFOSABI_CUDA {
                    v.push((
                        Warning,
                        format!("expected 64bit object '{n}' to have EF_CUDA_64BIT_ADDRESS set"),
                    ));
                }
                v.push((Fatal, format!("Input file '{n}' abi does not match")));
                v
            }
            TooOld => vec![(
                Fatal,
                format!("Input file '{n}' must be recompiled with toolkit >= Cuda 12.0"),
            )],
            NewerThanToolkit { input, toolkit } => {
                vec![(
                    Fatal,
                    format!("Input file '{n}' newer than toolkit ({input} vs {toolkit})"),
                )]
            }
            ArchMismatch { target, .. } => {
                vec![(
                    Fatal,
                    format!("Input file '{n}' arch does not match target '{target}'"),
                )]
            }
            AcceleratedToNonAccelerated { .. } => {
                vec![(
                    Fatal,
                    "cannot link accelerated arch to non-accelerated".into(),
                )]
            }
            LtoObjectsFound => vec![(Fatal, "LTO objects found, use -dlto".into())],
            NvvmFileWithoutLto => vec![(Fatal, "should only see nvvm files when -lto".into())],
            BitcodeFile => vec![(Fatal, "should never see bc files".into())],
            // nvlink's embedded ptxas prints its own lines, then nvlink gives up on the input.
            Ptx(crate::input::ptx::PtxError::Failed { stderr, .. }) => stderr
                .lines()
                .map(|l| (Verbatim, l.to_string()))
                .chain([(Fatal, "elfLink fatbinary error".to_string())])
                .collect(),
            Fatbin(_) | Archive(_) | DamagedCubin(_) | Elf32 | LtoNotSupported | LtoIrInGroup
            | Ptx(_) => Vec::new(),
        }
    }
}

/// Something worth telling the user that does not stop the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputWarning {
    /// The input's display name.
    pub name: String,
    /// What happened.
    pub kind: WarningKind,
}

/// The kinds of input warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// nvlink silently skips this input; elfw skips it too (same image) but says so.
    Ignored(IgnoreReason),
    /// A fatbin (or host object) without code for the target: nvlink's own warning.
    ArchNotFound {
        /// The target.
        target: SmArch,
    },
    /// The target's fatbin entry could not be decompressed (corrupt or cut short): nvlink's
    /// `error` line that does not fail the link; the entry is not used.
    UncompressFailed,
    /// An sm_100+ link takes an input without the family-portable `e_flags` bit: nvlink's own
    /// warning.
    LimitedToArch {
        /// The target.
        target: SmArch,
    },
    /// An input whose `.nv.compat` lacks the ISA_CLASS attribute: nvlink's own warning (the
    /// link's ISA class becomes 0, code for the target's SM only).
    IsaClassMissing {
        /// The target.
        target: SmArch,
    },
    /// What ptxas printed while compiling a PTX input that it compiled (warnings): nvlink
    /// prints its embedded ptxas's lines as they are.
    PtxasMessages(String),
    /// Device code that is not LTO-IR in a `-dlto` link, from an input whose name does not
    /// contain `cudadevrt`: nvlink's `info` line; the link becomes a partial LTO.
    NotBuiltForLto,
}

/// Why nvlink skips an input without a word (all observed with nvlink 13.5.37).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IgnoreReason {
    /// An empty file.
    Empty,
    /// A file name without an extension.
    NoExtension,
    /// A `.so` file that is not an archive.
    SharedLibrary,
    /// Not ELF, archive, or (for `.cubin`/`.fatbin`/`.ptx` names) the named kind: e.g. text
    /// named `.o`, or a fatbin or PTX file named `.o`, `.a` or `.bin`.
    NotRecognized,
    /// A cubin whose section table or section data lie outside the file (truncated).
    TruncatedCubin(ElfError),
    /// A host ELF that is not relocatable (an executable or shared object named `.o`).
    NotRelocatable,
    /// A host object compiled without `-dc` (whole-program `.nv_fatbin` only).
    WholeProgramObject,
    /// An archive member that is not a host object (nvlink takes no plain cubin members).
    ArchiveMemberNotHostObject,
    /// A PTX file named on the command line of a link for a target before sm_90: nvlink 13.5
    /// assembles it (its messages and failures are reported) but links without it (observed
    /// for sm_75 … sm_89 targets, whatever the PTX `.target`).
    PtxBeforeSm90,
}

impl InputWarning {
    /// nvlink's text for its own warnings (`None` for the silent skips, which nvlink does not
    /// report).
    pub fn nvlink_text(&self) -> Option<String> {
        match &self.kind {
            WarningKind::ArchNotFound { target } => {
                Some(format!("SM Arch ('{target}') not found in '{}'", self.name))
            }
            WarningKind::LimitedToArch { target } => Some(format!(
                "Output is limited to run on SM Arch '{}' only due to limitations in input file {}",
                target.sm, self.name
            )),
            WarningKind::IsaClassMissing { target } => Some(format!(
                "Output is limited to run on SM Arch '{}' only, due to missing attribute 'ISA_CLASS' in input file '{}'",
                target.sm, self.name
            )),
            WarningKind::UncompressFailed => Some("Uncompress failed".into()),
            WarningKind::PtxasMessages(lines) => Some(lines.clone()),
            WarningKind::NotBuiltForLto => Some(format!(
                "requested LTO but '{}' not built for LTO so doing partial LTO",
                self.name
            )),
            WarningKind::Ignored(_) => None,
        }
    }
}

impl std::fmt::Display for InputWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(t) = self.nvlink_text() {
            return f.write_str(&t);
        }
        let WarningKind::Ignored(reason) = &self.kind else {
            return Ok(());
        };
        let why = match reason {
            IgnoreReason::Empty => "it is empty".to_string(),
            IgnoreReason::NoExtension => "its name has no extension".into(),
            IgnoreReason::SharedLibrary => "it is a shared library".into(),
            IgnoreReason::NotRecognized => {
                "its content is not a kind nvlink takes under this name".into()
            }
            IgnoreReason::TruncatedCubin(e) => format!("it is a damaged cubin ({e})"),
            IgnoreReason::PtxBeforeSm90 => {
                "nvlink links PTX files only for sm_90 and later targets".into()
            }
            IgnoreReason::NotRelocatable => "it is a host ELF that is not relocatable".into(),
            IgnoreReason::WholeProgramObject => {
                "it was compiled without -dc (-rdc=true); its device code is not linked".into()
            }
            IgnoreReason::ArchiveMemberNotHostObject => {
                "archive member is not a host object".into()
            }
        };
        write!(f, "ignoring '{}' as nvlink does: {why}", self.name)
    }
}
