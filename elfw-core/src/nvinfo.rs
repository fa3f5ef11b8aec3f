//! `.nv.info` / `.nv.info.<function>` and `.nv.compat` records: the EIATTR and EICOMPAT
//! catalogues and a zero-copy record parser.
//!
//! A record is a format byte, an attribute byte and then, by format: `EIFMT_NVAL` (1) two zero
//! bytes; `EIFMT_BVAL` (2) a byte value and a zero byte; `EIFMT_HVAL` (3) a 16-bit value;
//! `EIFMT_SVAL` (4) a 16-bit size followed by that many payload bytes. Per-function attributes
//! put the symbol index in the first four payload bytes.
//!
//! The code -> name tables were read from cuobjdump 13.5.37 itself: a cubin whose `.nv.info`
//! holds one record for every code 0..=127 (and whose `.nv.compat` holds codes 0..=31) was
//! dumped with `cuobjdump -elf`, which names each record. Codes cuobjdump 13.5 prints as
//! "unknown" but that the wiki's ".nv.info attributes" page (ptxas 13.0) names are marked
//! `from_wiki`. The "typical format" column is the format ptxas emits the attribute in (wiki
//! table, checked against the records of real 13.5 cubins where they occur).

use std::fmt;

/// `EIFMT_NVAL`: no value.
pub const EIFMT_NVAL: u8 = 1;
/// `EIFMT_BVAL`: a byte value.
pub const EIFMT_BVAL: u8 = 2;
/// `EIFMT_HVAL`: a 16-bit value.
pub const EIFMT_HVAL: u8 = 3;
/// `EIFMT_SVAL`: a sized payload.
pub const EIFMT_SVAL: u8 = 4;

/// The name of a record format byte.
pub fn format_name(format: u8) -> Option<&'static str> {
    Some(match format {
        EIFMT_NVAL => "EIFMT_NVAL",
        EIFMT_BVAL => "EIFMT_BVAL",
        EIFMT_HVAL => "EIFMT_HVAL",
        EIFMT_SVAL => "EIFMT_SVAL",
        _ => return None,
    })
}

/// One catalogue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeInfo {
    /// The attribute code.
    pub code: u8,
    /// Its name, e.g. `EIATTR_REGCOUNT`.
    pub name: &'static str,
    /// The format ptxas usually writes it in, when known.
    pub typical_format: Option<u8>,
    /// Named only by the wiki (ptxas 13.0); cuobjdump 13.5 prints "unknown Attribute".
    pub from_wiki: bool,
}

const N: u8 = EIFMT_NVAL;
const B: u8 = EIFMT_BVAL;
const H: u8 = EIFMT_HVAL;
const S: u8 = EIFMT_SVAL;

macro_rules! catalogue {
    ($($code:literal $name:ident $fmt:tt $($wiki:ident)?;)*) => {
        &[$(AttributeInfo {
            code: $code,
            name: stringify!($name),
            typical_format: catalogue!(@fmt $fmt),
            from_wiki: catalogue!(@wiki $($wiki)?),
        },)*]
    };
    (@fmt _) => { None };
    (@fmt $f:ident) => { Some($f) };
    (@wiki) => { false };
    (@wiki wiki) => { true };
}

