//! Host relocatable objects (x86-64, AArch64, ppc64le from `nvcc -dc`): the embedded fatbin
//! and module id.
//!
//! nvlink's rules (wiki "Host ELF Embedding", checked by running nvlink 13.5.37):
//! - no `.nvFatBinSegment`: no device code; the object is skipped silently (a plain `gcc -c`
//!   object);
//! - `.nvFatBinSegment` and `__nv_relfatbin`: the fatbin at the start of `__nv_relfatbin`
//!   (header size + declared entry bytes) is linked;
//! - `.nvFatBinSegment` and `.nv_fatbin` only (a whole-program `nvcc -c` object): skipped
//!   silently, its device code is not linked;
//! - neither fatbin section, `__nv_relfatbin` without the fatbin magic, or a host ELF whose
//!   section table or section data lie outside the file: fatal
//!   `Could not find fatbin in '%s'` followed by `elfLink internal error`.

use crate::elf::{ElfFile, SectionHeader};
use crate::input::fatbin;

/// What a host object holds for the device link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostContent<'d> {
    /// A relocatable fatbin (from `__nv_relfatbin`) and the module id, if any.
    Fatbin {
        /// The fatbin container bytes.
        fatbin: &'d [u8],
        /// The `__nv_module_id` string.
        module_id: Option<&'d [u8]>,
        /// The kernels its host code references, when it says (see [`HostKernels`]).
        host_kernels: Option<HostKernels<'d>>,
        /// All its host-reference lists.
        references: HostReferences<'d>,
    },
    /// Nothing nvlink links.
    NoDeviceCode(NoDeviceCode),
}

/// The kernels a host object's code references, as cudafe++ lists them in `.nvHRKE`
/// (external linkage) and `.nvHRKI` (internal linkage): NUL-terminated name patterns in which
/// `*` stands for any run of characters (`_Z2ka*` for every overload of `ka`).
///
/// nvlink 13.5 keeps only the kernels some host object references when every input carries
/// this list (observed; `-ignore-host-info` turns it off). The external list is what marks a
/// host object as carrying it: an object with `.nvHRKI` alone does not (observed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostKernels<'d> {
    external: &'d [u8],
    internal: &'d [u8],
}

impl<'d> HostKernels<'d> {
    /// The name patterns, external ones first.
    pub fn patterns(&self) -> impl Iterator<Item = &'d [u8]> + 'd {
        let (external, internal) = (self.external, self.internal);
        external
            .split(|&b| b == 0)
            .chain(internal.split(|&b| b == 0))
            .filter(|p| !p.is_empty())
    }
}

/// The six host-reference lists cudafe++ writes into a host object, each the raw section
/// (NUL-terminated name patterns; empty when the section is missing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostReferences<'d> {
    /// `.nvHRKE`, `.nvHRKI`, `.nvHRCE`, `.nvHRCI`, `.nvHRDE`, `.nvHRDI`: kernels, constant
    /// variables and device variables, each with external then internal linkage.
    pub lists: [&'d [u8]; 6],
}

impl<'d> HostReferences<'d> {
    /// The sections, in [`HostReferences::lists`] order.
    pub const SECTIONS: [&'static [u8]; 6] = [
        b".nvHRKE", b".nvHRKI", b".nvHRCE", b".nvHRCI", b".nvHRDE", b".nvHRDI",
    ];
    /// The patterns of list `i`.
    pub fn patterns(&self, i: usize) -> impl Iterator<Item = &'d [u8]> + 'd {
        self.lists[i].split(|&b| b == 0).filter(|p| !p.is_empty())
    }
}

/// Whether `name` matches a host-reference `pattern`: the whole name, with `*` matching any
/// run of characters (nothing else is special).
pub fn host_pattern_matches(pattern: &[u8], name: &[u8]) -> bool {
    // Greedy glob matching with backtracking to the last `*`: linear in practice.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, n));
            p += 1;
        } else if p < pattern.len() && pattern[p] == name[n] {
            p += 1;
            n += 1;
        } else if let Some((sp, sn)) = star {
            p = sp + 1;
            n = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

/// Why a host object contributes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoDeviceCode {
    /// No `.nvFatBinSegment`: not compiled by nvcc, or no device code.
    NoFatbinSegment,
    /// Only a whole-program `.nv_fatbin` (compiled without `-dc`/`-rdc=true`).
    WholeProgramOnly,
}

/// Why nvlink would say `Could not find fatbin in '%s'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostError {
    /// The host ELF failed nvlink's structural check.
    #[error("the host ELF is damaged ({0})")]
    Damaged(crate::elf::ElfError),
    /// `.nvFatBinSegment` without any fatbin section.
    #[error("it has .nvFatBinSegment but neither __nv_relfatbin nor .nv_fatbin")]
    MissingFatbinSection,
    /// `__nv_relfatbin` does not start with a fatbin whose declared size fits the section.
    #[error("__nv_relfatbin does not hold a well-formed fatbin")]
    BadRelocatableFatbin,
}

fn find<'d>(elf: &ElfFile<'d>, name: &[u8]) -> Option<(u32, SectionHeader)> {
    (0..elf.sections().len() as u32)
        .find(|&i| elf.section_name(i).ok() == Some(name))
        .map(|i| (i, elf.sections()[i as usize]))
}

/// Scans a host relocatable ELF for the fatbin nvlink links.
pub fn scan<'d>(data: &'d [u8]) -> Result<HostContent<'d>, HostError> {
    // nvlink's host loader refuses files of 52 bytes or less and checks every section.
    if data.len() <= 52 {
        return Err(HostError::Damaged(crate::elf::ElfError::NotElf));
    }
    let elf = ElfFile::parse(data).map_err(HostError::Damaged)?;
    elf.check_layout().map_err(HostError::Damaged)?;
    if find(&elf, b".nvFatBinSegment").is_none() {
        return Ok(HostContent::NoDeviceCode(NoDeviceCode::NoFatbinSegment));
    }
    let module_id = find(&elf, b"__nv_module_id").and_then(|(i, _)| {
        let d = elf.section_data(i).ok()?;
        Some(&d[..d.iter().position(|&b| b == 0).unwrap_or(d.len())])
    });
    let Some((rel, _)) = find(&elf, b"__nv_relfatbin") else {
        return if find(&elf, b".nv_fatbin").is_some() {
            Ok(HostContent::NoDeviceCode(NoDeviceCode::WholeProgramOnly))
        } else {
            Err(HostError::MissingFatbinSection)
        };
    };
    let section = elf.section_data(rel).map_err(HostError::Damaged)?;
    let size = fatbin::container_size(section).ok_or(HostError::BadRelocatableFatbin)?;
    if size > section.len() as u64 {
        return Err(HostError::BadRelocatableFatbin);
    }
    let data_of =
        |name: &[u8]| find(&elf, name).map(|(i, _)| elf.section_data(i).unwrap_or_default());
    let host_kernels = data_of(b".nvHRKE").map(|external| HostKernels {
        external,
        internal: data_of(b".nvHRKI").unwrap_or_default(),
    });
    let mut references = HostReferences::default();
    for (list, name) in references.lists.iter_mut().zip(HostReferences::SECTIONS) {
        *list = data_of(name).unwrap_or_default();
    }
    Ok(HostContent::Fatbin {
        fatbin: &section[..size as usize],
        module_id,
        host_kernels,
        references,
    })
}
