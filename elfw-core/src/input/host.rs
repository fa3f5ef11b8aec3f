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
    },
    /// Nothing nvlink links.
    NoDeviceCode(NoDeviceCode),
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
    Ok(HostContent::Fatbin {
        fatbin: &section[..size as usize],
        module_id,
    })
}
