//! Mercury-era images (sm_100, 100a/f, 103, 110, 120, 121): the parts of nvlink 13.5's output
//! that do not depend on the linker's state.
//!
//! How nvlink builds these images (see `/work/notes/mercury-spec.md` for the evidence):
//! every input's `.nv.merc.*` / `.nv.capmerc.text.*` sections form a second, "Mercury" world
//! next to the SASS one. nvlink links the Mercury world with its ordinary engine, the finalizer
//! (FNLZR) rebuilds the SASS world from it, and a second ELF writer serializes both. The input
//! SASS sections are not read at all; elfw stands in for the finalizer by reusing them, which
//! gives nvlink's bytes whenever the finalizer's code for a function does not depend on the link.
//!
//! This module holds the pieces that are pure functions of bytes and names:
//! - naming: which sections are Mercury sections, and the SASS/Mercury twin of a name
//!   ([`classify`], [`sass_twin`], [`merc_twin`]);
//! - the writer's section order, string tables, file layout and program headers
//!   ([`merc_output_order`], [`section_name_table`], [`symbol_name_table`], [`layout`],
//!   [`program_headers`]);
//! - the finalizer's visible rewrites: the capsule's text-section index
//!   ([`set_capsule_text_index`]), the SASS `.nv.info.<f>` split ([`sass_info_split`]), the SASS
//!   `.debug_frame` without dead functions ([`prune_debug_frame`]), `e_flags` ([`e_flags`]) and
//!   the fast-path finalization record of `.nv.compat` ([`fastpath_after_link`]).

use crate::elf::ProgramHeader;
use std::fmt;

/// `sh_type` of `.nv.capmerc.text.<f>` (the function's Mercury capsule).
pub const SHT_MERC_CAPSULE: u32 = 0x7000_0016;
/// `sh_type` of `.nv.merc.nv.constant.user` (the Mercury twin of `.nv.constant3`).
pub const SHT_MERC_USER_CONSTANT: u32 = 0x7000_007c;
/// `sh_type` of `.nv.merc.nv.constant.optimizer.<f>` (the Mercury twin of `.nv.constant2.<f>`).
pub const SHT_MERC_OPTIMIZER_CONSTANT: u32 = 0x7000_0084;
/// `sh_type` of `.nv.merc.nv.constant.entry_image_header_indices.<k>` (a kernel's texture,
/// sampler and surface slots).
pub const SHT_MERC_SLOT_CONSTANT: u32 = 0x7000_0079;
/// `sh_type` of `.nv.merc.rela<section>`.
pub const SHT_MERC_RELA: u32 = 0x7000_0082;
/// `sh_type` of `.nv.merc.nv.info` and `.nv.merc.nv.info.<f>`.
pub const SHT_MERC_INFO: u32 = 0x7000_0083;
/// `sh_type` of `.nv.merc.symtab`.
pub const SHT_MERC_SYMTAB: u32 = 0x7000_0085;
/// `sh_type` of `.nv.merc.nv.resolvedrela<section>` (`--preserve-relocs`).
pub const SHT_MERC_RESOLVED_RELA: u32 = 0x7000_0088;
/// `sh_type` of `.nv.merc.nv.callgraph`.
pub const SHT_MERC_CALLGRAPH: u32 = 0x7000_008a;
/// `sh_type` of `.nv.merc.nv.prototype`.
pub const SHT_MERC_PROTOTYPE: u32 = 0x7000_008b;

/// Prefix of every Mercury section name except the capsules.
pub const MERC_PREFIX: &[u8] = b".nv.merc";
/// Prefix of the per-function capsules, `.nv.capmerc.text.<f>`.
pub const CAPSULE_PREFIX: &[u8] = b".nv.capmerc";
/// The Mercury symbol table's name.
pub const MERC_SYMTAB: &[u8] = b".nv.merc.symtab";
/// The SASS user constant bank and its Mercury twin.
const USER_CONSTANT: (&[u8], &[u8]) = (b".nv.constant3", b".nv.merc.nv.constant.user");
/// The compiler's constants: SASS bank 2 (`.nv.constant2.<f>`) and its Mercury twin
/// (`.nv.merc.nv.constant.optimizer.<f>`), name prefixes. ptxas names the SASS section's own
/// symbol `.nv.constant.optimizer.<f>` too, and nvlink keeps that name.
pub const OPTIMIZER_CONSTANT: (&str, &str) = (".nv.constant2.", ".nv.constant.optimizer.");

/// A kernel's constant bank (SASS `.nv.constant0.<k>`) and the Mercury bank of its texture,
/// sampler and surface slots (`.nv.merc.nv.constant.entry_image_header_indices.<k>`), name
/// prefixes.
pub const SLOT_CONSTANT: (&str, &str) =
    (".nv.constant0.", ".nv.constant.entry_image_header_indices.");

/// NUL bytes the Mercury writer leaves after the last name of `.shstrtab` (every sm_100+ image
/// written by nvlink 13.5 or ptxas 13.5, final or relocatable).
pub const SHSTRTAB_PADDING: usize = 36;

/// `.nv.info.<f>` attributes the finalizer appends to a function's SASS record list (after the
/// records mirrored from Mercury): CBANK_PARAM_SIZE, PARAM_CBANK, SW_WAR, NVSAL_SW_WAR,
/// PREEXIT_USED. The last three on every function, the first two on kernels only.
pub const SASS_ONLY_INFO_ATTRIBUTES: [u8; 5] = [0x19, 0x0a, 0x36, 0x6b, 0x6d];
/// `EIATTR_MERCURY_FINALIZER_OPTIONS`: present in Mercury `.nv.info.<f>` only.
pub const MERCURY_ONLY_INFO_ATTRIBUTE: u8 = 0x5a;

/// What is wrong with bytes handed to this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MercuryError {
    /// A capsule shorter than its 16-byte header.
    ShortCapsule(usize),
    /// A `.debug_frame` entry whose length runs past the section (offset of the entry).
    BadFrameEntry(usize),
    /// An FDE whose CIE pointer names no CIE of the section (offset of the FDE).
    OrphanFde(usize),
    /// A `.nv.info` record running past the section (offset of the record).
    BadInfoRecord(usize),
    /// The SASS and Mercury `.nv.info.<f>` do not start with the same attributes (index of the
    /// first record that differs).
    InfoMismatch(usize),
    /// A layout item names a twin that does not precede it (index of the item).
    BadTwin(usize),
    /// A line-table unit or opcode running past its section (offset where it starts).
    BadLineProgram(usize),
    /// A call-frame instruction elfw does not read, or one running past its program (offset
    /// in the program).
    BadFrameProgram(usize),
}

impl fmt::Display for MercuryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MercuryError::ShortCapsule(n) => write!(f, "capsule of {n} bytes has no header"),
            MercuryError::BadFrameEntry(o) => {
                write!(f, ".debug_frame entry at {o:#x} runs past the section")
            }
            MercuryError::OrphanFde(o) => write!(f, "FDE at {o:#x} names no CIE"),
            MercuryError::BadInfoRecord(o) => write!(f, ".nv.info record at {o:#x} is truncated"),
            MercuryError::InfoMismatch(i) => {
                write!(f, "SASS and Mercury .nv.info records differ at record {i}")
            }
            MercuryError::BadTwin(i) => write!(f, "layout item {i} shares bytes with a later item"),
            MercuryError::BadLineProgram(o) => {
                write!(f, "line-table program at {o:#x} runs past its unit")
            }
            MercuryError::BadFrameProgram(o) => {
                write!(f, "call-frame instruction at {o:#x} is not understood")
            }
        }
    }
}

