//! The NVIDIA section formats the comparison looks inside: `.nv.info` attribute records,
//! `.nv.callgraph` and `.nv.prototype` pairs, and ELF notes (`.note.nv.tkinfo`).

/// Mercury (sm_100 and later) relocations, `.nv.merc.rela*` (observed in nvlink 13.5 output).
pub const SHT_CUDA_MERC_RELA: u32 = 0x7000_0082;
/// Mercury attribute records, `.nv.merc.nv.info*` (observed).
pub const SHT_CUDA_MERC_INFO: u32 = 0x7000_0083;
/// Mercury symbol table, `.nv.merc.symtab` (observed).
pub const SHT_CUDA_MERC_SYMTAB: u32 = 0x7000_0085;
/// Mercury call graph, `.nv.merc.nv.callgraph` (observed).
pub const SHT_CUDA_MERC_CALLGRAPH: u32 = 0x7000_008a;
/// Mercury prototypes, `.nv.merc.nv.prototype` (observed).
pub const SHT_CUDA_MERC_PROTOTYPE: u32 = 0x7000_008b;

/// `EIFMT_SVAL`: the record's u16 is the size of a payload that follows.
pub const EIFMT_SVAL: u8 = 0x04;
/// `EIATTR_EXTERNS`: every payload word is a symbol index.
pub const EIATTR_EXTERNS: u8 = 0x0f;

/// One `.nv.info` attribute record: format byte, attribute byte, u16 (the value, or for
/// `EIFMT_SVAL` the size of the payload that follows), payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'d> {
    /// Offset of the record in its section.
    pub offset: usize,
    /// `EIFMT_*`: 1 none, 2 byte, 3 half-word, 4 sized payload.
    pub format: u8,
    /// `EIATTR_*`.
    pub attribute: u8,
    /// The u16 after the attribute byte.
    pub value: u16,
    /// The payload (`EIFMT_SVAL` only).
    pub payload: &'d [u8],
}

impl Record<'_> {
    /// Total size of the record in bytes.
    pub fn len(&self) -> usize {
        4 + self.payload.len()
    }
    /// Whether the record is only its 4-byte head.
    pub fn is_empty(&self) -> bool {
        self.payload.is_empty()
    }
    /// Offsets inside the payload of the u32 words that are symbol indices.
    ///
    /// Which attributes carry them was read off nvdisasm 13.5, which prints such words as
    /// `index@(symbol)`: the first word of IMAGE_SLOT, IMAGE_OFFSET, IMAGE_SIZE,
    /// TEXTURE_NORMALIZED, SAMPLER_INIT, PARAM_CBANK, FRAME_SIZE, MIN_STACK_SIZE,
    /// SAMPLER_FORCE_UNNORMALIZED, BINDLESS_IMAGE_OFFSETS, KPARAM_INFO, MAX_STACK_SIZE,
    /// LOAD_CACHE_REQUEST, REGCOUNT, SAM_REGION_STACK_SIZE, KPARAM_INFO_V2,
    /// SYSCALLS_FALLBACK; every word of EXTERNS. Other sized records (EXIT_INSTR_OFFSETS,
    /// CUDA_API_VERSION, SW_WAR ...) hold no symbol index.
    pub fn symbol_word_offsets(&self) -> std::ops::Range<usize> {
        if self.format != EIFMT_SVAL || self.payload.len() < 4 {
            return 0..0;
        }
        match self.attribute {
            EIATTR_EXTERNS => 0..self.payload.len() / 4,
            0x02 | 0x06 | 0x07 | 0x08 | 0x09 | 0x0a | 0x11 | 0x12 | 0x13 | 0x14 | 0x17 | 0x23
            | 0x26 | 0x2f | 0x3b | 0x45 | 0x5d => 0..1,
            _ => 0..0,
        }
    }
}

/// Splits a `.nv.info` section into records; `None` when the bytes are not a well-formed
/// record sequence (an unknown format byte, or a payload running past the end).
pub fn records(data: &[u8]) -> Option<Vec<Record<'_>>> {
    let mut out = Vec::new();
    let mut o = 0;
    while o < data.len() {
        let head = data.get(o..o + 4)?;
        let (format, attribute) = (head[0], head[1]);
        let value = u16::from_le_bytes([head[2], head[3]]);
        let payload = match format {
            1..=3 => &data[o + 4..o + 4],
            EIFMT_SVAL => data.get(o + 4..o + 4 + value as usize)?,
            _ => return None,
        };
        out.push(Record {
            offset: o,
            format,
            attribute,
            value,
            payload,
        });
        o += 4 + payload.len();
    }
    Some(out)
}

