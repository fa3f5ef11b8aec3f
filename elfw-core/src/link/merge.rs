//! Merge: one input cubin at a time into the [`State`], in the order nvlink was seen to use.
//!
//! Per input (seed 04 and the wiki's merge-phase page, corrected by nvlink 13.5's outputs):
//! 1. function symbols in symbol-table order — each defined function gets its `.text.<f>`
//!    (kernels also `.nv.info.<k>` and `.nv.shared.<k>`), each new name its symbol;
//! 2. every other symbol in symbol-table order — section symbols create the data sections they
//!    name, objects are added;
//! 3. the section headers in order — `.nv.info*`, `.nv.compat`, `.nv.callgraph`,
//!    `.nv.prototype` and relocation sections.

use super::state::*;
use super::{InputObject, LinkError, LinkOptions};
use crate::arena::SymIdx;
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::elf::consts::*;
use crate::elf::read::name_text;
use crate::elf::{ElfFile, SectionHeader};
use elfw_hash::NameHash;

/// `st_other` bit nvlink uses for kernels.
pub const STO_CUDA_ENTRY: u8 = 0x10;

/// Per-input translation tables (seed: `map_symbol_index`, `map_section_index`,
/// `map_section_offset`).
#[derive(Clone, Debug, Default)]
pub struct InputMaps {
    /// Input symbol → output symbol.
    pub sym: Vec<Option<SymIdx>>,
    /// Input section → output section.
    pub sec: Vec<Option<SecId>>,
    /// Input section → offset of its contribution in the output section.
    pub offset: Vec<u64>,
    /// Input symbols whose definition lost to an earlier one (their data, relocations and
    /// `.nv.info` records are dropped).
    pub lost: Vec<bool>,
    /// Bytes of weak data objects that lost to an earlier definition, as (input section,
    /// start, end): their bytes stay in the merged section, their relocations go, SASS and
    /// Mercury alike (observed: the second copy of an inline class's vtable in
    /// `.nv.global.init`).
    pub lost_data: Vec<(u32, u64, u64)>,
}

/// Parsed input symbol.
struct InSym<'d> {
    name: &'d str,
    /// The name's hash, for non-local symbols (the global namespace's lookups); locals carry
    /// the empty name's.
    hash: NameHash,
    info: u8,
    other: u8,
    shndx: u32,
    value: u64,
    size: u64,
}

impl InSym<'_> {
    fn binding(&self) -> u8 {
        self.info >> 4
    }
    fn sym_type(&self) -> u8 {
        self.info & 0xf
    }
}

fn bad(obj: &InputObject<'_>, what: impl std::fmt::Display) -> LinkError {
    LinkError::Input {
        file: obj.name.clone(),
        message: what.to_string(),
    }
}

/// Sizes the state's namespaces and large lists for what `inputs` can bring, from their section
/// headers alone (sizes clamped to the files' lengths): a large link then re-buckets each
/// namespace once and moves no list to a bigger allocation, instead of doing both at every
/// doubling. Room beyond what the link uses is only address space.
pub fn reserve_for_inputs(st: &mut State<'_>, inputs: &[InputObject<'_>]) {
    let (mut sections, mut symbols, mut relocs) = (0usize, 0usize, 0usize);
    let mut info_words = 0usize;
    for obj in inputs {
        let len = obj.elf.data().len() as u64;
        // Bytes per kind, each kind clamped to the file's length: sections may overlap (a
        // damaged input's headers can all claim the whole file), and the file holds at most
        // its length of each.
        let (mut sym, mut rel, mut rela, mut info) = (0u64, 0u64, 0u64, 0u64);
        for h in obj.elf.sections() {
            sections += 1;
            let size = h.size.min(len);
            match h.sh_type {
                SHT_SYMTAB => sym = sym.saturating_add(size),
                SHT_REL => rel = rel.saturating_add(size),
                SHT_RELA => rela = rela.saturating_add(size),
                SHT_CUDA_INFO if h.flags & SHF_INFO_LINK != 0 => {}
                SHT_CUDA_INFO => info = info.saturating_add(size),
                _ => {}
            }
        }
        let entries = |bytes: u64, entsize: u64| (bytes.min(len) / entsize) as usize;
        symbols += entries(sym, 24);
        relocs += entries(rel, 16) + entries(rela, 24);
        info_words += entries(info, 4);
    }
    // About half of a cubin's symbols are non-local (the rest name sections and locals).
    let non_local = symbols / 2;
    st.section_names.reserve(sections);
    st.global_names.reserve(non_local);
    st.sections.reserve(sections);
    st.first_named.reserve(sections);
    st.nodes.reserve(sections);
    st.locals.reserve(sections);
    st.globals.reserve(non_local);
    st.functions.reserve(non_local);
    st.local_name_order.reserve(sections);
    st.global_name_order.reserve(non_local);
    st.relocs.reserve(relocs);
    st.info.reserve(info_words);
    st.section_info.reserve(sections);
}

/// Whether `obj` defines a global symbol the state has only as an undefined reference.
pub fn resolves_undefined(st: &State<'_>, obj: &InputObject<'_>) -> bool {
    obj.elf.symbols().flatten().any(|s| {
        s.binding() != STB_LOCAL
            && s.shndx != 0
            && st
                .global_by_name(&String::from_utf8_lossy(s.name))
                .is_some_and(|g| !st.sym(g).is_defined())
    })
}

/// The names `obj` defines (non-local symbols with a section).
pub fn defined_names(obj: &InputObject<'_>) -> Vec<Vec<u8>> {
    obj.elf
        .symbols()
        .flatten()
        .filter(|s| s.binding() != STB_LOCAL && s.shndx != 0)
        .map(|s| s.name.to_vec())
        .collect()
}

/// Whether the link so far has an undefined reference that none of `defined` (the system
/// libraries' names) resolves: not an `extern __shared__` name, nor one the driver provides.
pub fn references_outside(st: &State<'_>, defined: &rustc_hash::FxHashSet<Vec<u8>>) -> bool {
    (1..st.globals.len()).any(|i| {
        let s = st.globals.at(i);
        !s.is_defined()
            && s.shared().is_none()
            && s.other() & 0x40 == 0
            && !super::finalize::provided_externally(s.name())
            && !defined.contains(s.name().as_bytes())
    })
}

/// What merging an input needs from it that does not depend on the link so far: its symbols
/// with their names and hashes, its section headers with their names and hashes, its
/// `.nv.info` records and its relocations, checked. Made ahead of the merge ([`decode_input`],
/// on another thread when there is one) and consumed by [`merge_decoded`]; every error found
/// here is kept and reported where the merge would have met it, so the first failing input
/// (and the first failure in it) is the same as when decoding inline.
pub struct DecodedInput<'d> {
    /// The first error of the symbol table or the section headers: reported when the input's
    /// merge begins.
    early: Option<LinkError>,
    /// The symbols (names that are not UTF-8 are left empty, see `odd_names`).
    syms: Vec<InSym<'d>>,
    /// Symbols whose names are not UTF-8: copied lossily into the link's arena at merge time.
    odd_names: Vec<(usize, &'d [u8])>,
    /// The section names, by input section index: the name when readable and UTF-8
    /// (otherwise the merge reads it itself), and its hash (the section-name namespace's
    /// lookups).
    section_names: Vec<(Option<&'d str>, NameHash)>,
    /// What was decoded of the bytes of `.nv.info` and relocation sections, by ascending
    /// input section index.
    contents: Vec<(u32, InContent<'d>)>,
    /// The input's virtual SM (`.note.nv.cuinfo`).
    vsm: Option<u16>,
}

/// The decoded bytes of an input section.
enum InContent<'d> {
    /// Nothing decoded ahead.
    None,
    /// An `.nv.info` section's records, or the error reading them.
    Info(Result<Vec<InfoRecord<'d>>, Box<LinkError>>),
    /// A relocation section checked (entries readable, symbol indices in range, offsets in
    /// the target section), or the first error among them.
    Relocations(Result<(), Box<LinkError>>),
}

/// Decodes `obj` for [`merge_decoded`]: reads only the input, so inputs may be decoded on any
/// thread, in any order.
pub fn decode_input<'d>(obj: &InputObject<'d>) -> DecodedInput<'d> {
    let elf = &obj.elf;
    let mut early = None;
    let mut syms = Vec::new();
    let mut odd_names = Vec::new();
    let no_hash = NameHash::of("");
    match elf.symbol_count() {
        Err(e) => early = Some(bad(obj, e)),
        Ok(nsym) => {
            syms.reserve_exact(nsym as usize);
            let table = elf.symbol_table();
            let text = table.strings_text();
            for i in 0..nsym {
                let s = match table.get(i) {
                    Ok(s) => s,
                    Err(e) => {
                        early = Some(bad(obj, e));
                        break;
                    }
                };
                let name = name_text(text, s.name_offset, s.name).unwrap_or_else(|| {
                    odd_names.push((i as usize, s.name));
                    ""
                });
                let global = s.info >> 4 != STB_LOCAL;
                syms.push(InSym {
                    name,
                    hash: if global { NameHash::of(name) } else { no_hash },
                    info: s.info,
                    other: s.other,
                    shndx: s.shndx,
                    value: s.value,
                    size: s.size,
                });
            }
        }
    }
    if early.is_none() {
        early = check_sections(obj).err();
    }
    let nsym = syms.len();
    let mut section_names = Vec::with_capacity(elf.sections().len());
    let mut contents = Vec::with_capacity(
        elf.sections()
            .iter()
            .filter(|h| matches!(h.sh_type, SHT_CUDA_INFO | SHT_REL | SHT_RELA))
            .count(),
    );
    let names_text = elf.section_names_text();
    for (i, header) in elf.sections().iter().enumerate() {
        let idx = i as u32;
        let name = elf
            .section_name(idx)
            .ok()
            .and_then(|n| name_text(names_text, header.name, n));
        section_names.push((name, NameHash::of(name.unwrap_or(""))));
        let Some(name) = name else { continue };
        match header.sh_type {
            SHT_CUDA_INFO => {
                let records = elf
                    .section_data(idx)
                    .map_err(|e| bad(obj, e))
                    .and_then(|d| parse_info(d).map_err(|e| bad(obj, format!("{name}: {e}"))));
                contents.push((idx, InContent::Info(records.map_err(Box::new))));
            }
            SHT_REL | SHT_RELA => {
                let checked = check_relocations(obj, idx, header, name, nsym);
                contents.push((idx, InContent::Relocations(checked.map_err(Box::new))));
            }
            _ => {}
        }
    }
    DecodedInput {
        early,
        syms,
        odd_names,
        section_names,
        contents,
        vsm: virtual_sm(elf),
    }
}

/// Checks relocation section `idx` as the merge takes it: the first entry naming a symbol past
/// the table (`nsym` symbols) or patching past the end of its section makes the error.
fn check_relocations(
    obj: &InputObject<'_>,
    idx: u32,
    h: &SectionHeader,
    name: &str,
    nsym: usize,
) -> Result<(), LinkError> {
    let elf = &obj.elf;
    let target_size = elf.section(h.info).map_or(0, |t| t.size);
    for r in elf.relocations(idx).map_err(|e| bad(obj, e))? {
        if r.sym as usize >= nsym {
            return Err(bad(
                obj,
                format!("{name}: symbol index {} out of range", r.sym),
            ));
        }
        // A relocation patches its section: an offset past it is damage.
        if r.offset >= target_size {
            return Err(bad(
                obj,
                format!(
                    "{name}: relocation at {:#x} is past the end of its section ({:#x} bytes)",
                    r.offset, target_size
                ),
            ));
        }
    }
    Ok(())
}

/// `e_type` of an `nvcc -ewp` (extensible whole program) object's cubin.
pub const ET_WHOLE_PROGRAM: u16 = 0xff00;

/// Merges one input (decoding it first: [`decode_input`] then [`merge_decoded`]).
pub fn merge_input<'d>(
    st: &mut State<'d>,
    input: usize,
    obj: &InputObject<'d>,
    opts: &LinkOptions,
    diags: &mut Diagnostics,
) -> Result<InputMaps, LinkError> {
    merge_decoded(st, input, obj, decode_input(obj), opts, diags)
}