impl std::error::Error for MercuryError {}

/// The kinds of Mercury sections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MercKind {
    /// `.nv.merc.symtab`.
    Symtab,
    /// `.nv.capmerc.text.<f>`: a function's capsule.
    Capsule,
    /// `.nv.merc.rela<section>`.
    Rela,
    /// `.nv.merc.nv.resolvedrela<section>`.
    ResolvedRela,
    /// `.nv.merc.nv.info` (module-wide records).
    Info,
    /// `.nv.merc.nv.info.<f>`.
    FunctionInfo,
    /// `.nv.merc.nv.callgraph`.
    Callgraph,
    /// `.nv.merc.nv.prototype`.
    Prototype,
    /// `.nv.merc.nv.constant.<bank name>` (`.user` is the twin of `.nv.constant3`).
    Constant,
    /// `.nv.merc.nv.global.init`.
    GlobalInit,
    /// `.nv.merc.nv.shared.reserved.<n>` (sm_110's reserved shared memory).
    SharedReserved,
    /// `.nv.merc.debug_*` and `.nv.merc.nv_debug_*`.
    Debug,
    /// Any other `.nv.merc.*` name.
    Other,
}

/// The kind of a Mercury section, `None` for a SASS-world name.
pub fn classify(name: &[u8]) -> Option<MercKind> {
    if name.starts_with(b".nv.capmerc.text.") {
        return Some(MercKind::Capsule);
    }
    let rest = name.strip_prefix(MERC_PREFIX)?;
    if !rest.starts_with(b".") {
        return None;
    }
    Some(if rest == b".symtab" {
        MercKind::Symtab
    } else if rest.starts_with(b".rela") {
        MercKind::Rela
    } else if rest.starts_with(b".nv.resolvedrela") {
        MercKind::ResolvedRela
    } else if rest == b".nv.info" {
        MercKind::Info
    } else if rest.starts_with(b".nv.info.") {
        MercKind::FunctionInfo
    } else if rest == b".nv.callgraph" {
        MercKind::Callgraph
    } else if rest == b".nv.prototype" {
        MercKind::Prototype
    } else if rest.starts_with(b".nv.constant") {
        MercKind::Constant
    } else if rest.starts_with(b".nv.global.init") {
        MercKind::GlobalInit
    } else if rest.starts_with(b".nv.shared.reserved.") {
        MercKind::SharedReserved
    } else if rest.starts_with(b".debug_") || rest.starts_with(b".nv_debug_") {
        MercKind::Debug
    } else {
        MercKind::Other
    })
}

/// The SASS section a Mercury section mirrors: `.nv.capmerc.text.<f>` → `.text.<f>`,
/// `.nv.merc.nv.constant.user` → `.nv.constant3`, `.nv.merc.nv.constant.optimizer.<f>` →
/// `.nv.constant2.<f>` (and their relocation sections), `.nv.merc<X>` → `<X>`. `None` for
/// `.nv.merc.symtab` (its counterpart is `.symtab`, which is not a twin in the writer's order)
/// and for names that are not Mercury sections.
pub fn sass_twin(merc_name: &[u8]) -> Option<Vec<u8>> {
    if merc_name == USER_CONSTANT.1 {
        return Some(USER_CONSTANT.0.to_vec());
    }
    if merc_name == MERC_SYMTAB {
        return None;
    }
    if let Some(rest) = merc_name.strip_prefix(CAPSULE_PREFIX) {
        return rest.starts_with(b".text.").then(|| rest.to_vec());
    }
    let rest = merc_name.strip_prefix(MERC_PREFIX)?;
    if !rest.starts_with(b".") {
        return None;
    }
    // `.nv.merc[.rela].nv.constant.optimizer.<f>` → `[.rela].nv.constant2.<f>`.
    let (sass, merc) = (
        OPTIMIZER_CONSTANT.0.as_bytes(),
        OPTIMIZER_CONSTANT.1.as_bytes(),
    );
    for rela in [&b""[..], b".rela"] {
        if let Some(f) = rest.strip_prefix(rela).and_then(|r| r.strip_prefix(merc)) {
            return Some([rela, sass, f].concat());
        }
        // A final link's texture/surface slots: `.nv.merc[.rela].nv.constant.entry_image_header_indices.<k>`
        // → `[.rela].nv.constant0.<k>`.
        if let Some(k) = rest
            .strip_prefix(rela)
            .and_then(|r| r.strip_prefix(SLOT_CONSTANT.1.as_bytes()))
        {
            return Some([rela, SLOT_CONSTANT.0.as_bytes(), k].concat());
        }
    }
    Some(rest.to_vec())
}

/// The Mercury name of a SASS section: the inverse of [`sass_twin`].
pub fn merc_twin(sass_name: &[u8]) -> Vec<u8> {
    if sass_name == USER_CONSTANT.0 {
        return USER_CONSTANT.1.to_vec();
    }
    let (sass, merc) = (
        OPTIMIZER_CONSTANT.0.as_bytes(),
        OPTIMIZER_CONSTANT.1.as_bytes(),
    );
    for rela in [&b""[..], b".rela"] {
        if let Some(f) = sass_name
            .strip_prefix(rela)
            .and_then(|r| r.strip_prefix(sass))
        {
            return [MERC_PREFIX, rela, merc, f].concat();
        }
    }
    let prefix = if sass_name.starts_with(b".text.") {
        CAPSULE_PREFIX
    } else {
        MERC_PREFIX
    };
    [prefix, sass_name].concat()
}

/// The writer's order for the Mercury sections, which follow every SASS section:
/// `.nv.merc.symtab` first, then each Mercury section at the position of its SASS twin in
/// `sass` (the SASS section names in output order). Sections whose twin is not in `sass` come
/// last, in their given order (none was seen in nvlink's output). `twins[i]`, when given, is
/// the position of `merc[i]`'s twin in `sass`: sections may share a name (local functions of
/// several inputs), and then only the caller knows which twin is whose.
///
/// Returns indices into `merc`.
pub fn merc_output_order(sass: &[&[u8]], merc: &[&[u8]], twins: &[Option<usize>]) -> Vec<usize> {
    let key = |i: usize| -> (u8, usize, bool) {
        let name = merc[i];
        if name == MERC_SYMTAB {
            return (0, 0, false);
        }
        let by_name = || sass_twin(name).and_then(|t| sass.iter().position(|s| *s == t.as_slice()));
        // (A relocation section placed at the section it relocates goes first.)
        let data = !name.starts_with(b".nv.merc.rela");
        match twins.get(i).copied().flatten().or_else(by_name) {
            Some(p) => (1, p, data),
            None => (2, 0, false),
        }
    };
    let mut order: Vec<usize> = (0..merc.len()).collect();
    order.sort_by_key(|&i| key(i));
    order
}

/// A string table and the offset of each string it was built from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StringTable {
    /// The section bytes.
    pub bytes: Vec<u8>,
    /// The offset of each input string, in input order (0 for the empty string).
    pub offsets: Vec<u32>,
}