/// The EIATTR catalogue, by code.
pub const EIATTR: &[AttributeInfo] = catalogue! {
    0x00 EIATTR_ERROR _; 0x01 EIATTR_PAD _; 0x02 EIATTR_IMAGE_SLOT S; 0x03 EIATTR_JUMPTABLE_RELOCS S;
    0x04 EIATTR_CTAIDZ_USED N; 0x05 EIATTR_MAX_THREADS S; 0x06 EIATTR_IMAGE_OFFSET S;
    0x07 EIATTR_IMAGE_SIZE S; 0x08 EIATTR_TEXTURE_NORMALIZED S; 0x09 EIATTR_SAMPLER_INIT S;
    0x0a EIATTR_PARAM_CBANK S; 0x0b EIATTR_SMEM_PARAM_OFFSETS S; 0x0c EIATTR_CBANK_PARAM_OFFSETS S;
    0x0d EIATTR_SYNC_STACK S; 0x0e EIATTR_TEXID_SAMPID_MAP S; 0x0f EIATTR_EXTERNS S;
    0x10 EIATTR_REQNTID S; 0x11 EIATTR_FRAME_SIZE S; 0x12 EIATTR_MIN_STACK_SIZE S;
    0x13 EIATTR_SAMPLER_FORCE_UNNORMALIZED S; 0x14 EIATTR_BINDLESS_IMAGE_OFFSETS S;
    0x15 EIATTR_BINDLESS_TEXTURE_BANK S; 0x16 EIATTR_BINDLESS_SURFACE_BANK S;
    0x17 EIATTR_KPARAM_INFO S; 0x18 EIATTR_SMEM_PARAM_SIZE S; 0x19 EIATTR_CBANK_PARAM_SIZE H;
    0x1a EIATTR_QUERY_NUMATTRIB S; 0x1b EIATTR_MAXREG_COUNT H; 0x1c EIATTR_EXIT_INSTR_OFFSETS S;
    0x1d EIATTR_S2RCTAID_INSTR_OFFSETS S; 0x1e EIATTR_CRS_STACK_SIZE S;
    0x1f EIATTR_NEED_CNP_WRAPPER N; 0x20 EIATTR_NEED_CNP_PATCH N; 0x21 EIATTR_EXPLICIT_CACHING S;
    0x22 EIATTR_ISTYPEP_USED S; 0x23 EIATTR_MAX_STACK_SIZE S; 0x24 EIATTR_SUQ_USED S;
    0x25 EIATTR_LD_CACHEMOD_INSTR_OFFSETS S; 0x26 EIATTR_LOAD_CACHE_REQUEST S;
    0x27 EIATTR_ATOM_SYS_INSTR_OFFSETS S; 0x28 EIATTR_COOP_GROUP_INSTR_OFFSETS S;
    0x29 EIATTR_COOP_GROUP_MASK_REGIDS S; 0x2a EIATTR_SW1850030_WAR S wiki;
    0x2b EIATTR_WMMA_USED S; 0x2c EIATTR_HAS_PRE_V10_OBJECT B;
    0x2d EIATTR_ATOMF16_EMUL_INSTR_OFFSETS S; 0x2e EIATTR_ATOM16_EMUL_INSTR_REG_MAP S;
    0x2f EIATTR_REGCOUNT S; 0x30 EIATTR_SW2393858_WAR S wiki; 0x31 EIATTR_INT_WARP_WIDE_INSTR_OFFSETS S;
    0x32 EIATTR_SHARED_SCRATCH S; 0x33 EIATTR_STATISTICS S; 0x34 EIATTR_INDIRECT_BRANCH_TARGETS S;
    0x35 EIATTR_SW2861232_WAR S wiki; 0x36 EIATTR_SW_WAR S; 0x37 EIATTR_CUDA_API_VERSION S;
    0x38 EIATTR_NUM_MBARRIERS S; 0x39 EIATTR_MBARRIER_INSTR_OFFSETS S;
    0x3a EIATTR_COROUTINE_RESUME_ID_OFFSETS S; 0x3b EIATTR_SAM_REGION_STACK_SIZE S;
    0x3c EIATTR_PER_REG_TARGET_PERF_STATS S; 0x3d EIATTR_CTA_PER_CLUSTER S;
    0x3e EIATTR_EXPLICIT_CLUSTER N; 0x3f EIATTR_MAX_CLUSTER_RANK S; 0x40 EIATTR_INSTR_REG_MAP S;
    0x41 EIATTR_RESERVED_SMEM_USED N; 0x42 EIATTR_RESERVED_SMEM_0_SIZE S;
    0x43 EIATTR_UCODE_SECTION_DATA S; 0x44 EIATTR_UNUSED_LOAD_BYTE_OFFSET S;
    0x45 EIATTR_KPARAM_INFO_V2 S; 0x46 EIATTR_SYSCALL_OFFSETS S;
    0x47 EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS S wiki; 0x48 EIATTR_GRAPHICS_GLOBAL_CBANK S;
    0x49 EIATTR_SHADER_TYPE S; 0x4a EIATTR_VRC_CTA_INIT_COUNT S; 0x4b EIATTR_TOOLS_PATCH_FUNC S;
    0x4c EIATTR_NUM_BARRIERS S; 0x4d EIATTR_TEXMODE_INDEPENDENT S; 0x4e EIATTR_PERF_STATISTICS S;
    0x4f EIATTR_AT_ENTRY_FRAGMENTS S; 0x50 EIATTR_SPARSE_MMA_MASK S; 0x51 EIATTR_TCGEN05_1CTA_USED S;
    0x52 EIATTR_TCGEN05_2CTA_USED S; 0x53 EIATTR_GEN_ERRBAR_AT_EXIT S; 0x54 EIATTR_REG_RECONFIG S;
    0x55 EIATTR_ANNOTATIONS S; 0x56 EIATTR_UNKNOWN _ wiki; 0x57 EIATTR_STACK_CANARY_TRAP_OFFSETS S;
    0x58 EIATTR_STUB_FUNCTION_KIND S; 0x59 EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS S;
    0x5a EIATTR_MERCURY_FINALIZER_OPTIONS S wiki; 0x5b EIATTR_BLOCKS_ARE_CLUSTERS N;
    0x5c EIATTR_SANITIZE S; 0x5d EIATTR_SYSCALLS_FALLBACK S; 0x5e EIATTR_CUDA_REQ S;
    0x5f EIATTR_MERCURY_ISA_VERSION H wiki; 0x61 EIATTR_RTCORE_ENTRY _;
    0x62 EIATTR_CLUSTER_LAUNCH_CONTROL_USED _; 0x64 EIATTR_MIN_PER_CTA_MEMORY_SIZE _;
    0x65 EIATTR_IGNOREOOB_CP_ASYNC_BULK_INSTR_OFFSETS _; 0x66 EIATTR_LANGUAGE _;
    0x68 EIATTR_GRID_ATTRIBUTES _; 0x69 EIATTR_STACK_OFFSET _; 0x6a EIATTR_RT_LIVESTATE_SASS_MAP _;
    0x6b EIATTR_NVSAL_SW_WAR _; 0x6c EIATTR_INSTR_OFFSETS _; 0x6d EIATTR_PREEXIT_USED _;
};