/// The `EIATTR_*` name of an attribute code, as nvdisasm 13.5 prints it.
pub fn attribute_name(code: u8) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "ERROR",
        "PAD",
        "IMAGE_SLOT",
        "JUMPTABLE_RELOCS",
        "CTAIDZ_USED",
        "MAX_THREADS",
        "IMAGE_OFFSET",
        "IMAGE_SIZE",
        "TEXTURE_NORMALIZED",
        "SAMPLER_INIT",
        "PARAM_CBANK",
        "SMEM_PARAM_OFFSETS",
        "CBANK_PARAM_OFFSETS",
        "SYNC_STACK",
        "TEXID_SAMPID_MAP",
        "EXTERNS",
        "REQNTID",
        "FRAME_SIZE",
        "MIN_STACK_SIZE",
        "SAMPLER_FORCE_UNNORMALIZED",
        "BINDLESS_IMAGE_OFFSETS",
        "BINDLESS_TEXTURE_BANK",
        "BINDLESS_SURFACE_BANK",
        "KPARAM_INFO",
        "SMEM_PARAM_SIZE",
        "CBANK_PARAM_SIZE",
        "QUERY_NUMATTRIB",
        "MAXREG_COUNT",
        "EXIT_INSTR_OFFSETS",
        "S2RCTAID_INSTR_OFFSETS",
        "CRS_STACK_SIZE",
        "NEED_CNP_WRAPPER",
        "NEED_CNP_PATCH",
        "EXPLICIT_CACHING",
        "ISTYPEP_USED",
        "MAX_STACK_SIZE",
        "SUQ_USED",
        "LD_CACHEMOD_INSTR_OFFSETS",
        "LOAD_CACHE_REQUEST",
        "ATOM_SYS_INSTR_OFFSETS",
        "COOP_GROUP_INSTR_OFFSETS",
        "COOP_GROUP_MASK_REGIDS",
        "SW1850030_WAR",
        "WMMA_USED",
        "HAS_PRE_V10_OBJECT",
        "ATOMF16_EMUL_INSTR_OFFSETS",
        "ATOM16_EMUL_INSTR_REG_MAP",
        "REGCOUNT",
        "SW2393858_WAR",
        "INT_WARP_WIDE_INSTR_OFFSETS",
        "SHARED_SCRATCH",
        "STATISTICS",
        "INDIRECT_BRANCH_TARGETS",
        "SW2861232_WAR",
        "SW_WAR",
        "CUDA_API_VERSION",
        "NUM_MBARRIERS",
        "MBARRIER_INSTR_OFFSETS",
        "COROUTINE_RESUME_ID_OFFSETS",
        "SAM_REGION_STACK_SIZE",
        "PER_REG_TARGET_PERF_STATS",
        "CTA_PER_CLUSTER",
        "EXPLICIT_CLUSTER",
        "MAX_CLUSTER_RANK",
        "INSTR_REG_MAP",
        "RESERVED_SMEM_USED",
        "RESERVED_SMEM_0_SIZE",
        "UCODE_SECTION_DATA",
        "UNUSED_LOAD_BYTE_OFFSET",
        "KPARAM_INFO_V2",
        "SYSCALL_OFFSETS",
        "",
        "GRAPHICS_GLOBAL_CBANK",
        "SHADER_TYPE",
        "VRC_CTA_INIT_COUNT",
        "TOOLS_PATCH_FUNC",
        "NUM_BARRIERS",
        "TEXMODE_INDEPENDENT",
        "PERF_STATISTICS",
        "AT_ENTRY_FRAGMENTS",
        "SPARSE_MMA_MASK",
        "TCGEN05_1CTA_USED",
        "TCGEN05_2CTA_USED",
        "GEN_ERRBAR_AT_EXIT",
        "REG_RECONFIG",
        "ANNOTATIONS",
        "",
        "STACK_CANARY_TRAP_OFFSETS",
        "STUB_FUNCTION_KIND",
        "LOCAL_CTA_ASYNC_STORE_OFFSETS",
        "",
        "BLOCKS_ARE_CLUSTERS",
        "SANITIZE",
        "SYSCALLS_FALLBACK",
        "CUDA_REQ",
        "",
        "",
        "RTCORE_ENTRY",
        "CLUSTER_LAUNCH_CONTROL_USED",
        "",
        "MIN_PER_CTA_MEMORY_SIZE",
        "IGNOREOOB_CP_ASYNC_BULK_INSTR_OFFSETS",
        "LANGUAGE",
        "",
        "GRID_ATTRIBUTES",
        "STACK_OFFSET",
        "RT_LIVESTATE_SASS_MAP",
        "",
        "INSTR_OFFSETS",
        "PREEXIT_USED",
    ];
    NAMES.get(code as usize).copied().filter(|n| !n.is_empty())
}

/// `EIATTR_<name>`, or `EIATTR(0x..)` for a code without a known name.
pub fn attribute_label(code: u8) -> String {
    match attribute_name(code) {
        Some(n) => format!("EIATTR_{n}"),
        None => format!("EIATTR({code:#04x})"),
    }
}

/// Whether a `.nv.callgraph` word is one of the group markers (-1 ... -4) rather than a symbol
/// index.
pub fn is_callgraph_marker(word: u32) -> bool {
    word >= 0xffff_fffc
}