/// `.shstrtab` as the Mercury writer makes it: a NUL, then every section's name (the null
/// section's excluded) in section order, each NUL-terminated (a name two sections share is
/// written once), then
/// [`SHSTRTAB_PADDING`] NULs. `names[0]` is the null section's (empty) name.
pub fn section_name_table(names: &[&[u8]]) -> StringTable {
    let mut bytes = vec![0u8];
    let mut offsets = Vec::with_capacity(names.len());
    // Sections may share a name (local functions of several inputs): written once.
    let mut seen: rustc_hash::FxHashMap<&[u8], u32> = rustc_hash::FxHashMap::default();
    for (i, &name) in names.iter().enumerate() {
        if i == 0 {
            offsets.push(0);
            continue;
        }
        let at = *seen.entry(name).or_insert_with(|| {
            let at = bytes.len() as u32;
            bytes.extend_from_slice(name);
            bytes.push(0);
            at
        });
        offsets.push(at);
    }
    bytes.resize(bytes.len() + SHSTRTAB_PADDING, 0);
    StringTable { bytes, offsets }
}

/// `.strtab` as the Mercury writer makes it, shared by `.symtab` and `.nv.merc.symtab`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolNames {
    /// The section bytes.
    pub bytes: Vec<u8>,
    /// `st_name` of each `.symtab` entry.
    pub symtab: Vec<u32>,
    /// `st_name` of each `.nv.merc.symtab` entry.
    pub merc_symtab: Vec<u32>,
    /// The offset of each prototype string.
    pub prototypes: Vec<u32>,
}

/// Builds `.strtab`: a NUL, the names of `.symtab` in symbol order, then those of
/// `.nv.merc.symtab`, then the prototype strings (in the order `.nv.callgraph` and then
/// `.nv.prototype` refer to them). A string already in the table is not added again (exact
/// match only: no suffix sharing); the empty name is offset 0.
pub fn symbol_name_table<'a>(
    symtab: &[&'a [u8]],
    merc_symtab: &[&'a [u8]],
    prototypes: &[&'a [u8]],
) -> SymbolNames {
    fn intern<'a>(
        seen: &mut rustc_hash::FxHashMap<&'a [u8], u32>,
        bytes: &mut Vec<u8>,
        s: &'a [u8],
    ) -> u32 {
        *seen.entry(s).or_insert_with(|| {
            let o = bytes.len() as u32;
            bytes.extend_from_slice(s);
            bytes.push(0);
            o
        })
    }
    let mut seen: rustc_hash::FxHashMap<&'a [u8], u32> = Default::default();
    seen.insert(b"", 0);
    let mut bytes = vec![0u8];
    let symtab = symtab
        .iter()
        .map(|s| intern(&mut seen, &mut bytes, s))
        .collect();
    let merc_symtab = merc_symtab
        .iter()
        .map(|s| intern(&mut seen, &mut bytes, s))
        .collect();
    let prototypes = prototypes
        .iter()
        .map(|s| intern(&mut seen, &mut bytes, s))
        .collect();
    SymbolNames {
        bytes,
        symtab,
        merc_symtab,
        prototypes,
    }
}

/// One section as the file layout sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutItem {
    /// `sh_size`.
    pub size: u64,
    /// `sh_addralign` (0 counts as 1).
    pub align: u64,
    /// Whether the section has bytes in the file (not NOBITS nor a no-data CUDA type).
    pub has_file_data: bool,
    /// The earlier section whose file bytes this one shares (a Mercury section identical to its
    /// SASS twin, see [`shares_file_bytes`]).
    pub shares_with: Option<usize>,
}

/// Where the writer puts everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// `sh_offset` of each item.
    pub offsets: Vec<u64>,
    /// `e_shoff`: right after the last section's bytes, not aligned.
    pub section_headers: u64,
    /// `e_phoff`: right after the section header table (0 without program headers).
    pub program_headers: u64,
    /// The file size.
    pub file_size: u64,
}

/// Lays the sections out after the 64-byte ELF header, in section order: each at the next
/// multiple of its alignment; a section without file data takes the aligned offset but no room;
/// a section that shares bytes takes its twin's offset and takes no room. The section header
/// table follows the last byte (unaligned), the program header table follows it.
///
/// `items[0]` is the null section (offset 0).
pub fn layout(items: &[LayoutItem], phnum: usize) -> Result<Layout, MercuryError> {
    let mut offsets = Vec::with_capacity(items.len());
    let mut end = 64u64;
    for (i, it) in items.iter().enumerate() {
        if i == 0 {
            offsets.push(0);
            continue;
        }
        if let Some(t) = it.shares_with {
            let o = *offsets
                .get(t)
                .filter(|_| t < i)
                .ok_or(MercuryError::BadTwin(i))?;
            offsets.push(o);
            continue;
        }
        let a = it.align.max(1);
        let o = end.div_ceil(a).saturating_mul(a);
        offsets.push(o);
        end = if it.has_file_data {
            o.saturating_add(it.size)
        } else {
            o
        };
    }
    let section_headers = end;
    let after_sections = section_headers.saturating_add(64 * items.len() as u64);
    let program_headers = if phnum == 0 { 0 } else { after_sections };
    let file_size = after_sections.saturating_add(56 * phnum as u64);
    Ok(Layout {
        offsets,
        section_headers,
        program_headers,
        file_size,
    })
}

/// Whether the writer gives a Mercury section its SASS twin's file bytes: when both hold the
/// same bytes, except for tables the finalizer rebuilds (`.nv.merc.symtab`, `.nv.merc.nv.info*`,
/// callgraph, prototype and relocation sections), which always get their own copy. Seen shared:
/// `.nv.merc.nv.global.init`, `.nv.merc.nv.constant.user`, `.nv.merc.debug_abbrev`,
/// `.nv.merc.debug_info`, `.nv.merc.nv_debug_ptx_txt.*`.
pub fn shares_file_bytes(merc_name: &[u8], merc_bytes: &[u8], sass_bytes: &[u8]) -> bool {
    let own_copy = matches!(
        classify(merc_name),
        None | Some(
            MercKind::Symtab
                | MercKind::Info
                | MercKind::FunctionInfo
                | MercKind::Callgraph
                | MercKind::Prototype
                | MercKind::Rela
                | MercKind::ResolvedRela
                | MercKind::Capsule
        )
    );
    !own_copy && merc_bytes == sass_bytes
}