/// The EICOMPAT catalogue of `.nv.compat` records (same record layout as `.nv.info`).
pub const EICOMPAT: &[AttributeInfo] = catalogue! {
    0x00 EICOMPAT_ATTR_ERROR _; 0x01 EICOMPAT_ATTR_PAD _; 0x02 EICOMPAT_ATTR_ISA_CLASS B;
    0x03 EICOMPAT_ATTR_INST_TENSORMAP_V1 B; 0x04 EICOMPAT_ATTR_INST_TCGEN05_MMA_DEPRECATED B;
    0x05 EICOMPAT_ATTR_INST_TCGEN05_MMA B; 0x06 EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION B;
    0x09 EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET B; 0x0a EICOMPAT_ATTR_CUDA_DRIVER_VERSION _;
    0x0b EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE S; 0x0c EICOMPAT_ATTR_CUDA_INTERNAL_TARGET B;
    0x0e EICOMPAT_ATTR_FINALIZER_VERSION H; 0x0f EICOMPAT_ATTR_MIN_FINALIZER_VERSION_FOR_MVC _;
};

/// `EIATTR_*` code constants the linker uses by name.
pub mod code {
    /// `EIATTR_PARAM_CBANK`.
    pub const PARAM_CBANK: u8 = 0x0a;
    /// `EIATTR_EXTERNS`.
    pub const EXTERNS: u8 = 0x0f;
    /// `EIATTR_FRAME_SIZE`.
    pub const FRAME_SIZE: u8 = 0x11;
    /// `EIATTR_MIN_STACK_SIZE`.
    pub const MIN_STACK_SIZE: u8 = 0x12;
    /// `EIATTR_CBANK_PARAM_SIZE`.
    pub const CBANK_PARAM_SIZE: u8 = 0x19;
    /// `EIATTR_MAX_STACK_SIZE`.
    pub const MAX_STACK_SIZE: u8 = 0x23;
    /// `EIATTR_REGCOUNT`.
    pub const REGCOUNT: u8 = 0x2f;
    /// `EIATTR_CUDA_API_VERSION`.
    pub const CUDA_API_VERSION: u8 = 0x37;
    /// `EIATTR_NUM_BARRIERS`.
    pub const NUM_BARRIERS: u8 = 0x4c;
    /// `EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET` (in `.nv.compat`): 1 for 'a' builds.
    pub const COMPAT_ACCELERATOR_TARGET: u8 = 0x09;
}