/// Merges one input that [`decode_input`] decoded.
pub fn merge_decoded<'d>(
    st: &mut State<'d>,
    input: usize,
    obj: &InputObject<'d>,
    decoded: DecodedInput<'d>,
    opts: &LinkOptions,
    diags: &mut Diagnostics,
) -> Result<InputMaps, LinkError> {
    let DecodedInput {
        early,
        mut syms,
        odd_names,
        section_names,
        contents,
        vsm,
    } = decoded;
    if let Some(e) = early {
        return Err(e);
    }
    // Next to `nvcc -ewp` objects, each other object draws a warning as it is merged, in merge
    // order, libcudadevrt's excepted (any path naming `cudadevrt`); `-w` keeps it, under
    // `-Werror` it fails that merge (observed, sm_90).
    if opts.whole_program_inputs
        && obj.elf.header().e_type != ET_WHOLE_PROGRAM
        && !obj.name.contains("cudadevrt")
    {
        let text = format!(
            "'{}': -ewp compiled objects should only link with libcudadevrt",
            obj.name
        );
        if opts.merge_warnings_as_errors {
            diags.push(Diagnostic::new(Severity::Error, text).in_file(obj.name.clone()));
            return Err(LinkError::Fatal(Diagnostic::new(
                Severity::Fatal,
                "merge_elf failed",
            )));
        }
        diags.push(Diagnostic::new(Severity::Warning, text).in_file(obj.name.clone()));
    }
    for (i, raw) in odd_names {
        let name = st.name_from(raw);
        let s = &mut syms[i];
        s.name = name;
        if s.binding() != STB_LOCAL {
            s.hash = NameHash::of(name);
        }
    }
    let nsec = obj.elf.sections().len();
    let nsym = syms.len();
    // The global namespace's buckets these names fall in, fetched all at once (a large link's
    // table is far bigger than the caches, and the lookups below would each wait for one).
    for s in &syms {
        if s.binding() != STB_LOCAL {
            st.global_names.prefetch_hashed(s.hash);
        }
    }
    // Then the entries (and names) in them these names would be compared with, and the names
    // themselves (read last on the decoding core).
    for s in &syms {
        if s.binding() != STB_LOCAL {
            st.global_names.prefetch_entries_hashed(s.hash);
            std::hint::black_box(s.name.as_bytes().first().copied());
        }
    }
    // Likewise the section-name namespace's buckets of this input's section names.
    for &(_, hash) in &section_names {
        st.section_names.prefetch_hashed(hash);
    }
    let mut maps = InputMaps {
        sym: vec![None; nsym],
        sec: vec![None; nsec],
        offset: vec![0; nsec],
        lost: vec![false; nsym],
        lost_data: Vec::new(),
    };
    st.merged_inputs.push(input);
    if let Some(vsm) = vsm {
        st.input_vsm.insert(input, vsm);
    }
    let errors_before = diags.len();
    let mut cx = MergeCx {
        st,
        obj,
        input,
        opts,
        diags,
        syms: &syms,
        section_names: &section_names,
        contents,
        next_content: 0,
        maps: &mut maps,
        lost_texts: Vec::new(),
        lost_banks: Vec::new(),
        lost_nobits: Vec::new(),
        externs_scratch: Vec::new(),
    };
    cx.map_notes();
    // Pass 1: functions.
    for (i, s) in syms.iter().enumerate().skip(1) {
        if s.sym_type() == STT_FUNC {
            cx.merge_function(i)?;
        }
    }
    // Code whose function lost a weak contest brings nothing: not its code, records and
    // relocations (pass 5), nor a second copy of its own constant bank (passes 2 to 4).
    cx.lost_texts = syms
        .iter()
        .enumerate()
        .filter(|&(i, s)| s.sym_type() == STT_FUNC && cx.maps.lost[i])
        .map(|(_, s)| s.shndx)
        .collect();
    // Pass 2: local data objects (their sections are created as they are met).
    for (i, s) in syms.iter().enumerate().skip(1) {
        let object = s.sym_type() != STT_FUNC && s.sym_type() != STT_SECTION;
        if object && s.binding() == STB_LOCAL {
            cx.merge_object(i)?;
        }
    }
    // Pass 3: global and weak data objects (observed: a `-r` image's `.nv.global`, named
    // only by its `g_hits`, comes before its `.debug_frame`).
    for (i, s) in syms.iter().enumerate().skip(1) {
        let object = s.sym_type() != STT_FUNC && s.sym_type() != STT_SECTION;
        if object && s.binding() != STB_LOCAL {
            cx.merge_object(i)?;
        }
    }
    // Pass 4: section symbols, the kernels' own constant banks last (observed: in an `-r`
    // image their symbols sit among the others, and nvlink still makes the banks after the
    // input's other sections; ptxas puts them last anyway).
    let kernel_bank: Vec<bool> = syms
        .iter()
        .map(|s| {
            s.sym_type() == STT_SECTION
                && obj.elf.section(s.shndx).is_ok_and(|h| {
                    is_constant_bank(h.sh_type)
                        && obj
                            .elf
                            .section_name(s.shndx)
                            .is_ok_and(|n| n.starts_with(b".nv.constant0."))
                })
        })
        .collect();
    // A data section no symbol names is made where its header stands among the sections the
    // section symbols make (observed: an empty `.debug_frame`, `.nv_debug_info_reg_sass` and
    // `.nv_debug_info_reg_type` of a `-G` translation unit with no device code keep their
    // header order among its other debug sections).
    let mut named = vec![false; nsec];
    for s in syms.iter().skip(1) {
        if s.sym_type() == STT_SECTION {
            if let Some(n) = named.get_mut(s.shndx as usize) {
                *n = true;
            }
        }
    }
    // The unnamed sections just before each named one, in header order (a run ends at the
    // previous named header).
    let unnamed_before = |shndx: usize| {
        let end = shndx.min(nsec);
        let start = named[..end].iter().rposition(|&n| n).map_or(1, |p| p + 1);
        (start..end).filter(|&u| !named[u])
    };
    // `-r`: the window an earlier `-r` left without variables for a kernel the merge holds
    // is made in the pass over section headers, with a section symbol (observed, sm_75 and
    // sm_90 `-r --kernels-used` of `-r` images: its name after the image's relocation
    // sections', its symbol after the image's constant banks, whether or not the image
    // named it).
    let held_window: Vec<bool> = if opts.relocatable && !cx.st.held_kernels.is_empty() {
        let mut holds_variable = vec![false; nsec];
        for s in syms.iter().skip(1) {
            if s.sym_type() != STT_SECTION {
                if let Some(h) = holds_variable.get_mut(s.shndx as usize) {
                    *h = true;
                }
            }
        }
        (0..nsec)
            .map(|u| u > 0 && !holds_variable[u] && cx.is_held_window(u as u32))
            .collect()
    } else {
        vec![false; nsec]
    };
    for last in [false, true] {
        for (i, s) in syms.iter().enumerate().skip(1) {
            if s.sym_type() == STT_SECTION && kernel_bank[i] == last {
                if !last {
                    for u in unnamed_before(s.shndx as usize) {
                        if !held_window[u] {
                            cx.take_unnamed_section(u as u32)?;
                        }
                    }
                }
                if !held_window.get(s.shndx as usize).copied().unwrap_or(false) {
                    cx.merge_section_symbol(i)?;
                }
            }
        }
    }
    // Pass 5: section headers.
    for (u, &held) in held_window.iter().enumerate().skip(1) {
        if !held {
            cx.merge_section_header(u as u32)?;
            continue;
        }
        if let Some(id) = cx.map_section(u as u32)? {
            cx.name_section(id, true);
            cx.st.held_windows.insert(id);
            for (i, s) in syms.iter().enumerate().skip(1) {
                if s.sym_type() == STT_SECTION && s.shndx as usize == u {
                    cx.maps.sym[i] = cx.section_symbol_of(id);
                }
            }
        }
    }
    if cx.diags.len() > errors_before && cx.diags.has_errors() {
        return Err(LinkError::Fatal(Diagnostic::new(
            Severity::Fatal,
            "merge_elf failed",
        )));
    }
    if opts.target.is_mercury() {
        // The Mercury world is built later as a mirror of this merge.
        st.input_maps.push((input, maps.clone()));
    }
    Ok(maps)
}

/// A local symbol with no section and no type: a label ptxas names but never placed.
fn is_unresolved_label(s: &InSym<'_>) -> bool {
    s.binding() == STB_LOCAL && s.shndx == 0 && s.sym_type() == 0 && !s.name.is_empty()
}

/// The largest section or variable alignment elfw takes (ptxas writes at most 128; anything
/// beyond this is damage, and would make the layout's arithmetic overflow).
pub const MAX_ALIGN: u64 = 1 << 20;

/// Whether an alignment is usable: 0 or 1 (none), or a power of two up to [`MAX_ALIGN`].
pub fn alignment_ok(a: u64) -> bool {
    a <= 1 || (a.is_power_of_two() && a <= MAX_ALIGN)
}

/// Section headers the layout can trust: usable alignments, and sizes that fit in the file
/// for sections with bytes (the parser checks where the bytes are; this checks what the
/// linker adds up).
fn check_sections(obj: &InputObject<'_>) -> Result<(), LinkError> {
    for (i, h) in obj.elf.sections().iter().enumerate().skip(1) {
        let name =
            || String::from_utf8_lossy(obj.elf.section_name(i as u32).unwrap_or(b"?")).into_owned();
        // A `-r` of a `-r` image can leave a shared window aligned to where its kernel's
        // dynamic memory started (observed: 0x30), which nvlink takes as it is; shared
        // layout rounds up by division, so any alignment up to the bound is usable there.
        // (The name is read only then: for every section it was a third of decoding's time.)
        let shared_window =
            || h.addralign <= MAX_ALIGN && classify(h.sh_type, &name()) == SHT_CUDA_SHARED;
        if !alignment_ok(h.addralign) && !shared_window() {
            return Err(bad(
                obj,
                format!(
                    "section [{i}] {}: alignment {:#x} is not a power of two up to {MAX_ALIGN:#x}",
                    name(),
                    h.addralign
                ),
            ));
        }
        if h.has_file_data() && h.size > obj.elf.data().len() as u64 {
            return Err(bad(
                obj,
                format!(
                    "section [{i}] {}: size {:#x} exceeds the file",
                    name(),
                    h.size
                ),
            ));
        }
    }
    Ok(())
}

/// Whether an input section belongs to the Mercury world (sm_100+), which the SASS merge
/// leaves alone.
fn is_mercury_section(name: &str) -> bool {
    crate::mercury::classify(name.as_bytes()).is_some()
}

/// The fields of a symbol already in the link that a new definition is weighed against.
struct Existing {
    defined: bool,
    binding: u8,
    input: usize,
    size: u64,
    func: Option<FuncId>,
}

struct MergeCx<'a, 'd> {
    /// Input code sections of functions that lost a weak contest (set before pass 5).
    lost_texts: Vec<u32>,
    /// Input constant banks of functions that lost a weak contest: mapped onto the winner's
    /// bank, nothing appended, their relocations dropped.
    lost_banks: Vec<u32>,
    /// Input zero-filled data sections (`.nv.global`) whose symbols so far all lost a weak
    /// contest: not taken unless a symbol that stays defines something there.
    lost_nobits: Vec<u32>,
    st: &'a mut State<'d>,
    obj: &'a InputObject<'d>,
    input: usize,
    opts: &'a LinkOptions,
    diags: &'a mut Diagnostics,
    syms: &'a [InSym<'d>],
    /// The input's section names as [`decode_input`] read them.
    section_names: &'a [(Option<&'d str>, NameHash)],
    /// What [`decode_input`] decoded of section bytes, taken in section order by pass 5.
    contents: Vec<(u32, InContent<'d>)>,
    /// The first entry of `contents` not yet passed.
    next_content: usize,
    /// Room for an EXTERNS list while it is mapped (see `map_info_record`).
    externs_scratch: Vec<SymIdx>,
    maps: &'a mut InputMaps,
}