/// One section as the program headers see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentSection {
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_flags`.
    pub flags: u64,
    /// Whether the section has bytes in the file.
    pub has_file_data: bool,
    /// `sh_addralign` (zero-filled sections take their alignment in memory).
    pub align: u64,
}

const PT_LOAD: u32 = 1;
const PT_PHDR: u32 = 6;
const PF_R: u32 = 4;
const PF_RX: u32 = 5;
const PF_RW: u32 = 6;

/// The program headers of a final Mercury image, from its sections in section order
/// (Mercury sections, which carry `SHF_CUDA_MERCURY`, are ignored):
/// 1. `PT_PHDR` over the table itself, flags R;
/// 2. `PT_LOAD` repeating it;
/// 3. `PT_LOAD` R over the constant banks before the code (alloc, not write/exec: `.nv.constant3`
///    …, and the kernels' compiler constants `.nv.constant2.<k>`, which carry `SHF_INFO_LINK`);
/// 4. `PT_LOAD` R+X over the `.text.<f>` sections;
/// 5. `PT_LOAD` R+W over `.nv.global.init` and the NOBITS data: `p_filesz` up to the file offset
///    where the group ends (a NOBITS section counts with size 0), `p_memsz` = that plus every
///    NOBITS size;
/// 6. `PT_LOAD` R over the kernels' `.nv.constant0.<k>` (alloc with `SHF_INFO_LINK`, after the
///    code).
///
/// A group without sections has no entry. Each LOAD spans from its first section's offset to the
/// end of its last; vaddr and paddr are 0, alignment 8.
pub fn program_headers(sections: &[SegmentSection], phoff: u64) -> Vec<ProgramHeader> {
    const ALLOC: u64 = 0x2;
    const WRITE: u64 = 0x1;
    const EXEC: u64 = 0x4;
    const INFO_LINK: u64 = 0x40;
    const MERCURY: u64 = 0x1000_0000;
    let loaded = |s: &SegmentSection| s.flags & ALLOC != 0 && s.flags & MERCURY == 0;
    // (Sections with `SHF_INFO_LINK` before the code are bank 2's; after it, bank 0's.)
    let first_code = sections
        .iter()
        .position(|s| loaded(s) && s.flags & EXEC != 0)
        .unwrap_or(0);
    // Member test: flags, and whether the section comes before the code.
    type Member = fn(u64, bool) -> bool;
    let groups: [(u32, Member); 4] = [
        (PF_R, |f, before| {
            f & (WRITE | EXEC) == 0 && (f & INFO_LINK == 0 || before)
        }),
        (PF_RX, |f, _| f & EXEC != 0),
        (PF_RW, |f, _| f & WRITE != 0),
        (PF_R, |f, before| {
            f & (WRITE | EXEC) == 0 && f & INFO_LINK != 0 && !before
        }),
    ];
    let mut loads = Vec::new();
    for (flags, member) in groups {
        let members: Vec<&SegmentSection> = sections
            .iter()
            .enumerate()
            .filter(|&(i, s)| loaded(s) && member(s.flags, i < first_code))
            .map(|(_, s)| s)
            .collect();
        let Some(first) = members.first() else {
            continue;
        };
        let start = first.offset;
        let file_end = members
            .iter()
            .map(|s| {
                s.offset
                    .saturating_add(if s.has_file_data { s.size } else { 0 })
            })
            .max()
            .unwrap_or(start);
        let nobits: u64 = members
            .iter()
            .filter(|s| !s.has_file_data)
            .fold(0u64, |sum, s| {
                let align = s.align.max(1);
                sum.div_ceil(align)
                    .saturating_mul(align)
                    .saturating_add(s.size)
            });
        let filesz = file_end.saturating_sub(start);
        loads.push(ProgramHeader {
            p_type: PT_LOAD,
            flags,
            offset: start,
            vaddr: 0,
            paddr: 0,
            filesz,
            memsz: filesz.saturating_add(nobits),
            align: 8,
        });
    }
    let table = 56 * (loads.len() as u64 + 2);
    let own = ProgramHeader {
        p_type: PT_PHDR,
        flags: PF_R,
        offset: phoff,
        vaddr: 0,
        paddr: 0,
        filesz: table,
        memsz: table,
        align: 8,
    };
    let mut out = vec![
        own,
        ProgramHeader {
            p_type: PT_LOAD,
            ..own
        },
    ];
    out.extend(loads);
    out
}

/// The fixed header of a `.nv.capmerc.text.<f>` capsule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapsuleHeader {
    /// Word 0: the section index of the function's SASS `.text.<f>` in the same ELF.
    pub text_index: u32,
    /// Word 1: 0xc0000001 in every capsule seen.
    pub flags: u32,
    /// Word 2: one more than the number of Mercury instructions of the function; a bitmap of
    /// that many bits (set = instruction not stored, rebuilt from SASS) follows at byte 12.
    pub slots: u32,
}

/// Reads a capsule's header.
pub fn capsule_header(capsule: &[u8]) -> Result<CapsuleHeader, MercuryError> {
    let word = |i: usize| -> Result<u32, MercuryError> {
        capsule
            .get(4 * i..4 * i + 4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or(MercuryError::ShortCapsule(capsule.len()))
    };
    if capsule.len() < 16 {
        return Err(MercuryError::ShortCapsule(capsule.len()));
    }
    Ok(CapsuleHeader {
        text_index: word(0)?,
        flags: word(1)?,
        slots: word(2)?,
    })
}

/// Writes the capsule's first word: the output section index of the function's `.text.<f>`.
/// This is the only change nvlink makes to a capsule unless a link-time value lands in one of
/// its stored instructions (see the spec, rule M8).
pub fn set_capsule_text_index(capsule: &mut [u8], text_index: u32) -> Result<(), MercuryError> {
    let len = capsule.len();
    let w = capsule
        .get_mut(..4)
        .filter(|_| len >= 16)
        .ok_or(MercuryError::ShortCapsule(len))?;
    w.copy_from_slice(&text_index.to_le_bytes());
    Ok(())
}

/// Where a capsule stores the Mercury instruction that SASS instruction `sass_index` of the
/// function (its offset / 16) belongs to: the record's offset and length (16 bytes for an
/// instruction whose first byte is 1, 32 for 2), or `None` when the bitmap says the instruction
/// is not stored (the driver rebuilds it), it is stored in short form, or the capsule cannot be
/// walked that far.
///
/// After the header and the bitmap (padded to 4 bytes) each stored Mercury instruction is an
/// optional 2-byte expansion item (a byte whose low 7 bits are 0x51: the instruction became
/// `u16 >> 7` SASS instructions; 0x50 on the last slot, which holds only that) and a record: the
/// instruction whole (first byte 1 or 2) or a 4-byte short record (its first 4 bytes, bit 0x40
/// set in the first, the rest rebuilt from SASS). An omitted instruction is one SASS
/// instruction, as a stored one without an item.
pub fn capsule_record(capsule: &[u8], sass_index: u32) -> Option<(usize, usize)> {
    let h = capsule_header(capsule).ok()?;
    let slots = h.slots as usize;
    let bitmap_len = slots.div_ceil(8);
    let bitmap = capsule.get(12..12 + bitmap_len)?;
    let omitted = |i: usize| bitmap[i / 8] >> (i % 8) & 1 == 1;
    let want = sass_index as usize;
    let mut at = 12 + bitmap_len.div_ceil(4) * 4;
    let mut sass = 0usize;
    for i in 0..slots {
        if sass > want {
            return None;
        }
        if omitted(i) {
            sass += 1;
            continue;
        }
        let mut count = 1;
        while let Some(&b) = capsule.get(at) {
            if b & 0x7f != 0x50 && b & 0x7f != 0x51 {
                break;
            }
            let item = u16::from_le_bytes([b, *capsule.get(at + 1)?]);
            count = (item >> 7) as usize;
            at += 2;
        }
        if i + 1 == slots {
            return None;
        }
        let len = match capsule.get(at)? {
            1 => 16,
            2 => 32,
            _ => 4,
        };
        if at + len > capsule.len() {
            return None;
        }
        if (sass..sass + count).contains(&want) {
            return (len > 4).then_some((at, len));
        }
        at += len;
        sass += count;
    }
    None
}

/// The `.nv.info` records of a section as (offset, length, format, attribute).
fn info_records(d: &[u8]) -> Result<Vec<(usize, usize, u8, u8)>, MercuryError> {
    let mut out = Vec::new();
    let mut o = 0;
    while o < d.len() {
        let head = d.get(o..o + 4).ok_or(MercuryError::BadInfoRecord(o))?;
        let len = if head[0] == 0x04 {
            4 + u16::from_le_bytes([head[2], head[3]]) as usize
        } else {
            4
        };
        if o + len > d.len() {
            return Err(MercuryError::BadInfoRecord(o));
        }
        out.push((o, len, head[0], head[1]));
        o += len;
    }
    Ok(out)
}

/// Splits an input's SASS `.nv.info.<f>` into the records mirrored from Mercury and the records
/// the finalizer appended ([`SASS_ONLY_INFO_ATTRIBUTES`]); returns the byte length of the
/// mirrored head.
///
/// The head holds as many records as the Mercury twin `.nv.merc.nv.info.<f>` minus its
/// [`MERCURY_ONLY_INFO_ATTRIBUTE`] record, with the same attributes in the same order (their
/// values can differ: instruction offsets are SASS offsets). In the output, the head gets the
/// same treatment as a whole sm_90 `.nv.info.<f>` (reversed, EXTERNS filtered, symbols remapped,
/// link-added records such as CRS_STACK_SIZE appended) and the tail follows unchanged.
pub fn sass_info_split(sass: &[u8], merc: &[u8]) -> Result<usize, MercuryError> {
    let s = info_records(sass)?;
    let m: Vec<_> = info_records(merc)?
        .into_iter()
        .filter(|r| r.3 != MERCURY_ONLY_INFO_ATTRIBUTE)
        .collect();
    for (i, mr) in m.iter().enumerate() {
        match s.get(i) {
            Some(sr) if (sr.2, sr.3) == (mr.2, mr.3) => {}
            _ => return Err(MercuryError::InfoMismatch(i)),
        }
    }
    Ok(s.get(m.len()).map_or(sass.len(), |r| r.0))
}

/// One `.debug_frame` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameEntry {
    /// Offset of the entry in the section.
    pub offset: usize,
    /// Bytes of the whole entry, length field included.
    pub size: usize,
    /// Size of the length field: 4 (32-bit DWARF) or 12 (64-bit, `0xffffffff` escape).
    pub length_size: usize,
    /// The CIE id / CIE pointer field (all ones for a CIE).
    pub cie_pointer: u64,
}

impl FrameEntry {
    /// Whether the entry is a CIE.
    pub fn is_cie(&self) -> bool {
        if self.length_size == 4 {
            self.cie_pointer == 0xffff_ffff
        } else {
            self.cie_pointer == u64::MAX
        }
    }
}

/// The entries of a `.debug_frame` section. CUDA objects use the 64-bit DWARF format, whose
/// CIE pointers are section offsets.
pub fn frame_entries(d: &[u8]) -> Result<Vec<FrameEntry>, MercuryError> {
    let mut out = Vec::new();
    let mut o = 0;
    while o < d.len() {
        let bad = MercuryError::BadFrameEntry(o);
        let len32 = u32::from_le_bytes(d.get(o..o + 4).ok_or(bad)?.try_into().map_err(|_| bad)?);
        let (length_size, len, id_size) = if len32 == 0xffff_ffff {
            let l = u64::from_le_bytes(
                d.get(o + 4..o + 12)
                    .ok_or(bad)?
                    .try_into()
                    .map_err(|_| bad)?,
            );
            (12, l, 8)
        } else {
            (4, len32 as u64, 4)
        };
        let size = usize::try_from(len)
            .ok()
            .and_then(|l| l.checked_add(length_size))
            .filter(|&s| o + s <= d.len() && s >= length_size + id_size)
            .ok_or(bad)?;
        let id = d
            .get(o + length_size..o + length_size + id_size)
            .ok_or(bad)?;
        let cie_pointer = if id_size == 8 {
            u64::from_le_bytes(id.try_into().map_err(|_| bad)?)
        } else {
            u32::from_le_bytes(id.try_into().map_err(|_| bad)?) as u64
        };
        out.push(FrameEntry {
            offset: o,
            size,
            length_size,
            cie_pointer,
        });
        o += size;
    }
    Ok(out)
}

/// One input's block of the SASS `.debug_frame` after [`prune_debug_frame`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrunedFrame {
    /// The block's bytes, CIE pointers rewritten.
    pub bytes: Vec<u8>,
    /// (old offset, new offset) of every kept entry, in order; relocations against the block
    /// move with their entry.
    pub moved: Vec<(usize, usize)>,
}

/// The SASS `.debug_frame` block of one input as the finalizer rebuilds it: FDEs for which
/// `keep_fde(offset)` is false are removed (functions not in the output: dead, or the losing copy
/// of a weak function), a CIE that no kept FDE belongs to is removed, and every kept FDE's CIE
/// pointer becomes `base` + the new offset of its CIE (`base` = where the block starts in the
/// output section). An FDE belongs to the last CIE before it: inputs leave the pointer field 0
/// and carry it in an `R_CUDA_64` whose addend is the offset of the Mercury CIE, which can fall
/// inside the SASS CIE; ptxas writes each FDE right after its CIE. The Mercury
/// `.nv.merc.debug_frame` is not pruned: dead FDEs keep their bytes there, as on sm_90.
pub fn prune_debug_frame(
    d: &[u8],
    base: u64,
    keep_fde: impl FnMut(usize) -> bool,
) -> Result<PrunedFrame, MercuryError> {
    rebuild_debug_frame(d, base, keep_fde, |_| None)
}

/// [`prune_debug_frame`], with kept entries (CIEs and FDEs, by offset) that `replace` gives
/// other bytes for written as those bytes (whole entries; an FDE's CIE pointer is still
/// rewritten). Used where the finalizer rewrites the entries of a function several FDEs
/// describe (a weak function whose later copy won).
pub fn rebuild_debug_frame(
    d: &[u8],
    base: u64,
    mut keep_fde: impl FnMut(usize) -> bool,
    mut replace: impl FnMut(usize) -> Option<Vec<u8>>,
) -> Result<PrunedFrame, MercuryError> {
    let entries = frame_entries(d)?;
    let mut owner = vec![None; entries.len()];
    let mut last_cie = None;
    for (i, e) in entries.iter().enumerate() {
        if e.is_cie() {
            last_cie = Some(i);
        } else {
            owner[i] = Some(last_cie.ok_or(MercuryError::OrphanFde(e.offset))?);
        }
    }
    let mut keep = vec![false; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        if let Some(cie) = owner[i].filter(|_| keep_fde(e.offset)) {
            keep[i] = true;
            keep[cie] = true;
        }
    }
    let mut out = PrunedFrame::default();
    let mut new_offset = vec![0usize; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let new = out.bytes.len();
        new_offset[i] = new;
        out.moved.push((e.offset, new));
        match replace(e.offset) {
            Some(bytes) => out.bytes.extend_from_slice(&bytes),
            None => out.bytes.extend_from_slice(&d[e.offset..e.offset + e.size]),
        }
        if let Some(cie) = owner[i] {
            let new_cie = base + new_offset[cie] as u64;
            let at = new + e.length_size;
            if e.length_size == 12 {
                out.bytes[at..at + 8].copy_from_slice(&new_cie.to_le_bytes());
            } else {
                out.bytes[at..at + 4].copy_from_slice(&(new_cie as u32).to_le_bytes());
            }
        }
    }
    Ok(out)
}

/// One row of a call-frame program: where it starts (bytes from the function's start) and the
/// call-frame instructions that take effect there, each with its operands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameRow {
    /// Location in bytes (advances times the CIE's code alignment factor).
    pub loc: u64,
    /// The instructions at this location, in program order.
    pub ops: Vec<Vec<u8>>,
}

/// The code alignment factor of a CIE entry (whole entry, 64-bit DWARF as ptxas writes it).
pub fn cie_code_align(cie: &[u8]) -> Option<u64> {
    // length escape (4) + length (8) + CIE id (8) + version (1) + augmentation string.
    let aug = cie.get(21..)?;
    let nul = aug.iter().position(|&b| b == 0)?;
    let (v, _) = uleb(cie, 21 + nul + 1)?;
    Some(v)
}

/// The address range of an FDE entry (64-bit DWARF).
pub fn fde_range(fde: &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(fde.get(28..36)?.try_into().ok()?))
}

/// The call-frame program of an FDE entry (64-bit DWARF: past its CIE pointer, initial
/// location and address range).
pub fn fde_program(fde: &[u8]) -> &[u8] {
    fde.get(36..).unwrap_or(&[])
}

fn uleb(d: &[u8], mut at: usize) -> Option<(u64, usize)> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *d.get(at)?;
        at += 1;
        if shift < 64 {
            v |= u64::from(b & 0x7f) << shift;
        }
        shift += 7;
        if b & 0x80 == 0 {
            return Some((v, at));
        }
    }
}

/// The rows of a call-frame program: a row at location 0, then one at each location an
/// advance reaches; `DW_CFA_nop`s are left out. Locations are in bytes (`code_align` times the
/// advances).
pub fn frame_rows(program: &[u8], code_align: u64) -> Result<Vec<FrameRow>, MercuryError> {
    let mut rows = vec![FrameRow::default()];
    let mut at = 0;
    while at < program.len() {
        let bad = MercuryError::BadFrameProgram(at);
        let op = program[at];
        let skip_uleb = |at: usize| uleb(program, at).map(|(_, a)| a).ok_or(bad);
        let advance = |delta: u64, rows: &mut Vec<FrameRow>| {
            if delta != 0 {
                let loc = rows.last().map_or(0, |r| r.loc) + delta * code_align;
                rows.push(FrameRow {
                    loc,
                    ops: Vec::new(),
                });
            }
        };
        let fixed = |n: usize| -> Result<u64, MercuryError> {
            let b = program.get(at + 1..at + 1 + n).ok_or(bad)?;
            Ok(b.iter().rev().fold(0u64, |v, &x| (v << 8) | u64::from(x)))
        };
        let end = match op {
            0x00 => {
                at += 1;
                continue;
            }
            0x40..=0x7f => {
                advance(u64::from(op & 0x3f), &mut rows);
                at += 1;
                continue;
            }
            0x02..=0x04 => {
                let n = [1, 2, 4][(op - 2) as usize];
                advance(fixed(n)?, &mut rows);
                at += 1 + n;
                continue;
            }
            0x80..=0xbf => skip_uleb(at + 1)?,
            0xc0..=0xff | 0x0a | 0x0b => at + 1,
            0x06 | 0x07 | 0x08 | 0x0d | 0x0e | 0x13 => skip_uleb(at + 1)?,
            0x05 | 0x09 | 0x0c | 0x11 | 0x12 | 0x14 | 0x15 => skip_uleb(skip_uleb(at + 1)?)?,
            0x0f => {
                let (n, a) = uleb(program, at + 1).ok_or(bad)?;
                a.checked_add(usize::try_from(n).map_err(|_| bad)?)
                    .ok_or(bad)?
            }
            0x10 | 0x16 => {
                let a = skip_uleb(at + 1)?;
                let (n, a) = uleb(program, a).ok_or(bad)?;
                a.checked_add(usize::try_from(n).map_err(|_| bad)?)
                    .ok_or(bad)?
            }
            _ => return Err(bad),
        };
        let bytes = program.get(at..end).ok_or(bad)?;
        if let Some(row) = rows.last_mut() {
            row.ops.push(bytes.to_vec());
        }
        at = end;
    }
    Ok(rows)
}

/// A call-frame program from rows (locations ascending): `DW_CFA_advance_loc4` to each row's
/// location, then its instructions.
pub fn frame_program(rows: &[FrameRow], code_align: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut cur = 0;
    let align = code_align.max(1);
    for r in rows {
        if r.loc > cur {
            out.push(0x04);
            out.extend_from_slice(&(((r.loc - cur) / align) as u32).to_le_bytes());
            cur = r.loc;
        }
        for op in &r.ops {
            out.extend_from_slice(op);
        }
    }
    out
}

/// An FDE entry (64-bit DWARF) with `head`'s CIE pointer and initial location, the address
/// range `range` and the call-frame program `program`, padded with `DW_CFA_nop` to a multiple of
/// 8 bytes as the finalizer writes them.
pub fn fde_entry(head: &[u8], range: u64, program: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(40 + program.len());
    out.extend_from_slice(&[0xff; 4]);
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(head.get(12..28)?);
    out.extend_from_slice(&range.to_le_bytes());
    out.extend_from_slice(program);
    out.resize(out.len().div_ceil(8) * 8, 0);
    let len = (out.len() - 12) as u64;
    out[4..12].copy_from_slice(&len.to_le_bytes());
    Some(out)
}

/// One sequence of a DWARF line-table program (`.debug_line`, `.nv_debug_line_sass`): from its
/// first opcode through its `DW_LNE_end_sequence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSequence {
    /// Index of the unit it belongs to.
    pub unit: usize,
    /// Offset of its first byte.
    pub start: usize,
    /// Offset just past its `DW_LNE_end_sequence`.
    pub end: usize,
    /// Offset of the operand of a `DW_LNE_set_address` that opens it (where ptxas puts the
    /// relocation naming the function the sequence describes), if one does.
    pub address: Option<usize>,
}