/// The EIATTR catalogue entry for `code`.
pub fn attribute(code: u8) -> Option<&'static AttributeInfo> {
    EIATTR.iter().find(|a| a.code == code)
}

/// The EICOMPAT catalogue entry for `code`.
pub fn compat_attribute(code: u8) -> Option<&'static AttributeInfo> {
    EICOMPAT.iter().find(|a| a.code == code)
}

/// A record's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'d> {
    /// `EIFMT_NVAL`.
    None,
    /// `EIFMT_BVAL`.
    Byte(u8),
    /// `EIFMT_HVAL`.
    Half(u16),
    /// `EIFMT_SVAL` payload.
    Sized(&'d [u8]),
}

/// One record, borrowed from the section bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'d> {
    /// Byte offset of the record in its section.
    pub offset: usize,
    /// The format byte.
    pub format: u8,
    /// The attribute code.
    pub attribute: u8,
    /// The value.
    pub value: Value<'d>,
}

impl<'d> Record<'d> {
    /// The record's size in bytes, header included.
    pub fn size(&self) -> usize {
        match self.value {
            Value::Sized(p) => 4 + p.len(),
            _ => 4,
        }
    }
    /// The payload of an `EIFMT_SVAL` record.
    pub fn payload(&self) -> Option<&'d [u8]> {
        match self.value {
            Value::Sized(p) => Some(p),
            _ => None,
        }
    }
    /// The little-endian u32 at word `i` of the payload.
    pub fn word(&self, i: usize) -> Option<u32> {
        let p = self.payload()?;
        let b = p.get(i.checked_mul(4)?..i * 4 + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }
    /// `(symbol index, value)` of a per-function record with an 8-byte payload
    /// (REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, MAX_STACK_SIZE ...).
    pub fn symbol_and_value(&self) -> Option<(u32, u32)> {
        match self.payload() {
            Some(p) if p.len() == 8 => Some((self.word(0)?, self.word(1)?)),
            _ => None,
        }
    }
}