/// Splits a section into little-endian u32 pairs; `None` if its size is not a multiple of 8.
pub fn u32_pairs(data: &[u8]) -> Option<Vec<(u32, u32)>> {
    if data.len() % 8 != 0 {
        return None;
    }
    Some(
        data.chunks_exact(8)
            .map(|c| {
                (
                    u32::from_le_bytes(c[0..4].try_into().expect("4 bytes")),
                    u32::from_le_bytes(c[4..8].try_into().expect("4 bytes")),
                )
            })
            .collect(),
    )
}

/// One ELF note: `namesz`, `descsz`, `type`, the name and the descriptor, each padded to 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoteRecord<'d> {
    /// Offset of the note in its section.
    pub offset: usize,
    /// Total size including padding.
    pub len: usize,
    /// `n_type`.
    pub n_type: u32,
    /// The name bytes (with its NUL, without padding).
    pub name: &'d [u8],
    /// The descriptor bytes (without padding).
    pub desc: &'d [u8],
}

/// Splits a note section into notes; `None` when a note runs past the end. The last note's
/// padding may be missing.
pub fn notes(data: &[u8]) -> Option<Vec<NoteRecord<'_>>> {
    let word = |o: usize| {
        data.get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
    };
    let pad = |n: usize| n.checked_add(3).map(|v| v & !3);
    let mut out = Vec::new();
    let mut o = 0;
    while o < data.len() {
        let (namesz, descsz, n_type) = (word(o)? as usize, word(o + 4)? as usize, word(o + 8)?);
        let name_at = o + 12;
        let desc_at = name_at.checked_add(pad(namesz)?)?;
        let name = data.get(name_at..name_at.checked_add(namesz)?)?;
        let desc = data.get(desc_at..desc_at.checked_add(descsz)?)?;
        let end = desc_at.checked_add(pad(descsz)?)?.min(data.len());
        out.push(NoteRecord {
            offset: o,
            len: end - o,
            n_type,
            name,
            desc,
        });
        o = end;
    }
    Some(out)
}

/// The length of the first note of a `.note.nv.tkinfo` section (the one naming the linker that
/// wrote the file), or 0 if the section does not start with a well-formed note.
pub fn first_note_len(data: &[u8]) -> usize {
    notes(data)
        .and_then(|n| n.first().map(|n| n.len))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_and_reject() {
        // REGCOUNT [sym 0x12][24], then an HVAL record without payload.
        let d = [4, 0x2f, 8, 0, 0x12, 0, 0, 0, 24, 0, 0, 0, 3, 0x1b, 0xff, 0];
        let r = records(&d).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].symbol_word_offsets(), 0..1);
        assert_eq!(r[1].value, 0xff);
        assert_eq!(r[1].symbol_word_offsets(), 0..0);
        assert!(
            records(&[4, 0x2f, 9, 0, 0]).is_none(),
            "payload past the end"
        );
        assert!(records(&[9, 0, 0, 0]).is_none(), "unknown format");
    }

    #[test]
    fn names_match_nvdisasm() {
        assert_eq!(attribute_label(0x2f), "EIATTR_REGCOUNT");
        assert_eq!(attribute_label(0x0a), "EIATTR_PARAM_CBANK");
        assert_eq!(attribute_label(0x6d), "EIATTR_PREEXIT_USED");
        assert_eq!(attribute_label(0x37), "EIATTR_CUDA_API_VERSION");
        assert_eq!(attribute_label(0x45), "EIATTR_KPARAM_INFO_V2");
        assert_eq!(attribute_label(0x50), "EIATTR_SPARSE_MMA_MASK");
        assert_eq!(attribute_label(0x5d), "EIATTR_SYSCALLS_FALLBACK");
        assert_eq!(attribute_label(0x66), "EIATTR_LANGUAGE");
        assert_eq!(attribute_label(0x47), "EIATTR(0x47)");
        assert_eq!(attribute_label(0xf0), "EIATTR(0xf0)");
    }

    #[test]
    fn notes_split() {
        let mut d = Vec::new();
        for (name, desc) in [
            (&b"NVIDIA Corp\0"[..], &[1u8, 2, 3][..]),
            (b"NV\0", &[9u8; 8][..]),
        ] {
            d.extend((name.len() as u32).to_le_bytes());
            d.extend((desc.len() as u32).to_le_bytes());
            d.extend(2000u32.to_le_bytes());
            d.extend(name);
            d.resize(d.len().next_multiple_of(4), 0);
            d.extend(desc);
            d.resize(d.len().next_multiple_of(4), 0);
        }
        let n = notes(&d).unwrap();
        assert_eq!(n.len(), 2);
        assert_eq!(n[0].len, 12 + 12 + 4);
        assert_eq!(n[1].desc, &[9u8; 8]);
        assert_eq!(first_note_len(&d), 28);
        assert!(notes(&d[..30]).is_none());
    }
}