/// One unit of a line-table section: where it starts (its `unit_length` field), where its
/// line program starts (past the header) and where it ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineUnit {
    /// Offset of its `unit_length` field.
    pub start: usize,
    /// Its DWARF version.
    pub version: u16,
    /// Offset of its line program.
    pub program: usize,
    /// Offset just past it.
    pub end: usize,
}

/// The unit starting at `u`, in the 32-bit DWARF format ptxas writes (versions 2 to 4).
fn line_unit_at(d: &[u8], u: usize) -> Result<LineUnit, MercuryError> {
    let bad = MercuryError::BadLineProgram(u);
    let field = |at: usize, n: usize| d.get(at..at.checked_add(n)?);
    let len = u32::from_le_bytes(field(u, 4).ok_or(bad)?.try_into().map_err(|_| bad)?);
    let version = u16::from_le_bytes(field(u + 4, 2).ok_or(bad)?.try_into().map_err(|_| bad)?);
    if len == 0xffff_ffff || !(2..=4).contains(&version) {
        return Err(bad);
    }
    let header = u32::from_le_bytes(field(u + 6, 4).ok_or(bad)?.try_into().map_err(|_| bad)?);
    let end = (u + 4)
        .checked_add(len as usize)
        .filter(|&e| e <= d.len())
        .ok_or(bad)?;
    let program = (u + 10)
        .checked_add(header as usize)
        .filter(|&p| p <= end)
        .ok_or(bad)?;
    Ok(LineUnit {
        start: u,
        version,
        program,
        end,
    })
}