/// A malformed record stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Fewer than four bytes left for a record header.
    Truncated {
        /// Offset of the record.
        offset: usize,
    },
    /// An `EIFMT_SVAL` payload that runs past the end of the section.
    PayloadPastEnd {
        /// Offset of the record.
        offset: usize,
        /// Its declared payload size.
        size: u16,
    },
    /// A format byte other than 1..=4 (the record's length is then unknown).
    UnknownFormat {
        /// Offset of the record.
        offset: usize,
        /// The format byte.
        format: u8,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RecordError::Truncated { offset } => {
                write!(f, "truncated record at offset {offset:#x}")
            }
            RecordError::PayloadPastEnd { offset, size } => {
                write!(
                    f,
                    "record at offset {offset:#x} declares {size} payload bytes past the end"
                )
            }
            RecordError::UnknownFormat { offset, format } => {
                write!(
                    f,
                    "record at offset {offset:#x} has unknown format {format:#x}"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Iterates the records of a `.nv.info*` or `.nv.compat` section. After an error the
/// iteration ends.
pub fn records(data: &[u8]) -> Records<'_> {
    Records {
        data,
        pos: 0,
        failed: false,
    }
}

/// Iterator returned by [`records`].
#[derive(Clone, Debug)]
pub struct Records<'d> {
    data: &'d [u8],
    pos: usize,
    failed: bool,
}

impl<'d> Iterator for Records<'d> {
    type Item = Result<Record<'d>, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.data.len() {
            return None;
        }
        let offset = self.pos;
        let rest = &self.data[offset..];
        let result = if rest.len() < 4 {
            Err(RecordError::Truncated { offset })
        } else {
            let (format, attribute) = (rest[0], rest[1]);
            let half = u16::from_le_bytes([rest[2], rest[3]]);
            let value = match format {
                EIFMT_NVAL => Ok(Value::None),
                EIFMT_BVAL => Ok(Value::Byte(rest[2])),
                EIFMT_HVAL => Ok(Value::Half(half)),
                EIFMT_SVAL => rest
                    .get(4..4 + half as usize)
                    .map(Value::Sized)
                    .ok_or(RecordError::PayloadPastEnd { offset, size: half }),
                _ => Err(RecordError::UnknownFormat { offset, format }),
            };
            value.map(|value| Record {
                offset,
                format,
                attribute,
                value,
            })
        };
        match result {
            Ok(r) => {
                self.pos += r.size();
                Some(Ok(r))
            }
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `.nv.compat` of a ptxas 13.5.37 sm_90a cubin.
    const COMPAT_90A: &str =
        "02090100020c000002020100030d010102030000040b08000000000000000000030e4004";

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn compat_of_a_real_cubin() {
        let bytes = unhex(COMPAT_90A);
        let recs: Vec<_> = records(&bytes).collect::<Result<_, _>>().unwrap();
        // cuobjdump -elf lists 7 records, the first ACCELERATOR_TARGET = 0x1.
        assert_eq!(recs.len(), 7);
        assert_eq!(recs[0].attribute, code::COMPAT_ACCELERATOR_TARGET);
        assert_eq!(recs[0].value, Value::Byte(1));
        assert_eq!(
            compat_attribute(recs[0].attribute).unwrap().name,
            "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET"
        );
        assert_eq!(recs[3].value, Value::Half(0x101));
        assert_eq!(recs[5].payload().unwrap().len(), 8);
        assert_eq!(recs[6].value, Value::Half(0x440));
    }

    #[test]
    fn catalogue_is_sorted_and_unique() {
        for w in EIATTR.windows(2) {
            assert!(w[0].code < w[1].code);
        }
        assert_eq!(attribute(0x2f).unwrap().name, "EIATTR_REGCOUNT");
        assert_eq!(attribute(0x6d).unwrap().name, "EIATTR_PREEXIT_USED");
        assert!(attribute(0x60).is_none());
    }

    #[test]
    fn malformed_streams_end_with_one_error() {
        let r: Vec<_> = records(&[4, 0x2f, 0xff, 0xff, 0]).collect();
        assert_eq!(
            r,
            [Err(RecordError::PayloadPastEnd {
                offset: 0,
                size: 0xffff
            })]
        );
        let r: Vec<_> = records(&[1, 4, 0, 0, 9, 9, 9, 9, 1]).collect();
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[1],
            Err(RecordError::UnknownFormat {
                offset: 4,
                format: 9
            })
        );
        let r: Vec<_> = records(&[1, 4]).collect();
        assert_eq!(r, [Err(RecordError::Truncated { offset: 0 })]);
    }
}
