//! What a device ELF says about itself: architecture, virtual SM, toolkit, producing tools.

use super::arch::{ArchVariant, DeviceFlags, SmArch};
use super::consts::*;
use super::note::{notes, CudaInfo, ToolkitInfo, NT_CUDA_INFO, NT_CUDA_TOOLKIT_INFO};
use super::read::{ElfFile, Result};
use crate::nvinfo;

/// The architecture facts of one cubin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceArch {
    /// The real architecture: SM from `e_flags`, 'a' from `.nv.compat`, 'f' from the ptxas
    /// command line in `.note.nv.tkinfo` (informational: nvlink treats 'f' cubins as plain).
    pub arch: SmArch,
    /// `e_flags`.
    pub flags: DeviceFlags,
    /// `.note.nv.cuinfo`, when present and well formed.
    pub cuda_info: Option<CudaInfo>,
}

impl<'d> ElfFile<'d> {
    /// Whether this is a CUDA device ELF (`e_machine` 190).
    pub fn is_device(&self) -> bool {
        self.header().machine == EM_CUDA
    }

    /// The first section of type `sh_type` named `name`.
    fn find_section(&self, sh_type: u32, name: &[u8]) -> Option<u32> {
        (0..self.sections().len() as u32).find(|&i| {
            self.sections()[i as usize].sh_type == sh_type
                && self.section_name(i).ok() == Some(name)
        })
    }

    /// The decoded `.note.nv.cuinfo` note, if the cubin has one.
    pub fn cuda_info(&self) -> Result<Option<CudaInfo>> {
        let Some(i) = self.find_section(SHT_NOTE, b".note.nv.cuinfo") else {
            return Ok(None);
        };
        for note in notes(self.section_data(i)?) {
            let note = note?;
            if note.n_type == NT_CUDA_INFO {
                return CudaInfo::parse(note.desc).map(Some);
            }
        }
        Ok(None)
    }

    /// The records of `.note.nv.tkinfo`, in order (a linked image holds one per contributing
    /// tool run).
    pub fn toolkit_infos(&self) -> Result<Vec<ToolkitInfo<'d>>> {
        let Some(i) = self.find_section(SHT_NOTE, b".note.nv.tkinfo") else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for note in notes(self.section_data(i)?) {
            let note = note?;
            if note.n_type == NT_CUDA_TOOLKIT_INFO {
                out.push(ToolkitInfo::parse(note.desc)?);
            }
        }
        Ok(out)
    }

    /// Whether `.nv.compat` marks the cubin as an 'a' build (EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET
    /// non-zero). A malformed `.nv.compat` reads as "not accelerated".
    pub fn is_accelerated(&self) -> bool {
        let Some(i) = self.find_section(SHT_CUDA_COMPAT, b".nv.compat") else {
            return false;
        };
        let Ok(data) = self.section_data(i) else {
            return false;
        };
        nvinfo::records(data).map_while(|r| r.ok()).any(|r| {
            r.attribute == nvinfo::code::COMPAT_ACCELERATOR_TARGET
                && matches!(r.value, nvinfo::Value::Byte(v) if v != 0)
        })
    }

    /// The architecture facts of a device ELF.
    pub fn device_arch(&self) -> Result<DeviceArch> {
        let flags = DeviceFlags(self.header().flags);
        let variant = if self.is_accelerated() {
            ArchVariant::Accelerated
        } else if self.built_for_family(flags.sm()) {
            ArchVariant::Family
        } else {
            ArchVariant::Plain
        };
        Ok(DeviceArch {
            arch: SmArch {
                sm: flags.sm(),
                variant,
            },
            flags,
            cuda_info: self.cuda_info()?,
        })
    }

    fn built_for_family(&self, sm: u32) -> bool {
        let want = format!("-arch sm_{sm}f");
        let Ok(infos) = self.toolkit_infos() else {
            return false;
        };
        infos.first().is_some_and(|t| {
            t.arguments
                .windows(want.len())
                .any(|w| w == want.as_bytes())
        })
    }
}