/// The units of a line-table section, up to the first one that does not parse.
pub fn line_units(d: &[u8]) -> Vec<LineUnit> {
    let mut out = Vec::new();
    let mut u = 0;
    while let Ok(unit) = line_unit_at(d, u) {
        out.push(unit);
        u = unit.end;
    }
    out
}

/// The units (offset of each `unit_length` field) and sequences of a line-table section in
/// the 32-bit DWARF format ptxas writes (versions 2 to 4).
pub fn line_sequences(d: &[u8]) -> Result<(Vec<usize>, Vec<LineSequence>), MercuryError> {
    let mut units = Vec::new();
    let mut seqs = Vec::new();
    let mut u = 0;
    while u < d.len() {
        let bad = MercuryError::BadLineProgram(u);
        let field = |at: usize, n: usize| d.get(at..at.checked_add(n)?);
        let LineUnit {
            version,
            program,
            end,
            ..
        } = line_unit_at(d, u)?;
        // minimum_instruction_length, [maximum_operations_per_instruction,] default_is_stmt,
        // line_base, line_range, opcode_base, standard_opcode_lengths.
        let ob_at = u + 10 + if version >= 4 { 5 } else { 4 };
        let opcode_base = *d.get(ob_at).ok_or(bad)? as usize;
        let lengths = field(ob_at + 1, opcode_base.saturating_sub(1)).ok_or(bad)?;
        let uleb = |at: &mut usize| -> Result<(), MercuryError> {
            loop {
                let b = *d.get(*at).filter(|_| *at < end).ok_or(bad)?;
                *at += 1;
                if b & 0x80 == 0 {
                    return Ok(());
                }
            }
        };
        let unit = units.len();
        units.push(u);
        let mut at = program;
        let mut start = program;
        let mut address = None;
        while at < end {
            let op = d[at] as usize;
            at += 1;
            if op == 0 {
                // Extended: ULEB length, sub-opcode, operands.
                let mut len_end = at;
                let mut n = 0usize;
                let mut shift = 0;
                loop {
                    let b = *d.get(len_end).filter(|_| len_end < end).ok_or(bad)?;
                    len_end += 1;
                    if shift < 64 {
                        n |= ((b & 0x7f) as usize) << shift;
                    }
                    shift += 7;
                    if b & 0x80 == 0 {
                        break;
                    }
                }
                let next = len_end
                    .checked_add(n)
                    .filter(|&x| x <= end && n >= 1)
                    .ok_or(bad)?;
                match d[len_end] {
                    // DW_LNE_end_sequence
                    1 => {
                        seqs.push(LineSequence {
                            unit,
                            start,
                            end: next,
                            address,
                        });
                        start = next;
                        address = None;
                    }
                    // DW_LNE_set_address, first in its sequence
                    2 if at - 1 == start => address = Some(len_end + 1),
                    _ => {}
                }
                at = next;
            } else if op == 9 {
                // DW_LNS_fixed_advance_pc: a 2-byte operand.
                at += 2;
                if at > end {
                    return Err(bad);
                }
            } else if op < opcode_base {
                for _ in 0..lengths[op - 1] {
                    uleb(&mut at)?;
                }
            }
        }
        u = end;
    }
    Ok((units, seqs))
}

