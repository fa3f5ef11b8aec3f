//! ELF notes and the two NVIDIA notes every cubin carries.
//!
//! `.note.nv.tkinfo` (type 2000) names the tool that made the cubin and its command line;
//! `.note.nv.cuinfo` (type 1000) gives the virtual SM and the toolkit version. Layouts checked
//! against `cuobjdump -elf` of ptxas 13.5.37 and nvlink 13.5.37 output.

use super::read::{ElfError, Result};

/// Note type of `.note.nv.cuinfo`.
pub const NT_CUDA_INFO: u32 = 1000;
/// Note type of `.note.nv.tkinfo`.
pub const NT_CUDA_TOOLKIT_INFO: u32 = 2000;
/// The owner name NVIDIA writes in both notes.
pub const NVIDIA_NOTE_OWNER: &[u8] = b"NVIDIA Corp";

/// One note record, borrowed from the section bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note<'d> {
    /// The owner name without its NUL.
    pub name: &'d [u8],
    /// `n_type`.
    pub n_type: u32,
    /// The descriptor bytes.
    pub desc: &'d [u8],
}

fn pad4(n: usize) -> Option<usize> {
    n.checked_add(3).map(|v| v & !3)
}

/// Iterates the notes of a `SHT_NOTE` section's bytes. A record running past the end yields
/// one error and ends the iteration.
pub fn notes(data: &[u8]) -> impl Iterator<Item = Result<Note<'_>>> + '_ {
    let mut rest = data;
    let mut failed = false;
    std::iter::from_fn(move || {
        if rest.is_empty() || failed {
            return None;
        }
        let bad = ElfError::BadHeader("note record runs past the end of its section");
        let parsed = (|| {
            if rest.len() < 12 {
                return Err(bad);
            }
            let namesz = u32::from_le_bytes(rest[0..4].try_into().unwrap()) as usize;
            let descsz = u32::from_le_bytes(rest[4..8].try_into().unwrap()) as usize;
            let n_type = u32::from_le_bytes(rest[8..12].try_into().unwrap());
            let name_end = 12usize.checked_add(namesz).ok_or(bad)?;
            let desc_start = 12usize.checked_add(pad4(namesz).ok_or(bad)?).ok_or(bad)?;
            let desc_end = desc_start.checked_add(descsz).ok_or(bad)?;
            if desc_end > rest.len() || name_end > rest.len() {
                return Err(bad);
            }
            let mut name = &rest[12..name_end];
            if let Some(nul) = name.iter().position(|&b| b == 0) {
                name = &name[..nul];
            }
            let note = Note {
                name,
                n_type,
                desc: &rest[desc_start..desc_end],
            };
            let next = desc_start
                .checked_add(pad4(descsz).ok_or(bad)?)
                .ok_or(bad)?;
            Ok((note, next.min(rest.len())))
        })();
        match parsed {
            Ok((note, next)) => {
                rest = &rest[next..];
                Some(Ok(note))
            }
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

/// The descriptor of `.note.nv.cuinfo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CudaInfo {
    /// Descriptor version (2).
    pub version: u16,
    /// The virtual SM the code was compiled from (the PTX `.target`), e.g. 75.
    pub virtual_sm: u16,
    /// Toolkit version as `major * 10 + minor` (135 for 13.5).
    pub toolkit_version: u32,
}

impl CudaInfo {
    /// Decodes an 8-byte descriptor.
    pub fn parse(desc: &[u8]) -> Result<CudaInfo> {
        if desc.len() < 8 {
            return Err(ElfError::BadHeader(
                ".note.nv.cuinfo descriptor shorter than 8 bytes",
            ));
        }
        Ok(CudaInfo {
            version: u16::from_le_bytes([desc[0], desc[1]]),
            virtual_sm: u16::from_le_bytes([desc[2], desc[3]]),
            toolkit_version: u32::from_le_bytes(desc[4..8].try_into().unwrap()),
        })
    }
}

/// The descriptor of one `.note.nv.tkinfo` record: u32 version (2), u32 0, then u32 offsets
/// of four NUL-terminated strings in a blob that follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolkitInfo<'d> {
    /// Descriptor version (2).
    pub version: u32,
    /// The tool (`ptxas`, `nvlink`).
    pub tool_name: &'d [u8],
    /// `Cuda compilation tools, release 13.5, V13.5.37`.
    pub tool_version: &'d [u8],
    /// `Build cuda_13.5.r13.5/compiler.39125733_0`.
    pub tool_branch: &'d [u8],
    /// The tool's normalized command line, e.g. `-arch sm_90 -m 64 -c ` (trailing blanks kept).
    pub arguments: &'d [u8],
}

impl<'d> ToolkitInfo<'d> {
    /// Decodes a descriptor.
    pub fn parse(desc: &'d [u8]) -> Result<ToolkitInfo<'d>> {
        const HEAD: usize = 24;
        if desc.len() < HEAD {
            return Err(ElfError::BadHeader(
                ".note.nv.tkinfo descriptor shorter than 24 bytes",
            ));
        }
        let word = |i: usize| u32::from_le_bytes(desc[i * 4..i * 4 + 4].try_into().unwrap());
        let blob = &desc[HEAD..];
        let string = |off: u32| -> Result<&'d [u8]> {
            let rest = blob.get(off as usize..).ok_or(ElfError::BadHeader(
                ".note.nv.tkinfo string offset out of range",
            ))?;
            let len = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            Ok(&rest[..len])
        };
        Ok(ToolkitInfo {
            version: word(0),
            tool_name: string(word(2))?,
            tool_version: string(word(3))?,
            tool_branch: string(word(4))?,
            arguments: string(word(5))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.note.nv.cuinfo` of a ptxas 13.5.37 sm_90 cubin (`-arch sm_90` from `.target sm_75`).
    const CUINFO: &str = "0c00000008000000e80300004e564944494120436f72700002004b0087000000";

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn cuinfo_of_a_real_cubin() {
        let bytes = unhex(CUINFO);
        let n: Vec<_> = notes(&bytes).collect::<Result<_>>().unwrap();
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].name, NVIDIA_NOTE_OWNER);
        assert_eq!(n[0].n_type, NT_CUDA_INFO);
        let info = CudaInfo::parse(n[0].desc).unwrap();
        assert_eq!(
            info,
            CudaInfo {
                version: 2,
                virtual_sm: 75,
                toolkit_version: 0x87
            }
        );
    }

    #[test]
    fn truncated_notes_fail_once() {
        let bytes = unhex(CUINFO);
        let r: Vec<_> = notes(&bytes[..30]).collect();
        assert_eq!(r.len(), 1);
        assert!(r[0].is_err());
        let huge = [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0];
        assert!(notes(&huge).next().unwrap().is_err());
    }
}