impl<'a, 'd> MergeCx<'a, 'd> {
    fn elf(&self) -> &ElfFile<'d> {
        &self.obj.elf
    }

    fn in_section(&self, idx: u32) -> Result<(&'a SectionHeader, &'d str), LinkError> {
        self.in_section_hashed(idx).map(|(h, n, _)| (h, n))
    }

    /// [`in_section`](Self::in_section) with the name's hash. (The header is lent, not
    /// copied: this is asked once or twice for every section of every input.)
    fn in_section_hashed(
        &self,
        idx: u32,
    ) -> Result<(&'a SectionHeader, &'d str, NameHash), LinkError> {
        let obj: &'a InputObject<'d> = self.obj;
        if let (Some(header), Some(&(Some(name), hash))) = (
            obj.elf.sections().get(idx as usize),
            self.section_names.get(idx as usize),
        ) {
            return Ok((header, name, hash));
        }
        let (h, n) = self.read_section(idx)?;
        Ok((h, n, NameHash::of(n)))
    }

    /// Section `idx`'s header and name read from the input (what [`decode_input`] left).
    fn read_section(&self, idx: u32) -> Result<(&'a SectionHeader, &'d str), LinkError> {
        let obj: &'a InputObject<'d> = self.obj;
        let h = obj.elf.section(idx).map_err(|e| bad(obj, e))?;
        let n = obj.elf.section_name(idx).map_err(|e| bad(obj, e))?;
        Ok((h, self.st.name_from(n)))
    }

    /// What [`decode_input`] decoded of section `idx`'s bytes, taken. Sections are taken in
    /// ascending order; what was passed over (or taken already) is `None`, and the caller
    /// decodes it itself.
    fn take_content(&mut self, idx: u32) -> InContent<'d> {
        while let Some((i, _)) = self.contents.get(self.next_content) {
            if *i >= idx {
                break;
            }
            self.next_content += 1;
        }
        match self.contents.get_mut(self.next_content) {
            Some((i, content)) if *i == idx => {
                self.next_content += 1;
                std::mem::replace(content, InContent::None)
            }
            _ => InContent::None,
        }
    }

    fn map_notes(&mut self) {
        let elf = &self.obj.elf;
        for (i, s) in elf.sections().iter().enumerate() {
            if s.sh_type == SHT_NOTE {
                if let Some(&(Some(n), hash)) = self.section_names.get(i) {
                    self.maps.sec[i] = self.st.section_by_name_hashed(hash, n);
                } else if let Ok(n) = elf.section_name(i as u32) {
                    let n = String::from_utf8_lossy(n);
                    self.maps.sec[i] = self.st.section_by_name(&n);
                }
            }
        }
    }

    /// sm_100+: whether `existing`, the section of the name of input section `h` (of output
    /// type `out_type`), is the constant bank of another kernel's code than `h`'s. A local
    /// kernel given twice (the same object twice) keeps two `.nv.constant0.<k>`, one per copy
    /// of its code, final and `-r` (observed; up to sm_90 the second joins the first).
    fn other_kernels_bank(&self, existing: SecId, h: &SectionHeader, out_type: u32) -> bool {
        if !self.opts.target.is_mercury()
            || out_type != SHT_CUDA_CONSTANT0
            || h.flags & SHF_INFO_LINK == 0
            || h.info == 0
        {
            return false;
        }
        let Some(text) = self.maps.sec.get(h.info as usize).copied().flatten() else {
            return false;
        };
        matches!(self.st.sec(existing).info(), Link::Section(t) if t != text)
    }

    /// Output section for input section `idx`, creating it (and copying the input's
    /// contribution) the first time.
    fn map_section(&mut self, idx: u32) -> Result<Option<SecId>, LinkError> {
        if let Some(s) = self.maps.sec.get(idx as usize).copied().flatten() {
            return Ok(Some(s));
        }
        if idx == 0 || idx as usize >= self.maps.sec.len() {
            return Ok(None);
        }
        let (h, name, hash) = self.in_section_hashed(idx)?;
        if self.opts.target.is_mercury() && is_mercury_section(name) {
            return Ok(None);
        }
        if self.bank_of_lost_function(name) {
            // A weak kernel that lost (a template kernel two inputs instantiate): its own
            // constant bank is the winner's, not a second copy after it (observed with
            // thrust's and CUB's kernels in two TUs).
            if let Some(id) = self.st.section_by_name_hashed(hash, name) {
                self.maps.sec[idx as usize] = Some(id);
                self.maps.offset[idx as usize] = 0;
                self.lost_banks.push(idx);
                return Ok(Some(id));
            }
        }
        let out_type = classify(h.sh_type, name);
        // A local function's code stays its own section even when another input has a local
        // function of the same name (observed: each TU's `__cuda_sm3x_div_rn_noftz_f32_slowpath`
        // keeps its `.text.<f>` and `.nv.info.<f>`, both under that name).
        // Nor does a global function's code join the code of a local function of its name (an
        // `-Xptxas -O0` TU's weak `__cuda_sm3x_div_rn_noftz_f32_slowpath` after another TU's
        // local one: two sections, observed).
        let existing = self
            .st
            .section_by_name_hashed(hash, name)
            .filter(|_| !(h.flags & SHF_EXECINSTR != 0 && self.local_function_code(h)))
            .filter(|&id| !(h.flags & SHF_EXECINSTR != 0 && self.is_local_function_code(id)))
            .filter(|&id| !self.other_kernels_bank(id, h, out_type));
        if let Some(id) = existing.filter(|&id| {
            self.opts.target.is_mercury()
                && out_type == SHT_CUDA_SHARED_RESERVED
                && !self.st.sec(id).nodes().is_empty()
        }) {
            // sm_100+ reserved shared memory (sm_110's workaround variable): one copy, the
            // first input's (observed).
            self.maps.sec[idx as usize] = Some(id);
            self.maps.offset[idx as usize] = 0;
            return Ok(Some(id));
        }
        let id = match existing {
            Some(id) => id,
            None => {
                let mut sec = new_section(name, out_type, h.flags, h.addralign, h.entsize);
                sec.addralign = 0;
                if h.flags & SHF_EXECINSTR != 0 {
                    // Code: sh_link is the symbol table, sh_info the function's symbol (with
                    // whatever the input keeps in the top byte).
                    sec.link = Link::Symtab;
                    if let Some(sym) = self
                        .maps
                        .sym
                        .get((h.info & 0xff_ffff) as usize)
                        .copied()
                        .flatten()
                    {
                        sec.info = Link::Symbol {
                            sym,
                            high: (h.info >> 24) as u8,
                        };
                    }
                } else if h.flags & SHF_INFO_LINK != 0 && h.info != 0 {
                    // Per-kernel constant banks point at their kernel's .text.
                    if let Some(t) = self.maps.sec.get(h.info as usize).copied().flatten() {
                        sec.info = Link::Section(t);
                    }
                }
                // (Bank 2, the compiler's constants, has none: observed.)
                let per_kernel_bank = out_type == SHT_CUDA_CONSTANT0
                    && name.matches('.').count() >= 3
                    && !self.opts.relocatable;
                let id = self.st.create_section_hashed(hash, sec, per_kernel_bank);
                let sym_name = section_symbol_name(self.st, name, self.opts);
                let sym = self
                    .st
                    .add_local(Symbol::for_section(sym_name, id, self.input), false);
                *self.st.sec_mut(id).symbol() = sym.as_local();
                id
            }
        };
        let data = if h.sh_type == SHT_NOBITS {
            None
        } else {
            Some(self.elf().section_data(idx).map_err(|e| bad(self.obj, e))?)
        };
        // A relocatable link's shared sections hold no bytes and follow one another unpadded
        // (observed: two 0x11268-byte `.nv_debug.shared` of alignment 16 end at 0x22...8),
        // though the section keeps their alignment.
        let unpadded = self.opts.relocatable && out_type == SHT_CUDA_SHARED;
        let align = if unpadded { 1 } else { h.addralign };
        let off = self
            .st
            .append_data(id, data, h.size, align, self.input, idx);
        if unpadded {
            let mut x = self.st.sec_mut(id);
            *x.addralign() = (*x.addralign()).max(h.addralign);
        }
        self.maps.sec[idx as usize] = Some(id);
        self.maps.offset[idx as usize] = off;
        Ok(Some(id))
    }

    /// What a new definition of symbol `idx` is weighed against, read column by column (the
    /// whole record is ten columns, each a cache miss in a large link).
    fn existing(&self, idx: SymIdx) -> Existing {
        let e = self.st.sym(idx);
        Existing {
            defined: e.is_defined(),
            binding: e.binding(),
            input: e.input(),
            size: e.size(),
            func: e.func(),
        }
    }

    fn section_symbol_of(&self, id: SecId) -> Option<SymIdx> {
        self.st.sec(id).symbol().map(Into::into)
    }

    fn merge_function(&mut self, i: usize) -> Result<(), LinkError> {
        let s = &self.syms[i];
        let defined = s.shndx != 0 && (s.shndx as u16) < SHN_LORESERVE;
        match s.binding() {
            STB_LOCAL => {
                // Code inside another function's section (an `nvcc -ewp` kernel's internal
                // functions): the section is that function's, made as it would make it before
                // this name (observed: `.text.<k>`, `.nv.info.<k>`, `.nv.shared.<k>`, then
                // `$k$helper` in the string table).
                if defined {
                    if let Some(owner) = self.other_code_owner(s.shndx, i) {
                        let entry = self.syms[owner].other & STO_CUDA_ENTRY != 0;
                        self.map_text(s.shndx, entry, false, None)?;
                    }
                }
                let s = &self.syms[i];
                let idx = self.st.add_local(
                    Symbol::new(s.name, s.info, s.other, s.value, s.size, self.input),
                    true,
                );
                self.maps.sym[i] = Some(idx);
                self.st.add_function(idx, s.other & STO_CUDA_ENTRY != 0);
                if defined {
                    let sec = self.map_text(
                        s.shndx,
                        s.other & STO_CUDA_ENTRY != 0,
                        false,
                        Some((i, idx)),
                    )?;
                    let base = self.maps.offset[s.shndx as usize];
                    let mut sym = self.st.sym_mut(idx);
                    *sym.section() = SymSection::Section(sec);
                    *sym.value() += base;
                }
            }
            _ => self.merge_global_function(i, defined)?,
        }
        Ok(())
    }

    fn merge_global_function(&mut self, i: usize, defined: bool) -> Result<(), LinkError> {
        let s = &self.syms[i];
        let is_entry = s.other & STO_CUDA_ENTRY != 0;
        match self.st.global_by_name_hashed(s.hash, s.name) {
            None => {
                let idx = self.st.add_global_hashed(
                    s.hash,
                    Symbol::new(s.name, s.info, s.other, s.value, s.size, self.input),
                );
                self.maps.sym[i] = Some(idx);
                self.st.add_function(idx, is_entry);
                if defined {
                    self.define_function(idx, i, false)?;
                }
            }
            Some(idx) => {
                self.maps.sym[i] = Some(idx);
                if !defined {
                    return Ok(());
                }
                let existing = self.existing(idx);
                if !existing.defined {
                    let mut sym = self.st.sym_mut(idx);
                    *sym.info() = s.info;
                    *sym.other() = s.other;
                    *sym.value() = s.value;
                    *sym.size() = s.size;
                    *sym.input() = self.input;
                    if let Some(f) = existing.func {
                        self.st.func_mut(f).is_entry = is_entry;
                    }
                    self.define_function(idx, i, true)?;
                } else if existing.binding == STB_GLOBAL && s.binding() == STB_GLOBAL {
                    let name = s.name;
                    self.multiple_definition(name, existing.input);

                    self.lose(i);
                } else if existing.binding == STB_WEAK && s.binding() == STB_GLOBAL {
                    self.replace_function(idx, i)?;
                } else if existing.binding == STB_WEAK && s.binding() == STB_WEAK {
                    if self.weak_incoming_wins(idx, i) {
                        self.replace_function(idx, i)?;
                    } else {
                        self.lose(i);
                    }
                } else {
                    // A weak definition after a strong one: the strong one stays.
                    self.lose(i);
                }
            }
        }
        Ok(())
    }

    /// Records that input symbol `i`'s definition lost; its section is mapped to the winner's
    /// so references resolve, but its bytes are not copied.
    fn lose(&mut self, i: usize) {
        self.maps.lost[i] = true;
        let shndx = self.syms[i].shndx as usize;
        if let Some(idx) = self.maps.sym[i] {
            if let SymSection::Section(sec) = self.st.sym(idx).section() {
                if shndx < self.maps.sec.len() {
                    self.maps.sec[shndx] = Some(sec);
                }
            }
        }
    }

    /// `referenced` when an earlier input referenced the function before this definition.
    fn define_function(
        &mut self,
        idx: SymIdx,
        i: usize,
        referenced: bool,
    ) -> Result<(), LinkError> {
        let s = &self.syms[i];
        let is_entry = s.other & STO_CUDA_ENTRY != 0;
        let sec = self.map_text(s.shndx, is_entry, referenced, Some((i, idx)))?;
        let base = self.maps.offset[s.shndx as usize];
        let mut sym = self.st.sym_mut(idx);
        *sym.section() = SymSection::Section(sec);
        *sym.value() += base;
        Ok(())
    }

    /// Maps a `.text.<f>` section; kernels also get `.nv.info.<k>` and `.nv.shared.<k>`.
    ///
    /// `owner` is the function's symbol (its index in the input, and in the link): when the
    /// section's `sh_info` names it and the section was first met through another symbol, it
    /// becomes the section's symbol now and the section counts as new (an `nvcc -ewp`
    /// object's kernel section also holds its internal functions, local symbols listed
    /// before the kernel's: observed, the kernel still gets `.nv.info.<k>`, and `sh_info`).
    fn map_text(
        &mut self,
        shndx: u32,
        is_entry: bool,
        referenced: bool,
        owner: Option<(usize, SymIdx)>,
    ) -> Result<SecId, LinkError> {
        let mapped = self.maps.sec.get(shndx as usize).copied().flatten();
        let owns = owner.is_some_and(|owner| {
            self.obj
                .elf
                .sections()
                .get(shndx as usize)
                .is_some_and(|h| {
                    (h.info & 0xff_ffff) as usize == owner.0 && h.flags & SHF_EXECINSTR != 0
                })
        });
        let claim =
            owns && mapped.is_some_and(|id| !matches!(self.st.sec(id).info(), Link::Symbol { .. }));
        let known = mapped.is_some() && !claim;
        let sec = self
            .map_section(shndx)?
            .ok_or_else(|| bad(self.obj, format!("function in bad section {shndx}")))?;
        if let (true, Some(owner)) = (claim, owner) {
            let high = self
                .obj
                .elf
                .sections()
                .get(shndx as usize)
                .map_or(0, |h| (h.info >> 24) as u8);
            *self.st.sec_mut(sec).info() = Link::Symbol { sym: owner.1, high };
        }
        let name = self.st.sec(sec).name();
        let fname = name.strip_prefix(".text.").unwrap_or(name);
        // A kernel `--kernels-used` leaves out gets neither from the link: what its input
        // brings is made as it comes, like a function's (observed: no `.nv.shared.<k>` name
        // for one without shared variables; with `--kernels-used=k2` of k4..k1, on sm_80,
        // where ptxas lists each kernel's window and its variable between its code and its
        // bank's `_param`, `.nv.shared.k3` comes before `.nv.constant0.k2` and
        // `.nv.shared.k1` after it; on sm_90 both come before `.debug_frame`; the input's
        // `.nv.info.<k>` sections come in section order).
        // (`--preserve-relocs` keeps such kernels as functions: the same for those
        // `--kernels-used` leaves out, observed on sm_90; those the host objects leave out
        // get both; `--variables-used` selects as `--kernels-used` does: observed, sm_90.
        // `-r` alike, with or without `--preserve-relocs`: observed, sm_80 to sm_100.)
        let held = super::dce::unselected_kernels_held(self.opts)
            || (self.opts.preserve_relocs
                && !self.opts.debug
                && (!self.opts.kernels_used.is_empty() || !self.opts.variables_used.is_empty()));
        // But one an earlier input referenced (launched from device code) gets them as a
        // selected one does (observed, sm_80: `.nv.shared.<k>` names of kernels launched from
        // an earlier input's code stay in the string tables, not of one launching itself).
        // (Only libnvvm's kernels: libcudadevrt's keep theirs, observed.)
        // (Not under `-g`: observed, the `-g` link names `.nv.shared._Z5childPi`.)
        let from_lto = self.opts.compiled_ptx.get(self.input) == Some(&true);
        let lto_unselected = from_lto
            && !self.opts.debug
            && self.opts.lto_host_kernels.as_ref().is_some_and(|patterns| {
                !patterns.iter().any(|p| {
                    crate::input::host::host_pattern_matches(p.as_bytes(), fname.as_bytes())
                })
            });
        let unselected = is_entry
            && !referenced
            && ((held && !super::dce::kernel_selected(fname, self.opts)) || lto_unselected);
        if unselected {
            self.st.held_kernels.insert(sec);
        }
        if is_entry && lto_unselected {
            self.st.lto_left_out.insert(sec);
        }
        if !known && is_entry && !unselected {
            let info_name = self.st.make_name(&[".nv.info.", fname]);
            if self.st.section_by_name(info_name).is_none() {
                let mut info = new_section(info_name, SHT_CUDA_INFO, SHF_INFO_LINK, 4, 0);
                info.link = Link::Symtab;
                info.info = Link::Section(sec);
                info.role = SecRole::Synthetic;
                self.st.create_section(info, false);
            }
            let shared_name = self.st.make_name(&[".nv.shared.", fname]);
            if self.st.section_by_name(shared_name).is_none() {
                let mut shared = new_section(
                    shared_name,
                    SHT_CUDA_SHARED,
                    SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK,
                    0,
                    0,
                );
                shared.info = Link::Section(sec);
                let sid = self.st.create_section(shared, false);
                let sym = self
                    .st
                    .add_local(Symbol::for_section(shared_name, sid, self.input), false);
                *self.st.sec_mut(sid).symbol() = sym.as_local();
            }
        }
        Ok(sec)
    }

    /// nvlink's choice between two weak definitions (observed): the newer virtual SM (PTX
    /// `.target`) wins, then the one using fewer registers, then the first on the command line.
    /// The virtual SM compared is the first definition's, even after a later copy replaced it;
    /// the register count is the current definition's.
    fn weak_incoming_wins(&mut self, existing: SymIdx, i: usize) -> bool {
        let old_input = self.st.sym(existing).input();
        let (incoming, why) = self.weak_choice(existing, i, old_input);
        if incoming {
            self.st
                .weak_first_input
                .entry(existing)
                .or_insert(old_input);
        }
        let (winner, loser) = if incoming {
            (self.input, old_input)
        } else {
            (old_input, self.input)
        };
        self.st.weak_contests.push(WeakContest {
            symbol: existing,
            winner,
            loser,
            why,
        });
        incoming
    }

    fn weak_choice(&self, existing: SymIdx, i: usize, old_input: usize) -> (bool, WeakWhy) {
        let first = self.st.weak_first_input.get(&existing).copied();
        let old_vsm = self.st.input_vsm.get(&first.unwrap_or(old_input)).copied();
        let new_vsm = self.st.input_vsm.get(&self.input).copied();
        if let (Some(o), Some(n)) = (old_vsm, new_vsm) {
            if o != n {
                return (n > o, WeakWhy::NewerPtxTarget);
            }
        }
        let old = self.st.regcounts.get(&existing).copied();
        let new = input_regcount(self.elf(), i as u32);
        match (new, old) {
            (Some(n), Some(o)) if n != o => (n < o, WeakWhy::FewerRegisters),
            _ => (false, WeakWhy::FirstOnCommandLine),
        }
    }

    fn replace_function(&mut self, idx: SymIdx, i: usize) -> Result<(), LinkError> {
        let s = &self.syms[i];
        let old_sec = match self.st.sym(idx).section() {
            SymSection::Section(sec) => sec,
            _ => return self.define_function(idx, i, false),
        };
        // The winner's bytes replace the loser's in the same output section.
        let (h, _) = self.in_section(s.shndx)?;
        let data = self
            .elf()
            .section_data(s.shndx)
            .map_err(|e| bad(self.obj, e))?;
        {
            let mut sec = self.st.sec_mut(old_sec);
            *sec.nodes() = NodeList::EMPTY;
            *sec.size() = 0;
        }
        let off = self.st.append_data(
            old_sec,
            Some(data),
            h.size,
            h.addralign,
            self.input,
            s.shndx,
        );
        self.maps.sec[s.shndx as usize] = Some(old_sec);
        self.maps.offset[s.shndx as usize] = off;
        // The code's header says what the winner's says in sh_info's top byte (its register
        // count: observed, sm_80, a 24-register copy replacing a 36-register one).
        if let Link::Symbol { sym, .. } = self.st.sec(old_sec).info() {
            *self.st.sec_mut(old_sec).info() = Link::Symbol {
                sym,
                high: (h.info >> 24) as u8,
            };
        }
        // Drop what the old definition contributed: its code's relocations and its `.nv.info`
        // records. Its call edges stay (observed, sm_90: the callgraph lists `poly -> helper`
        // once per copy, and a static function only the old copy called stays in the image).
        // Its frame and line relocations go too when its code had relocations of its own; a
        // copy without any keeps them, now naming the winner (observed, sm_90: a `-Xptxas -O1`
        // copy reading an inline variable template replacing a plain one, or one calling a
        // template helper: the old FDE keeps its bytes, its relocations gone; sm_100: the
        // Mercury twins' relocations go as well).
        let old_input = self.st.sym(idx).input();
        let mut had_relocations = false;
        for r in self.st.relocs.iter_mut() {
            if r.target == old_sec {
                had_relocations |= !r.dropped;
                r.dropped = true;
            }
        }
        // (Below sm_90, where relocations are REL, only the `.debug_line` ones go, and of the
        // rest those that would clear a field for a removed function: observed on sm_75 and
        // sm_80, the same copies keep their `.debug_frame` and `.nv_debug_line_sass`
        // relocations, but a replaced copy of a function dead code elimination then removes
        // keeps its FDE's address range, `R_CUDA_UNUSED_CLEAR64` unapplied.)
        if had_relocations {
            self.st.replaced_with_relocations.push((old_input, idx));
            let frames = self.opts.target.sm >= 90;
            let ranges: rustc_hash::FxHashMap<SecId, bool> = self
                .st
                .section_ids()
                .filter_map(|id| {
                    let name = self.st.sec(id).name();
                    let name = name.strip_prefix(".nv.merc").unwrap_or(name);
                    describes_code_ranges(name).then_some((id, frames || name == ".debug_line"))
                })
                .collect();
            for r in self.st.relocs.iter_mut() {
                if r.sym != Some(idx) || r.input != old_input {
                    continue;
                }
                if let Some(&all) = ranges.get(&r.target) {
                    r.dropped |= all || clears_for_removed(r.r_type);
                }
            }
        }
        for r in self.st.info.iter_mut() {
            if r.sym == Some(idx) {
                r.dropped = true;
            }
        }
        let fname = self
            .st
            .sec(old_sec)
            .name()
            .strip_prefix(".text.")
            .map(str::to_owned);
        if let Some(info) = fname.and_then(|f| self.st.section_by_name(&format!(".nv.info.{f}"))) {
            if let Some(list) = self.st.section_info.get_mut(&info) {
                list.clear();
            }
            for map in [&mut self.st.merc_section_info, &mut self.st.sass_info_tail] {
                if let Some(list) = map.get_mut(&info) {
                    list.clear();
                }
            }
        }
        if let Some(f) = self.st.sym(idx).func() {
            self.st.func_mut(f).address_edges.clear();
        }
        let mut sym = self.st.sym_mut(idx);
        *sym.info() = s.info;
        *sym.other() = s.other;
        *sym.value() = s.value + off;
        *sym.size() = s.size;
        *sym.input() = self.input;
        Ok(())
    }

    /// Reports a second strong definition (an error; the input's merge then fails).
    fn multiple_definition(&mut self, name: &str, first: usize) {
        self.against_first(
            ("Multiple definition of", "first defined", "?"),
            name,
            first,
        );
    }

    /// nvlink's error `<what> 'name' in '<this input>', <first_says> in '<first input>'`
    /// (`unnamed` when the link was given no name for that input).
    fn against_first(
        &mut self,
        (what, first_says, unnamed): (&str, &str, &str),
        name: &str,
        first_input: usize,
    ) {
        let first = self
            .opts
            .input_names
            .get(first_input)
            .map(String::as_str)
            .unwrap_or(unnamed);
        let d = Diagnostic::new(
            Severity::Error,
            format!(
                "{what} '{name}' in '{}', {first_says} in '{first}'",
                self.obj.name
            ),
        )
        .in_file(self.obj.name.clone())
        .about_symbol(name);
        self.diags.push(d);
    }

    /// Whether input section `idx` is the `.nv.shared.<k>` window of a kernel the merge holds.
    fn is_held_window(&mut self, idx: u32) -> bool {
        let Ok((h, name)) = self.in_section(idx) else {
            return false;
        };
        let Some(kernel) = name.strip_prefix(".nv.shared.") else {
            return false;
        };
        if h.sh_type != SHT_CUDA_SHARED {
            return false;
        }
        let text = self.st.make_name(&[".text.", kernel]);
        self.st
            .section_by_name(text)
            .is_some_and(|t| self.st.held_kernels.contains(&t))
    }

    fn merge_section_symbol(&mut self, i: usize) -> Result<(), LinkError> {
        let s = &self.syms[i];
        let (h, name) = self.in_section(s.shndx)?;
        if h.sh_type == SHT_NOTE || name == ".nv.callgraph" || name == ".nv.prototype" {
            return Ok(());
        }
        let mapped = self.maps.sec.get(s.shndx as usize).copied().flatten();
        if mapped.is_none() && self.lost_nobits.contains(&s.shndx) {
            return Ok(());
        }
        if name.starts_with(".text.") && mapped.is_none() {
            // Text of a function that was not defined here (or lost a contest).
            return Ok(());
        }
        if let Some(id) = self.map_section(s.shndx)? {
            self.name_section(id, true);
            self.maps.sym[i] = self.section_symbol_of(id);
        }
        Ok(())
    }

    /// The output symbol weak input symbol `i` loses to, when its section is zero-filled data
    /// not taken yet: an earlier definition of the same size stays (see [`Self::merge_object`]).
    fn loses_in_untaken_nobits(&mut self, i: usize) -> Result<Option<SymIdx>, LinkError> {
        let s = &self.syms[i];
        if self
            .maps
            .sec
            .get(s.shndx as usize)
            .copied()
            .flatten()
            .is_some()
        {
            return Ok(None);
        }
        let (h, name) = self.in_section(s.shndx)?;
        if classify(h.sh_type, name) != SHT_CUDA_GLOBAL {
            return Ok(None);
        }
        let Some(idx) = self.st.global_by_name_hashed(s.hash, s.name) else {
            return Ok(None);
        };
        let e = self.existing(idx);
        Ok((e.defined && e.size == s.size).then_some(idx))
    }

    /// Keeps (or drops) output section `id`'s section symbol.
    fn name_section(&mut self, id: SecId, named: bool) {
        if let Some(sym) = self.st.sec(id).symbol() {
            self.st.locals.removed[sym.pos()] = !named;
        }
    }

    /// Whether input symbol `i` is a `__shared__` variable (`st_other` 0x40 in a shared
    /// section, or undefined: `extern __shared__`), and where it was declared.
    fn shared_kind(&mut self, i: usize) -> Result<Option<SharedKind>, LinkError> {
        let s = &self.syms[i];
        if s.other & 0x40 == 0 || s.sym_type() == STT_FUNC {
            return Ok(None);
        }
        if s.shndx == 0 {
            return Ok(Some(SharedKind::Dynamic));
        }
        if (s.shndx as u16) >= SHN_LORESERVE {
            return Ok(None);
        }
        let (h, name) = self.in_section(s.shndx)?;
        if classify(h.sh_type, name) != SHT_CUDA_SHARED {
            return Ok(None);
        }
        // An `extern __shared__` name a relocatable link defined in `.nv_debug.shared`
        // (global, no size) is still dynamic memory.
        if name == ".nv_debug.shared" && s.binding() != STB_LOCAL && s.size == 0 {
            return Ok(Some(SharedKind::Dynamic));
        }
        let kernel_text = name
            .strip_prefix(".nv.shared.")
            .and_then(|k| self.st.section_by_name(&format!(".text.{k}")));
        Ok(Some(match kernel_text {
            Some(t) => SharedKind::Kernel(t),
            None => SharedKind::Function,
        }))
    }

    fn merge_object(&mut self, i: usize) -> Result<(), LinkError> {
        let s = &self.syms[i];
        if s.sym_type() == STT_NOTYPE && s.shndx != 0 && (s.shndx as u16) < SHN_LORESERVE {
            let alias = self.in_section(s.shndx).is_ok_and(|(h, _)| {
                h.sh_type == SHT_CUDA_SHARED_RESERVED && h.size == 0 && s.size == 0
            });
            if alias {
                // `nvcc -ewp` objects name their empty reserved shared window with a typeless
                // `__nv_reservedSMEM_offset_0_alias`: nvlink keeps neither the symbol nor the
                // window, nor their names (observed, sm_90).
                return Ok(());
            }
        }
        // Symbols nvlink drops: the parameter-bank symbols of sm_75-era cubins (`_param`, and
        // `_SREG` over a kernel's whole constant bank) and the PTX constant-bank size marker.
        // Relocatable and `--preserve-relocs` links keep `_param` (observed, sm_80).
        let keeps_param = self.opts.relocatable || self.opts.preserve_relocs;
        if s.name == PTX_CONST0_SIZE && s.shndx == 0 {
            // libcudadevrt's launch helpers read `.nv.ptx.const0.size`, a local no input
            // defines: nvlink settles their relocations with all ones (observed, sm_75 to
            // sm_120). A final image leaves the symbol out; a relocatable one keeps it,
            // undefined, with the value -1 (observed, sm_80 to sm_100).
            let relocatable = self.opts.relocatable;
            if let (true, Some(kept)) = (relocatable, self.st.ptx_const0_size) {
                self.maps.sym[i] = Some(kept);
                return Ok(());
            }
            let settled = Symbol {
                section: if relocatable {
                    SymSection::Undef
                } else {
                    SymSection::Abs
                },
                removed: !relocatable,
                ..Symbol::new(
                    s.name,
                    if relocatable {
                        (s.info & 0xf0) | STT_CUDA_OBJECT
                    } else {
                        s.info
                    },
                    s.other,
                    if relocatable {
                        u64::MAX
                    } else {
                        u64::from(u32::MAX)
                    },
                    s.size,
                    self.input,
                )
            };
            let idx = self.st.add_local(settled, relocatable);
            if relocatable {
                self.st.ptx_const0_size = Some(idx);
            }
            self.maps.sym[i] = Some(idx);
            return Ok(());
        }
        if is_unresolved_label(s) {
            // ptxas's `$L__tmp…` labels that `-G` location lists name but no section defines
            // (local, undefined, no type): nvlink drops them and their relocations, and leaves
            // the bytes they would have patched as they are (observed, thrust `-G` on sm_80).
            return Ok(());
        }
        if !self.lost_texts.is_empty()
            && s.binding() == STB_LOCAL
            && s.shndx != 0
            && (s.shndx as u16) < SHN_LORESERVE
        {
            let bank = self
                .in_section(s.shndx)
                .map(|(_, n)| self.lost_function_bank(n));
            if matches!(bank, Ok(Some(2))) {
                // The compiler constants of a function that lost a weak contest: nvlink still
                // appends them to the function's bank, but names them with no symbol
                // (observed, a weak template in two TUs, sm_80 `-r`).
                if let Some(sec) = self.map_section(s.shndx)? {
                    let at = self.maps.offset[s.shndx as usize].wrapping_add(s.value);
                    self.st.hidden_constants.push((sec, at, s.size));
                }
                return Ok(());
            }
        }
        let bank_marker = s.name == "_param" || s.name == "_SREG";
        let dropped_marker = (bank_marker && !keeps_param) || s.name == PTX_CONST0_SIZE;
        if dropped_marker {
            // Its section is still taken here, in symbol order (sm_75-era `_param` lives in
            // `.nv.constant0.<k>`).
            if s.shndx != 0 && (s.shndx as u16) < SHN_LORESERVE {
                self.map_section(s.shndx)?;
            }
            return Ok(());
        }
        // A relocatable link lays out no shared memory: shared variables stay ordinary
        // symbols of their input section (observed, sm_90 `-r`).
        if self.opts.relocatable && s.shndx != 0 && s.binding() == STB_GLOBAL {
            // There an earlier `-r`'s definition of an `extern __shared__` name after an input
            // that only named it is a multiple definition as well (observed, sm_80: `-r b.o
            // a.cubin`); two definitions are caught as any other data.
            let name = s.name;
            if let Some(idx) = self.st.global_by_name_hashed(s.hash, name) {
                if !self.st.sym(idx).is_defined()
                    && self.shared_kind(i)? == Some(SharedKind::Dynamic)
                {
                    let first = self.st.sym(idx).input();
                    self.multiple_definition(name, first);
                }
            }
        }
        let shared = if self.opts.relocatable {
            // Its alignment sizes the window all the same (see `shared::relocatable_size`);
            // an earlier `-r`'s `externsharedinstance` holds one that need not be a power of
            // two, and so does an `extern __shared__` name an earlier `-r -g` defined (see
            // below).
            let debug_defined = s.shndx != 0
                && s.size == 0
                && s.binding() != STB_LOCAL
                && self.shared_kind(i)? == Some(SharedKind::Dynamic);
            let usable = if s.name == super::shared::EXTERN_SHARED_INSTANCE || debug_defined {
                s.value <= MAX_ALIGN
            } else {
                alignment_ok(s.value)
            };
            if s.other & 0x40 != 0
                && s.sym_type() != STT_FUNC
                && s.sym_type() != STT_SECTION
                && !usable
            {
                return Err(bad(
                    self.obj,
                    format!(
                        "shared variable {}: alignment {:#x} is not a power of two up to {MAX_ALIGN:#x}",
                        s.name, s.value
                    ),
                ));
            }
            // An `extern __shared__` name is defined in `.nv_debug.shared`, made as it
            // comes when no input has it (observed: after the windows of the input that
            // first names one). Its section symbol is made there too, but stays out of the
            // image unless a later input's `.nv_debug.shared` brings one (observed, sm_80 to
            // sm_100: a `-r` of c.o b.o a.o, c.o naming dynamic memory first, b.o holding
            // a function's array, lists the symbol where c.o made the section).
            if s.shndx == 0
                && s.other & 0x40 != 0
                && s.sym_type() != STT_FUNC
                && s.name != super::shared::EXTERN_SHARED_INSTANCE
                && self.st.section_by_name(".nv_debug.shared").is_none()
            {
                let mut sec = new_section(
                    ".nv_debug.shared",
                    SHT_CUDA_SHARED,
                    SHF_WRITE | SHF_ALLOC,
                    0,
                    0,
                );
                sec.role = SecRole::Data;
                let id = self.st.create_section(sec, false);
                let sym = self.st.add_local(
                    Symbol {
                        removed: true,
                        ..Symbol::for_section(".nv_debug.shared", id, self.input)
                    },
                    false,
                );
                *self.st.sec_mut(id).symbol() = sym.as_local();
            }
            None
        } else {
            self.shared_kind(i)?
        };
        if let Some(kind) = shared {
            // An earlier `-r`'s definition of an `extern __shared__` name (in its
            // `.nv_debug.shared`) after any input named it is a multiple definition, "first
            // defined" where the name first came, even undefined (observed, sm_80: `b.o
            // a.cubin` fails, `a.cubin b.o` does not; two `-g -r` images of different TUs
            // with the same name fail, with or without `-g`).
            if kind == SharedKind::Dynamic
                && s.binding() == STB_GLOBAL
                && s.name != super::shared::EXTERN_SHARED_INSTANCE
            {
                match self.st.dynamic_shared_first.get(s.name) {
                    Some(&first) if s.shndx != 0 => self.multiple_definition(s.name, first),
                    Some(_) => {}
                    None => {
                        self.st.dynamic_shared_first.insert(s.name, self.input);
                    }
                }
            }
            // A file-scope `__shared__` variable two inputs define is a multiple definition
            // (observed, sm_80: two TUs each with `__shared__ int tile[64]`).
            let global_static =
                kind != SharedKind::Dynamic && s.binding() == STB_GLOBAL && s.shndx != 0;
            if global_static {
                if let Some(&(first, idx)) = self.st.global_shared_first.get(s.name) {
                    self.multiple_definition(s.name, first);
                    self.maps.sym[i] = Some(idx);
                    return Ok(());
                }
            }
            if s.binding() == STB_WEAK {
                if let Some(&first) = self.st.weak_shared.get(s.name) {
                    // Another copy of a template kernel's shared array: the first copy's
                    // place is its place (observed: a losing copy's `-G` debug info names
                    // the winner's offset).
                    self.maps.sym[i] = Some(first);
                    return Ok(());
                }
            }
            // Dynamic shared memory brings `.nv_debug.shared` into the image (observed: it is
            // there, empty, even when no input has it).
            if kind == SharedKind::Dynamic && self.st.section_by_name(".nv_debug.shared").is_none()
            {
                let mut sec = new_section(
                    ".nv_debug.shared",
                    SHT_CUDA_SHARED,
                    SHF_WRITE | SHF_ALLOC,
                    0,
                    0,
                );
                sec.role = SecRole::Data;
                let id = self.st.create_section(sec, false);
                if self.opts.shows_shared_layout() {
                    // `-g` gives it a section symbol (observed, sm_90), and so does
                    // `--preserve-relocs` (observed, sm_80 and sm_90).
                    let sym = self.st.add_local(
                        Symbol::for_section(".nv_debug.shared", id, self.input),
                        false,
                    );
                    *self.st.sec_mut(id).symbol() = sym.as_local();
                }
            }
            // Placed later by the shared-memory layout; named in the output only by `-g`
            // links. Its section is still taken now, in symbol order.
            let section = if kind != SharedKind::Dynamic {
                self.map_section(s.shndx)?
            } else {
                None
            };

            // ptxas keeps a shared variable's alignment in st_value. (A relocatable link's
            // `externsharedinstance` holds where its kernel's dynamic memory started, which
            // nvlink then takes for an alignment: observed, 0x30 after 0x24 static bytes
            // gives a window aligned 0x30.)
            // So is the value of an `extern __shared__` name an earlier `-r -g` defined in
            // `.nv_debug.shared` (where its kernel's dynamic memory started: observed, sm_80
            // and sm_90, 0x30 after 0x24 static bytes gives windows aligned 0x30 in `-r`,
            // final and `-g` links).
            let instance = kind == SharedKind::Dynamic
                && (s.name == super::shared::EXTERN_SHARED_INSTANCE || s.shndx != 0)
                && s.value <= MAX_ALIGN;
            if !instance && !alignment_ok(s.value) {
                return Err(bad(
                    self.obj,
                    format!(
                        "shared variable {}: alignment {:#x} is not a power of two up to {MAX_ALIGN:#x}",
                        s.name, s.value
                    ),
                ));
            }
            // An `extern __shared__` name a `-g -r` link defined in `.nv_debug.shared` has
            // st_value 0: it asks 16, whatever its first alignment and that section's
            // (observed, sm_80 and sm_90: its kernel's window comes back aligned 0x10 for a
            // `float` array, and for an `__align__(32)` one beside a 32-aligned
            // `.nv_debug.shared`).
            let at_zero = kind == SharedKind::Dynamic && s.shndx != 0 && s.value == 0;
            let align = if at_zero { 0x10 } else { s.value.max(1) };
            let var = self.st.shared_vars.len();
            self.st.shared_vars.push(SharedVar {
                kind,
                align,
                size: s.size,
                offset: None,
                section,
                window: None,
                at_zero,
                past_zero: kind == SharedKind::Dynamic && s.shndx != 0 && s.value != 0,
            });
            let rec = Symbol {
                shared: Some(var),
                ..Symbol::new(s.name, s.info, s.other, 0, s.size, self.input)
            };
            let visible = (self.opts.debug || self.opts.preserve_relocs) && section.is_some();
            // `-g` lists `extern __shared__` names too, once, with the non-local symbols
            // (observed: `sm` as a global object in `.nv_debug.shared`).
            let listed_dynamic = kind == SharedKind::Dynamic && self.opts.lists_dynamic_shared();
            if listed_dynamic {
                if let Some(&first) = self.st.weak_shared.get(s.name) {
                    self.maps.sym[i] = Some(first);
                    return Ok(());
                }
            }
            let idx = if listed_dynamic {
                // A local one (bad input) carries no name hash: hashed here.
                let idx = self.st.add_global(rec);
                self.st.weak_shared.insert(s.name, idx);
                idx
            } else if visible && s.binding() != STB_LOCAL {
                // A weak one (a template kernel's array) is listed with the non-local
                // symbols, where its name first came, though written as a local (observed,
                // `-g` and `--preserve-relocs`, sm_80 and sm_90); so is a global one (a
                // file-scope `__shared__` array), written as a global (observed, sm_80 and
                // sm_90).
                self.st.add_global_hashed(s.hash, rec)
            } else {
                self.st.add_local(rec, visible)
            };
            self.maps.sym[i] = Some(idx);
            if s.binding() == STB_WEAK {
                self.st.weak_shared.insert(s.name, idx);
            }
            if global_static {
                self.st
                    .global_shared_first
                    .insert(s.name, (self.input, idx));
            }
            return Ok(());
        }
        let defined = s.shndx != 0;
        let special = (s.shndx as u16) >= SHN_LORESERVE;
        // In a relocatable link a shared variable's `st_value` stays its alignment (ptxas's
        // convention), not an offset (observed, `-r`).
        // (Looked up only in relocatable links: this runs for every data symbol.)
        let relocatable_shared = self.opts.relocatable
            && s.other & 0x40 != 0
            && defined
            && !special
            && self
                .in_section(s.shndx)
                .is_ok_and(|(h, n)| classify(h.sh_type, n) == SHT_CUDA_SHARED);
        if defined && !special && s.binding() == STB_WEAK && !relocatable_shared {
            if let Some(idx) = self.loses_in_untaken_nobits(i)? {
                // A weak copy that loses, in zero-filled data nothing else took yet: the
                // section brings no bytes unless a symbol that stays comes later (observed:
                // a TU whose `.nv.global` holds only template variables other TUs defined
                // first adds nothing; one holding a new one as well adds all its bytes).
                self.maps.sym[i] = Some(idx);
                if !self.lost_nobits.contains(&s.shndx) {
                    self.lost_nobits.push(s.shndx);
                }
                return Ok(());
            }
        }
        let (section, value) = if defined && !special {
            let created = self.st.sections.len();
            let sec = self.map_section(s.shndx)?;
            // An earlier `-r`'s `.nv_debug.shared`, first named by an `extern __shared__`
            // name it defines, comes without a section symbol, as it went (observed).
            if let Some(id) = sec.filter(|id| relocatable_shared && id.index() >= created) {
                if self.st.sec(id).name() == ".nv_debug.shared" {
                    self.name_section(id, false);
                }
            }
            let base = if relocatable_shared {
                0
            } else {
                self.maps.offset[s.shndx as usize]
            };
            let value = s.value.checked_add(base).ok_or_else(|| {
                bad(
                    self.obj,
                    format!("symbol {}: value {:#x} out of range", s.name, s.value),
                )
            })?;
            (
                sec.map(SymSection::Section).unwrap_or(SymSection::Undef),
                value,
            )
        } else if s.shndx as u16 == SHN_COMMON {
            (SymSection::Common, s.value)
        } else if s.shndx as u16 == SHN_ABS {
            (SymSection::Abs, s.value)
        } else {
            (SymSection::Undef, s.value)
        };
        let rec = Symbol {
            section,
            ..Symbol::new(s.name, s.info, s.other, value, s.size, self.input)
        };
        if s.binding() == STB_LOCAL {
            let idx = self.st.add_local(rec, true);
            self.maps.sym[i] = Some(idx);
            return Ok(());
        }
        match self.st.global_by_name_hashed(s.hash, s.name) {
            None => {
                let idx = self.st.add_global_hashed(s.hash, rec);
                self.maps.sym[i] = Some(idx);
            }
            Some(idx) => {
                self.maps.sym[i] = Some(idx);
                let mut existing = self.existing(idx);
                if let Some(&first) = self.st.var_first_named.get(&idx) {
                    existing.input = first;
                }
                // A declaration and another declaration or the definition must agree on the
                // size, unless one leaves it open (`extern int a[]`) (observed, sm_90: `extern
                // __constant__ int c[16]` against `[4096]` or a `[32]` definition, either order).
                let open = s.size == 0 || existing.size == 0;
                if (section == SymSection::Undef || !existing.defined)
                    && !open
                    && existing.size != s.size
                {
                    self.size_mismatch(s.name, existing.input);
                    return Ok(());
                }
                if section == SymSection::Undef {
                    return Ok(());
                }
                if !existing.defined {
                    self.st.var_first_named.entry(idx).or_insert(existing.input);
                    let mut e = self.st.sym_mut(idx);
                    *e.info() = s.info;
                    *e.other() = s.other;
                    *e.section() = section;
                    *e.value() = value;
                    *e.size() = s.size;
                    *e.input() = self.input;
                } else if existing.binding == STB_GLOBAL && s.binding() == STB_GLOBAL {
                    let name = s.name;
                    self.multiple_definition(name, existing.input);
                } else if s.binding() == STB_WEAK && existing.size == s.size {
                    // The earlier definition stays.
                    if relocatable_shared {
                        // A relocatable link's shared section holds no bytes: a second copy
                        // of a template kernel's weak array takes no room (observed: two TUs
                        // with the same template kernel give one copy's worth).
                        if let SymSection::Section(sec) = section {
                            let mut x = self.st.sec_mut(sec);
                            *x.size() = x.size().saturating_sub(s.size);
                        }
                    } else {
                        let end = s.value.saturating_add(s.size);
                        self.maps.lost_data.push((s.shndx, s.value, end));
                    }
                } else if existing.size != s.size {
                    self.size_mismatch(s.name, existing.input);
                } else if existing.binding == STB_WEAK && s.binding() == STB_GLOBAL {
                    let mut e = self.st.sym_mut(idx);
                    *e.info() = s.info;
                    *e.other() = s.other;
                    *e.section() = section;
                    *e.value() = value;
                    *e.input() = self.input;
                }
            }
        }
        Ok(())
    }

    /// nvlink's error for a variable whose size differs from the one `first_input` gave it.
    fn size_mismatch(&mut self, name: &str, first_input: usize) {
        self.against_first(
            ("Size doesn't match for", "first specified", ""),
            name,
            first_input,
        );
    }

    fn merge_section_header(&mut self, idx: u32) -> Result<(), LinkError> {
        let (h, name, hash) = self.in_section_hashed(idx)?;
        if self.opts.target.is_mercury() && is_mercury_section(name) {
            return Ok(());
        }
        match h.sh_type {
            SHT_CUDA_INFO => self.merge_info(idx, h, name, hash),
            SHT_CUDA_CALLGRAPH => self.merge_callgraph(idx),
            SHT_CUDA_PROTOTYPE => self.merge_prototypes(idx),
            SHT_REL | SHT_RELA => self.merge_relocations(idx, h, name, hash),
            SHT_NULL | SHT_SYMTAB | SHT_STRTAB | SHT_NOTE | SHT_SYMTAB_SHNDX | SHT_CUDA_COMPAT => {
                Ok(())
            }
            _ => self.take_unnamed_data(idx, h, name),
        }
    }

    /// Makes input section `idx` if it is a data section no symbol has made so far (e.g. a
    /// `.debug_frame` without its section symbol).
    fn take_unnamed_section(&mut self, idx: u32) -> Result<(), LinkError> {
        let (h, name, _) = self.in_section_hashed(idx)?;
        if self.opts.target.is_mercury() && is_mercury_section(name) {
            return Ok(());
        }
        match h.sh_type {
            SHT_CUDA_INFO | SHT_CUDA_CALLGRAPH | SHT_CUDA_PROTOTYPE | SHT_REL | SHT_RELA
            | SHT_NULL | SHT_SYMTAB | SHT_STRTAB | SHT_NOTE | SHT_SYMTAB_SHNDX
            | SHT_CUDA_COMPAT => Ok(()),
            _ => self.take_unnamed_data(idx, h, name),
        }
    }

    /// [`take_unnamed_section`](Self::take_unnamed_section) for a data section whose header
    /// the caller has read already.
    fn take_unnamed_data(
        &mut self,
        idx: u32,
        h: &SectionHeader,
        name: &str,
    ) -> Result<(), LinkError> {
        let mapped = self.maps.sec.get(idx as usize).copied().flatten().is_some()
            || self.lost_nobits.contains(&idx);
        // (An empty reserved shared window only an `-ewp` alias named is not made.)
        let empty_window = h.sh_type == SHT_CUDA_SHARED_RESERVED && h.size == 0;
        if !mapped && !empty_window && !name.starts_with(".text.") && h.flags & SHF_EXECINSTR == 0 {
            let created = self.st.sections.len();
            if let Some(id) = self.map_section(idx)? {
                // Without bytes, and named by no symbol so far, it gets no section symbol
                // (observed: the empty `.debug_frame` of a translation unit with no device
                // code); bytes or a symbol naming it later bring it back.
                if h.size > 0 {
                    self.name_section(id, true);
                } else if id.index() >= created {
                    self.name_section(id, false);
                }
            }
        }
        Ok(())
    }

    fn merge_info(
        &mut self,
        idx: u32,
        h: &SectionHeader,
        name: &'d str,
        hash: NameHash,
    ) -> Result<(), LinkError> {
        let records = match self.take_content(idx) {
            InContent::Info(records) => records.map_err(|e| *e)?,
            _ => {
                let data = self.elf().section_data(idx).map_err(|e| bad(self.obj, e))?;
                parse_info(data).map_err(|e| bad(self.obj, format!("{name}: {e}")))?
            }
        };
        let target = if h.flags & SHF_INFO_LINK != 0 {
            // Per-function info: the section it describes is in sh_info.
            let Some(text) = self.maps.sec.get(h.info as usize).copied().flatten() else {
                return Ok(());
            };
            if self.text_owner_lost(h.info) {
                return Ok(());
            }
            let id = match self.companion_of(hash, name, text) {
                Some(id) => id,
                None => {
                    let mut sec = new_section(name, SHT_CUDA_INFO, SHF_INFO_LINK, 4, 0);
                    sec.link = Link::Symtab;
                    sec.info = Link::Section(text);
                    sec.role = SecRole::Synthetic;
                    self.st.create_section_hashed(hash, sec, false)
                }
            };
            Some(id)
        } else {
            None
        };
        if let Some(t) = target {
            self.st.info_places.entry(t).or_insert((self.input, idx));
        }
        let records = match target {
            None if self.opts.target.is_mercury() => self.merc_frame_sizes(records)?,
            _ => records,
        };
        let records = self.map_info_records(records);
        let Some(t) = target else {
            for r in &records {
                if let (EIATTR_REGCOUNT, Some(sym), true) = (r.attr, r.sym, r.payload.len() >= 8) {
                    let v = u32::from_le_bytes(r.payload[4..8].try_into().unwrap_or([0; 4]));
                    self.st.regcounts.insert(sym, v);
                }
            }
            self.st.info.extend(records);
            return Ok(());
        };
        if !self.opts.target.is_mercury() {
            match self.st.section_info.get_mut(&t) {
                Some(list) => list.extend(records),
                None => {
                    self.st.section_info.insert(t, records);
                }
            }
            return Ok(());
        }
        // Mercury: the records mirrored from `.nv.merc.nv.info.<f>` (the head) get the usual
        // treatment; the finalizer's own records after them (the tail) keep their order.
        let merc_name =
            String::from_utf8_lossy(&crate::mercury::merc_twin(name.as_bytes())).into_owned();
        // (A `-r` image holds one `.nv.info.<f>`, and one Mercury twin, per local function of
        // one name: the twin of the same rank.)
        let merc = match super::merc::same_rank_by_name(
            self.obj,
            idx,
            name.as_bytes(),
            merc_name.as_bytes(),
        ) {
            Some(m) => {
                let d = self.elf().section_data(m).map_err(|e| bad(self.obj, e))?;
                parse_info(d).map_err(|e| bad(self.obj, format!("{merc_name}: {e}")))?
            }
            None => Vec::new(),
        };
        let head = merc
            .iter()
            .filter(|r| r.attr != crate::mercury::MERCURY_ONLY_INFO_ATTRIBUTE)
            .count()
            .min(records.len());
        let mut records = records;
        let tail = records.split_off(head);
        self.st.section_info.entry(t).or_default().extend(records);
        self.st.sass_info_tail.entry(t).or_default().extend(tail);
        let merc = self.map_info_records(merc);
        self.st.merc_section_info.entry(t).or_default().extend(merc);
        Ok(())
    }

    /// Mercury targets, an input's global `.nv.info`: the `EIATTR_FRAME_SIZE` values from its
    /// `.nv.merc.nv.info` (whose symbols are `.symtab`'s, index for index). Observed with
    /// nvlink, `-r` and final links alike: each function's SASS record takes the value of the
    /// first Mercury record naming a function of the same code section (an `nvcc -ewp`
    /// kernel's section holds the kernel and its internal functions `$k$f`; ptxas writes the
    /// kernel's frame size for all of them in SASS, each one's own in Mercury), and the
    /// output's `.nv.merc.nv.info` keeps each function's own Mercury value
    /// (`State::merc_frame_sizes`).
    fn merc_frame_sizes(
        &mut self,
        mut records: Vec<InfoRecord<'d>>,
    ) -> Result<Vec<InfoRecord<'d>>, LinkError> {
        let Some(m) = self.elf().section_by_name(b".nv.merc.nv.info") else {
            return Ok(records);
        };
        let data = self.elf().section_data(m).map_err(|e| bad(self.obj, e))?;
        let merc = parse_info(data).map_err(|e| bad(self.obj, format!(".nv.merc.nv.info: {e}")))?;
        let frame = |r: &InfoRecord<'_>| -> Option<(u32, u32)> {
            (r.attr == EIATTR_FRAME_SIZE && r.payload.len() >= 8).then(|| {
                let w =
                    |i: usize| u32::from_le_bytes(r.payload[i..i + 4].try_into().unwrap_or([0; 4]));
                (w(0), w(4))
            })
        };
        // The first Mercury value by code section, and each function's own.
        let mut first: rustc_hash::FxHashMap<u32, u32> = Default::default();
        for (in_sym, v) in merc.iter().filter_map(frame) {
            let Some(s) = self.syms.get(in_sym as usize) else {
                continue;
            };
            first.entry(s.shndx).or_insert(v);
            let lost = self
                .maps
                .lost
                .get(in_sym as usize)
                .copied()
                .unwrap_or(false);
            if let (Some(Some(sym)), false) = (self.maps.sym.get(in_sym as usize), lost) {
                self.st.merc_frame_sizes.insert(*sym, v);
            }
        }
        for r in &mut records {
            let Some((in_sym, v)) = frame(r) else {
                continue;
            };
            let Some(&w) = self
                .syms
                .get(in_sym as usize)
                .and_then(|s| first.get(&s.shndx))
            else {
                continue;
            };
            if w != v {
                let mut p = r.payload.to_vec();
                p[4..8].copy_from_slice(&w.to_le_bytes());
                r.payload = self.st.bump.alloc_slice_copy(&p);
            }
        }
        Ok(records)
    }

    /// Input `.nv.info` records in output terms: symbol operands mapped, EXTERNS lists
    /// resolved, records of a lost weak definition skipped.
    fn map_info_records(&mut self, mut records: Vec<InfoRecord<'d>>) -> Vec<InfoRecord<'d>> {
        let mut listed = std::mem::take(&mut self.externs_scratch);
        records.retain_mut(|r| self.map_info_record(r, &mut listed));
        self.externs_scratch = listed;
        records
    }

    /// One record in output terms; false when it goes.
    /// (`listed`: room for an EXTERNS list, reused from record to record.)
    fn map_info_record(&self, r: &mut InfoRecord<'d>, listed: &mut Vec<SymIdx>) -> bool {
        {
            if r.attr == EIATTR_EXTERNS {
                // The symbols a function references from elsewhere; only those still
                // undefined after the link stay listed (decided at finalize).
                listed.clear();
                listed.extend(r.payload.chunks_exact(4).filter_map(|w| {
                    self.maps
                        .sym
                        .get(u32::from_le_bytes(w.try_into().unwrap()) as usize)
                        .copied()
                        .flatten()
                }));
                r.externs = self.st.bump.alloc_slice_copy(listed);
            } else if let Some(in_sym) = info_symbol_operand(r) {
                if self
                    .maps
                    .lost
                    .get(in_sym as usize)
                    .copied()
                    .unwrap_or(false)
                    && WEAK_SKIPPED.contains(&r.attr)
                {
                    return false;
                }
                r.sym = self.maps.sym.get(in_sym as usize).copied().flatten();
                if r.sym.is_none() && in_sym != 0 {
                    return false;
                }
            }
            true
        }
    }

    /// Whether code section `h` holds a local function (its `sh_info` names the function).
    fn local_function_code(&self, h: &SectionHeader) -> bool {
        self.syms
            .get((h.info & 0xff_ffff) as usize)
            .is_some_and(|s| s.binding() == STB_LOCAL && s.sym_type() == STT_FUNC)
    }

    /// The function symbol (input index) that code section `shndx` belongs to by its
    /// `sh_info`, when that is not symbol `i`.
    fn other_code_owner(&self, shndx: u32, i: usize) -> Option<usize> {
        let h = self.obj.elf.sections().get(shndx as usize)?;
        let owner = (h.info & 0xff_ffff) as usize;
        (h.flags & SHF_EXECINSTR != 0
            && owner != i
            && self
                .syms
                .get(owner)
                .is_some_and(|o| o.sym_type() == STT_FUNC))
        .then_some(owner)
    }

    /// Whether output section `id` is the code of a local function (its `sh_info` names a
    /// local `STT_FUNC`).
    fn is_local_function_code(&self, id: SecId) -> bool {
        match self.st.sec(id).info() {
            Link::Symbol { sym, .. } => {
                let s = self.st.sym(sym);
                s.binding() == STB_LOCAL && s.sym_type() == STT_FUNC
            }
            _ => false,
        }
    }

    /// The section named `name` that serves `target` (its `sh_info`): a local function's
    /// `.nv.info.<f>` or `.rel.text.<f>` is its own even when another input's local function
    /// has the same name.
    fn companion_of(&self, hash: NameHash, name: &str, target: SecId) -> Option<SecId> {
        self.st
            .section_by_name_hashed(hash, name)
            .filter(|&id| self.st.sec(id).info() == Link::Section(target))
    }

    fn text_owner_lost(&self, text_idx: u32) -> bool {
        self.lost_texts.contains(&text_idx) || self.lost_banks.contains(&text_idx)
    }

    /// Whether section `name` is a function's own constant bank (`.nv.constant<N>.<f>`) and
    /// `<f>`'s code lost a weak contest in this input.
    fn bank_of_lost_function(&self, name: &str) -> bool {
        self.lost_function_bank(name) == Some(0)
    }

    /// The bank number of `name` when it is a constant bank of a function that lost a weak
    /// contest (`.nv.constant<n>.<f>`).
    fn lost_function_bank(&self, name: &str) -> Option<u32> {
        let rest = name.strip_prefix(".nv.constant")?;
        let (bank, function) = rest.split_once('.')?;
        if bank.is_empty() || !bank.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let lost = self.lost_texts.iter().any(|&t| {
            self.elf()
                .section_name(t)
                .ok()
                .and_then(|n| n.strip_prefix(b".text."))
                .is_some_and(|f| f == function.as_bytes())
        });
        lost.then(|| bank.parse().ok()).flatten()
    }

    /// `.nv.callgraph`: records grouped by markers `<0,-1>` (call edges), `<0,-2>`
    /// (address-taken functions with a prototype string), `<0,-3>` (indirect callers with the
    /// callee prototype) and `<0,-4>` (function-address edges).
    fn merge_callgraph(&mut self, idx: u32) -> Result<(), LinkError> {
        let data = self.elf().section_data(idx).map_err(|e| bad(self.obj, e))?;
        let symtab = self.elf().symtab_index().unwrap_or(0);
        let strtab = self.elf().section(symtab).map(|s| s.link).unwrap_or(0);
        let mut kind = 0i32;
        for pair in data.chunks_exact(8) {
            let a = u32::from_le_bytes(pair[..4].try_into().unwrap());
            let b = u32::from_le_bytes(pair[4..].try_into().unwrap());
            if a == 0 && (b as i32) < 0 {
                kind = b as i32;
                continue;
            }
            if self.maps.lost.get(a as usize).copied().unwrap_or(false) {
                // Records of a weak definition that lost belong to the winner's input.
                continue;
            }
            let first = self.func_of(a);
            match kind {
                -1 => {
                    if let (Some(c), Some(e)) = (first, self.func_of(b)) {
                        self.st.func_mut(c).callees.push(e);
                    }
                }
                -2 | -3 => {
                    let text = self.elf().string(strtab, b).map_err(|e| bad(self.obj, e))?;
                    let token = self.st.intern(&String::from_utf8_lossy(text));
                    let Some(f) = first else { continue };
                    if kind == -2 {
                        self.st.func_mut(f).address_taken = true;
                        self.st.address_taken.push((f, token));
                    } else {
                        self.st.indirect_calls.push((f, token));
                    }
                }
                -4 => {
                    if let (Some(c), Some(e)) = (first, self.func_of(b)) {
                        self.st.func_mut(e).address_taken = true;
                        self.st.func_mut(c).address_edges.push(e);
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn func_of(&self, in_sym: u32) -> Option<FuncId> {
        let s = self.maps.sym.get(in_sym as usize).copied().flatten()?;
        self.st.sym(s).func()
    }

    fn merge_prototypes(&mut self, idx: u32) -> Result<(), LinkError> {
        let data = self.elf().section_data(idx).map_err(|e| bad(self.obj, e))?;
        let symtab = self.elf().symtab_index().unwrap_or(0);
        let strtab = self.elf().section(symtab).map(|s| s.link).unwrap_or(0);
        // ptxas writes one string per prototype: records sharing it are interned once.
        let mut last: Option<(u32, u32)> = None;
        for pair in data.chunks_exact(8) {
            let a = u32::from_le_bytes(pair[..4].try_into().unwrap());
            let b = u32::from_le_bytes(pair[4..].try_into().unwrap());
            let off = match last {
                Some((string, off)) if string == b => off,
                _ => {
                    let text = self.elf().string(strtab, b).map_err(|e| bad(self.obj, e))?;
                    let off = self.st.intern(&String::from_utf8_lossy(text));
                    last = Some((b, off));
                    off
                }
            };
            if self.maps.lost.get(a as usize).copied().unwrap_or(false) {
                continue;
            }
            if let Some(f) = self.func_of(a) {
                self.st.func_mut(f).prototype = Some(off);
            }
        }
        Ok(())
    }

    fn merge_relocations(
        &mut self,
        idx: u32,
        h: &SectionHeader,
        name: &'d str,
        hash: NameHash,
    ) -> Result<(), LinkError> {
        let Some(target) = self.maps.sec.get(h.info as usize).copied().flatten() else {
            return Ok(());
        };
        if self.text_owner_lost(h.info) {
            return Ok(());
        }
        // sm_100+: an empty SASS relocation section is kept for its Mercury twin (the
        // compiler constants' SASS relocations are always empty, their Mercury twin's are
        // not; an `-ewp` kernel's `.rela.text.<k>` is empty once ptxas resolved the calls of
        // its internal functions): nvlink writes the pair, and the section is dropped again
        // if its twin ends up with nothing.
        if h.size == 0 && !self.opts.target.is_mercury() {
            // An input relocation section without entries makes no section, nor a name
            // (observed: ptxas's empty `.rela.nv.constant2.<f>` on sm_90, `-r`).
            return Ok(());
        }
        let rel_sec = match self.companion_of(hash, name, target) {
            Some(id) => id,
            None => {
                let mut sec = new_section(name, h.sh_type, h.flags, h.addralign, h.entsize);
                sec.link = Link::Symtab;
                sec.info = Link::Section(target);
                sec.role = SecRole::Synthetic;
                sec.reloc_target = Some(target);
                self.st.create_section_hashed(hash, sec, false)
            }
        };
        if self.opts.preserve_relocs {
            // Where the relocations resolved now are written down, made with their section.
            let suffix = name
                .strip_prefix(".rela")
                .or_else(|| name.strip_prefix(".rel"))
                .unwrap_or(name);
            let resolved = self.st.make_name(&[".nv.resolvedrela", suffix]);
            if self.st.section_by_name(resolved).is_none() {
                let mut sec = new_section(resolved, SHT_CUDA_RESOLVED_RELA, SHF_INFO_LINK, 8, 24);
                sec.link = Link::Symtab;
                sec.info = Link::Section(target);
                sec.role = SecRole::Synthetic;
                sec.reloc_target = Some(target);
                self.st.create_section(sec, false);
            }
        }
        let base = self.maps.offset[h.info as usize];
        match self.take_content(idx) {
            InContent::Relocations(checked) => checked.map_err(|e| *e)?,
            _ => check_relocations(self.obj, idx, h, name, self.syms.len())?,
        }
        let relocs = self.elf().relocations(idx).map_err(|e| bad(self.obj, e))?;
        for r in relocs {
            let in_sym = r.sym as usize;
            let mut addend = r.addend;
            let sym = self.maps.sym[in_sym];
            let s = &self.syms[in_sym];
            if s.sym_type() == STT_SECTION {
                let base = self.maps.offset.get(s.shndx as usize).copied().unwrap_or(0);
                addend = addend.wrapping_add(base as i64);
            }
            if is_unresolved_label(s) {
                continue;
            }
            let lost = self.maps.lost[in_sym];
            let in_lost_copy = self
                .maps
                .lost_data
                .iter()
                .any(|&(sec, start, end)| sec == h.info && (start..end).contains(&r.offset));
            if in_lost_copy {
                continue;
            }
            self.st.relocs.push(Reloc {
                rel_section: rel_sec,
                target,
                offset: r.offset + base,
                r_type: r.r_type,
                sym,
                addend,
                dropped: lost && describes_code_ranges(self.st.sec(target).name()),
                input: self.input,
            });
        }
        Ok(())
    }
}

/// Debug sections whose relocations against a function that lost a weak contest go with it:
/// the frame and line tables describe the losing copy's own code (observed: a thrust `-G`
/// link in two TUs keeps the `.debug_info` and `.debug_loc` relocations against the losing
/// kernels, now meaning the winners, and drops the `.debug_line` and `.debug_frame` ones).
/// Whether relocation type `r_type` only clears its field when its symbol was removed (the
/// `UNUSED_CLEAR` kinds).
fn clears_for_removed(r_type: u32) -> bool {
    elfw_reloc::table::lookup(r_type)
        .is_some_and(|t| t.value == elfw_reloc::table::ValueKind::Clear)
}

fn describes_code_ranges(name: &str) -> bool {
    matches!(name, ".debug_frame" | ".debug_line" | ".nv_debug_line_sass")
}

/// Register count an input's `.nv.info` reports for input symbol `sym`.
fn input_regcount(elf: &ElfFile<'_>, sym: u32) -> Option<u32> {
    for (i, s) in elf.sections().iter().enumerate() {
        if s.sh_type != SHT_CUDA_INFO || s.flags & SHF_INFO_LINK != 0 {
            continue;
        }
        let data = elf.section_data(i as u32).ok()?;
        for r in parse_info(data).ok()? {
            if r.attr == EIATTR_REGCOUNT && r.payload.len() >= 8 {
                let s = u32::from_le_bytes(r.payload[..4].try_into().unwrap_or([0; 4]));
                if s == sym {
                    return Some(u32::from_le_bytes(
                        r.payload[4..8].try_into().unwrap_or([0; 4]),
                    ));
                }
            }
        }
    }
    None
}

/// The virtual SM an input was compiled for (`.note.nv.cuinfo`: u16 version, u16 SM).
fn virtual_sm(elf: &ElfFile<'_>) -> Option<u16> {
    let i = elf.section_by_name(b".note.nv.cuinfo")?;
    let d = elf.section_data(i).ok()?;
    d.get(26..28).map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// `EIFMT_SVAL`: a record with a size and a payload.
pub const EIFMT_SVAL: u8 = 4;
/// `EIATTR_EXTERNS`.
pub const EIATTR_EXTERNS: u8 = 0x0f;
/// `EIATTR_FRAME_SIZE`.
pub const EIATTR_FRAME_SIZE: u8 = 0x11;
/// `EIATTR_MIN_STACK_SIZE`.
pub const EIATTR_MIN_STACK_SIZE: u8 = 0x12;
/// `EIATTR_MAX_STACK_SIZE`.
pub const EIATTR_MAX_STACK_SIZE: u8 = 0x23;
/// `EIATTR_REGCOUNT`.
pub const EIATTR_REGCOUNT: u8 = 0x2f;

/// The undefined local libcudadevrt's launch helpers take the PTX parameter bank size from.
pub(super) const PTX_CONST0_SIZE: &str = ".nv.ptx.const0.size";
/// `EIATTR_PARAM_CBANK`.
pub const EIATTR_PARAM_CBANK: u8 = 0x0a;
/// `EIATTR_CRS_STACK_SIZE`.
pub const EIATTR_CRS_STACK_SIZE: u8 = 0x1e;

/// Attributes dropped for a weak definition that lost (wiki: codes 17, 35, 47, 59).
const WEAK_SKIPPED: [u8; 4] = [0x11, 0x23, 0x2f, 0x3b];

/// Attributes whose first payload word is a symbol index (SAMPLER_INIT and
/// SAMPLER_FORCE_UNNORMALIZED name a `.samplerref`, TEXTURE_NORMALIZED a `.texref`).
const SYMBOL_OPERAND: [u8; 10] = [0x08, 0x09, 0x0a, 0x11, 0x12, 0x13, 0x1e, 0x23, 0x2f, 0x3b];

fn info_symbol_operand(r: &InfoRecord<'_>) -> Option<u32> {
    if r.format == EIFMT_SVAL && SYMBOL_OPERAND.contains(&r.attr) && r.payload.len() >= 4 {
        Some(u32::from_le_bytes(
            r.payload[..4].try_into().unwrap_or([0; 4]),
        ))
    } else {
        None
    }
}

/// Splits an `.nv.info` section into records.
pub fn parse_info(data: &[u8]) -> Result<Vec<InfoRecord<'_>>, String> {
    // Counted first: the records are kept for the whole link (a quarter of a million in a
    // 500-input one), so their lists are allocated at their size.
    let mut count = 0usize;
    let mut o = 0usize;
    while o + 4 <= data.len() {
        o += 4;
        if data[o - 4] == EIFMT_SVAL {
            o += u16::from_le_bytes([data[o - 2], data[o - 1]]) as usize;
        }
        count += 1;
    }
    let mut out = Vec::with_capacity(count);
    let mut o = 0usize;
    while o + 4 <= data.len() {
        let format = data[o];
        let attr = data[o + 1];
        let v = u16::from_le_bytes([data[o + 2], data[o + 3]]);
        if format == EIFMT_SVAL {
            let end = o + 4 + v as usize;
            if end > data.len() {
                return Err(format!("record at {o:#x} runs past the end"));
            }
            out.push(InfoRecord {
                format,
                attr,
                payload: &data[o + 4..end],
                sym: None,
                externs: &[],
                dropped: false,
            });
            o = end;
        } else {
            out.push(InfoRecord {
                format,
                attr,
                payload: &data[o + 2..o + 4],
                sym: None,
                externs: &[],
                dropped: false,
            });
            o += 4;
        }
    }
    Ok(out)
}

/// The CUDA type nvlink gives an input section (seed 04, "Section Classification").
pub fn classify(sh_type: u32, name: &str) -> u32 {
    match sh_type {
        SHT_NOBITS if name.starts_with(".nv.global") => SHT_CUDA_GLOBAL,
        SHT_NOBITS if name.starts_with(".nv.shared.") => SHT_CUDA_SHARED,
        SHT_NOBITS if name.starts_with(".nv.local.") => SHT_CUDA_LOCAL,
        SHT_PROGBITS | SHT_CUDA_CONSTANT if name.starts_with(".nv.constant") => {
            SHT_CUDA_CONSTANT0 + bank_number(name)
        }
        SHT_PROGBITS if name.starts_with(".nv.global.init") => SHT_CUDA_GLOBAL_INIT,
        t => t,
    }
}

fn bank_number(name: &str) -> u32 {
    let digits: String = name[".nv.constant".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

/// The name of section `name`'s own symbol: the section's, except for the compiler's constants
/// on sm_100+, whose symbol ptxas and nvlink name `.nv.constant.optimizer.<f>` (observed in
/// inputs and in final and relocatable images).
pub fn section_symbol_name<'d>(st: &State<'d>, name: &'d str, opts: &LinkOptions) -> &'d str {
    let (sass, merc) = crate::mercury::OPTIMIZER_CONSTANT;
    match name.strip_prefix(sass) {
        Some(f) if opts.target.is_mercury() => st.make_name(&[merc, f]),
        _ => name,
    }
}

/// Whether `t` is a constant-bank type.
pub fn is_constant_bank(t: u32) -> bool {
    (SHT_CUDA_CONSTANT0..=SHT_CUDA_CONSTANT0 + 0x1a).contains(&t)
}