/// A line-table block after [`rebuild_line_table`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RebuiltLines {
    /// The block's bytes, unit lengths rewritten.
    pub bytes: Vec<u8>,
    /// Kept pieces as (old start, old end, new start), by old start: offsets into the block
    /// and relocations against it move with their piece; what falls outside every piece is
    /// gone.
    pub moved: Vec<(usize, usize, usize)>,
}

/// A line-table block (one input's `.debug_line` or `.nv_debug_line_sass`) as the sm_100+
/// finalizer rebuilds it (observed on sm_100 and sm_120; sm_90 keeps the block as it is):
/// each unit keeps its header, then its sequences in the order of `order(operand offset)` of
/// the `DW_LNE_set_address` that opens them (stable; sequences without one first), without those
/// for which it is `None` (functions not in the image), or a lone `DW_LNE_end_sequence` when
/// none is left; the unit length follows. A kept sequence for which `rows(operand offset, unit
/// header, sequence)` gives new bytes takes them (they must begin as the sequence does, up to
/// the end of that operand).
pub fn rebuild_line_table<K: Ord>(
    d: &[u8],
    mut order: impl FnMut(usize) -> Option<K>,
    mut rows: impl FnMut(usize, &[u8], &[u8]) -> Option<Vec<u8>>,
) -> Result<RebuiltLines, MercuryError> {
    let (units, seqs) = line_sequences(d)?;
    let mut out = RebuiltLines::default();
    let mut next = 0;
    for (i, &u) in units.iter().enumerate() {
        let end = units.get(i + 1).copied().unwrap_or(d.len());
        let first = next;
        while next < seqs.len() && seqs[next].unit == i {
            next += 1;
        }
        let mine = &seqs[first..next];
        let program = mine.first().map_or(end, |s| s.start);
        let tail = mine.last().map_or(program, |s| s.end);
        let new_unit = out.bytes.len();
        let piece = |out: &mut RebuiltLines, from: usize, to: usize| {
            if from < to {
                out.moved.push((from, to, out.bytes.len()));
                out.bytes.extend_from_slice(&d[from..to]);
            }
        };
        piece(&mut out, u, program);
        let mut kept: Vec<(Option<K>, &LineSequence)> = Vec::with_capacity(mine.len());
        for s in mine {
            match s.address {
                None => kept.push((None, s)),
                Some(a) => {
                    if let Some(k) = order(a) {
                        kept.push((Some(k), s));
                    }
                }
            }
        }
        kept.sort_by(|a, b| a.0.cmp(&b.0));
        if kept.is_empty() && !mine.is_empty() {
            // A unit that loses every sequence keeps an empty one: `DW_LNE_end_sequence`
            // alone (observed).
            out.bytes.extend_from_slice(&[0, 1, 1]);
        }
        for (_, s) in kept {
            let moved = s.address.and_then(|a| {
                let new = rows(a, &d[u..program], &d[s.start..s.end])?;
                let fixed = a.checked_add(8)?.checked_sub(s.start)?;
                (new.get(..fixed)? == d.get(s.start..a + 8)?).then_some((a + 8, new))
            });
            match moved {
                Some((fixed, new)) => {
                    out.moved.push((s.start, fixed, out.bytes.len()));
                    out.bytes.extend_from_slice(&new);
                }
                None => piece(&mut out, s.start, s.end),
            }
        }
        piece(&mut out, tail, end);
        let len = (out.bytes.len() - new_unit - 4) as u32;
        out.bytes[new_unit..new_unit + 4].copy_from_slice(&len.to_le_bytes());
    }
    out.moved.sort_unstable();
    Ok(out)
}

/// A line-table sequence (DWARF 2 to 4, as ptxas writes them) with its row addresses moved by
/// `map` (old address → new address; the end of the function too), encoded as the sm_100+
/// finalizer does when code grows inside a function (observed on `-lineinfo` objects, both
/// `.debug_line` and `.nv_debug_line_sass`): an address step that keeps its size keeps its
/// bytes; `DW_LNS_advance_pc` takes the new step; a special opcode whose step changed becomes
/// `DW_LNS_advance_line` (when the line moves), `DW_LNS_advance_pc`, `DW_LNS_copy`; a new
/// `DW_LNS_advance_pc` operand is written the way ptxas writes them, as a signed LEB128 (0x40
/// to 0x7f take two bytes: `c0 00`). `None` when
/// an address does not map or the sequence holds a step this does not rewrite
/// (`DW_LNS_const_add_pc` or `DW_LNS_fixed_advance_pc` that would change, a second
/// `DW_LNE_set_address`).
pub fn move_line_rows(
    header: &[u8],
    seq: &[u8],
    map: impl Fn(u64) -> Option<u64>,
) -> Option<Vec<u8>> {
    let version = u16::from_le_bytes(header.get(4..6)?.try_into().ok()?);
    let mut h = 10;
    let min_inst = *header.get(h)? as u64;
    h += if version >= 4 { 2 } else { 1 };
    let line_base = *header.get(h + 1)? as i8 as i64;
    let line_range = *header.get(h + 2)? as u64;
    let opcode_base = *header.get(h + 3)?;
    let lengths = header.get(h + 4..h + 4 + (opcode_base as usize).checked_sub(1)?)?;
    if min_inst == 0 || line_range == 0 {
        return None;
    }
    let leb = |at: &mut usize| -> Option<u64> {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = *seq.get(*at)?;
            *at += 1;
            if shift < 64 {
                v |= ((b & 0x7f) as u64) << shift;
            }
            shift += 7;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
    };
    let put_sleb = |out: &mut Vec<u8>, mut v: i64| loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if (v == 0 && b & 0x40 == 0) || (v == -1 && b & 0x40 != 0) {
            out.push(b);
            break;
        }
        out.push(b | 0x80);
    };
    let mut out = Vec::with_capacity(seq.len() + 16);
    let (mut old, mut new) = (0u64, 0u64);
    let mut at = 0;
    let mut seen_address = false;
    while at < seq.len() {
        let here = at;
        let op = seq[at];
        at += 1;
        // The new step for an old one of `step` bytes.
        let mut step = |step: u64| -> Option<u64> {
            let to = map(old.checked_add(step)?)?;
            let d = to.checked_sub(new)?;
            old += step;
            new = to;
            (d % min_inst == 0).then_some(d / min_inst)
        };
        if op >= opcode_base {
            let adj = (op - opcode_base) as u64;
            let adv = adj / line_range;
            let line = line_base + (adj % line_range) as i64;
            let d = step(adv * min_inst)?;
            if d == adv {
                out.push(op);
            } else {
                if line != 0 {
                    out.push(3);
                    put_sleb(&mut out, line);
                }
                out.push(2);
                put_sleb(&mut out, i64::try_from(d).ok()?);
                out.push(1);
            }
            continue;
        }
        match op {
            0 => {
                let len = leb(&mut at)? as usize;
                let end = at.checked_add(len)?;
                let sub = *seq.get(at)?;
                if sub == 2 {
                    // Only the one opening the sequence, naming the function's start.
                    if seen_address || len != 9 {
                        return None;
                    }
                    seen_address = true;
                    if map(0)? != 0 {
                        return None;
                    }
                }
                out.extend_from_slice(seq.get(here..end)?);
                at = end;
            }
            2 => {
                let v = leb(&mut at)?;
                let d = step(v.checked_mul(min_inst)?)?;
                if d == v {
                    out.extend_from_slice(&seq[here..at]);
                } else {
                    out.push(2);
                    put_sleb(&mut out, i64::try_from(d).ok()?);
                }
            }
            8 => {
                let adv = (255 - opcode_base as u64) / line_range;
                if step(adv * min_inst)? != adv {
                    return None;
                }
                out.push(op);
            }
            9 => {
                let v = u16::from_le_bytes(seq.get(at..at + 2)?.try_into().ok()?) as u64;
                at += 2;
                if step(v)? * min_inst != v {
                    return None;
                }
                out.extend_from_slice(&seq[here..at]);
            }
            _ => {
                for _ in 0..*lengths.get(op as usize - 1)? {
                    leb(&mut at)?;
                }
                out.extend_from_slice(seq.get(here..at)?);
            }
        }
    }
    Some(out)
}

/// `e_flags` of an image nvlink writes for a Mercury target (final or `-r`), from the
/// `e_flags` of the device inputs in link order: the real SM in bits 8..16, format byte 0x02,
/// and a top byte of 0x06 unless some input carries debug information (bit 27: `-G` objects
/// have a top byte of 0x0d, `-lineinfo` ones 0x09). Then the top byte is the first such input's,
/// plus one for every further such input, carried into bit 28 and up: two `-G` inputs give
/// 0x0e, three 0x0f, four 0x10 (observed up to six: 0x12). An `a`/`f` variant does not show
/// here (it lives in `.nv.compat`).
pub fn e_flags(sm: u32, inputs: &[u32]) -> u32 {
    const DEBUG: u32 = 0x0800_0000;
    let mut debug = inputs.iter().filter(|&&f| f & DEBUG != 0);
    let high = match debug.next() {
        None => 0x0600_0000,
        Some(&first) => (first & 0xff00_0000).wrapping_add((debug.count() as u32) << 24),
    };
    high | (sm & 0xff) << 8 | 0x02
}

/// The `EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE` value nvlink writes for code made for `sm`
/// itself (observed in links without inputs: sm_100 0x09, sm_120 0x50, sm_103/110/121 0,
/// whatever the `a`/`f` variant; ptxas gives its objects the same).
pub fn native_fastpath(sm: u32) -> u64 {
    match sm {
        100 => 0x09,
        120 => 0x50,
        _ => 0,
    }
}

/// `EICOMPAT_ATTR_FINALIZER_VERSION` (`.nv.compat` attribute 0x0e) of the CUDA 13.5
/// finalizer, as ptxas and nvlink write it.
pub const FINALIZER_VERSION: u16 = 0x440;

/// The 8-byte value of `EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE` (`.nv.compat` attribute 0x0b) in
/// the output, from an input's value (observed on single-input links):
/// - linking for another SM (sm_100 → sm_103, sm_120 → sm_121) clears it;
/// - linking a non-`a` object for the same SM's `a` target keeps only the lowest set bit
///   (sm_100 0x09 → 0x01, sm_120 0x50 → 0x10);
/// - otherwise it is kept.
pub fn fastpath_after_link(
    value: u64,
    input_sm: u32,
    input_arch_specific: bool,
    target_sm: u32,
    target_arch_specific: bool,
) -> u64 {
    if input_sm != target_sm {
        0
    } else if target_arch_specific && !input_arch_specific {
        value & value.wrapping_neg()
    } else {
        value
    }
}

#[cfg(test)]
mod tests;
