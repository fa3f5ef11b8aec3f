//! Relocation: which relocations nvlink resolves at link time (their fields written, the entry
//! dropped) and which it leaves in the image for the driver. The policy and the bit-field
//! engine live in `elfw-reloc`; this phase decides what each relocation's target is and
//! computes its value.
//!
//! Link-time targets (values known now): offsets into shared memory, constant banks and
//! non-allocated (debug) sections, and `__UFT_OFFSET`. Load-time targets: functions and
//! global memory. Relocations against removed functions are dropped (the `UNUSED_CLEAR` kinds
//! zero their field first).

use super::bindless::Slots;
use super::merge::is_constant_bank;
use super::state::*;
use super::LinkOptions;
use crate::elf::consts::*;
use elfw_reloc::{Disposition, Target};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// The section bytes the relocation phase rewrote, by section.
///
/// The link does not copy sections to patch them: the relocation phase records what to write,
/// the emitter copies each section's contributions into the image once and applies the
/// patches there.
#[derive(Clone, Debug, Default)]
pub struct Patched {
    /// The fields, grouped by section (ascending), each section's in relocation order.
    patches: Vec<Patch>,
    /// By section index: where its fields are in `patches` (start, end); sections past the
    /// end have none.
    by_section: Vec<(usize, usize)>,
}

/// One field to write.
#[derive(Clone, Copy, Debug)]
struct Patch {
    section: SecId,
    offset: u64,
    r_type: u32,
    value: u64,
    bank: Option<u32>,
}

impl Patched {
    /// Whether `section` has fields to write.
    pub fn touches(&self, section: SecId) -> bool {
        self.range(section).is_some()
    }

    /// Whether `section` has a field to write that starts before byte `end`.
    pub fn touches_before(&self, section: SecId, end: u64) -> bool {
        self.range(section)
            .is_some_and(|r| self.patches[r].iter().any(|p| p.offset < end))
    }

    /// Where `section`'s fields are in `patches`, when it has any.
    fn range(&self, section: SecId) -> Option<std::ops::Range<usize>> {
        let &(start, end) = self.by_section.get(section.0 as usize)?;
        (start < end).then_some(start..end)
    }

    /// Writes `section`'s fields into its bytes (`bytes` starts at the section's start).
    pub fn apply_to(&self, section: SecId, bytes: &mut [u8]) {
        let Some(range) = self.range(section) else {
            return;
        };
        for p in &self.patches[range] {
            let _ = match p.bank {
                Some(b) => elfw_reloc::apply_with_bank(p.r_type, bytes, p.offset, p.value, b),
                None => elfw_reloc::apply(p.r_type, bytes, p.offset, p.value),
            };
        }
    }

    /// A section's bytes with its fields written.
    pub fn section(&self, st: &State<'_>, section: SecId) -> Vec<u8> {
        let mut bytes = section_bytes(&View::of(st), section);
        self.apply_to(section, &mut bytes);
        bytes
    }

    /// Adds fields found after the SASS relocation, as (section, offset, relocation type,
    /// value); each section's new fields are written after its earlier ones.
    pub fn add(&mut self, fields: Vec<(SecId, u64, u32, u64)>) {
        if fields.is_empty() {
            return;
        }
        self.patches.extend(
            fields
                .into_iter()
                .map(|(section, offset, r_type, value)| Patch {
                    section,
                    offset,
                    r_type,
                    value,
                    bank: None,
                }),
        );
        self.by_section.clear();
        *self = std::mem::take(self).finish();
    }

    /// Groups the fields by section with a counting sort: linear, and stable, so the fields
    /// of one section keep their relocation order.
    fn finish(mut self) -> Patched {
        let sections = self
            .patches
            .iter()
            .map(|p| p.section.0 as usize + 1)
            .max()
            .unwrap_or(0);
        let mut by_section = vec![(0usize, 0usize); sections];
        for p in &self.patches {
            by_section[p.section.0 as usize].1 += 1;
        }
        let mut start = 0;
        for r in &mut by_section {
            let count = r.1;
            *r = (start, start);
            start += count;
        }
        // Where each field goes, then which field each place takes.
        let mut source = vec![0usize; self.patches.len()];
        for (i, p) in self.patches.iter().enumerate() {
            let r = &mut by_section[p.section.0 as usize];
            source[r.1] = i;
            r.1 += 1;
        }
        self.patches = source.into_iter().map(|i| self.patches[i]).collect();
        self.by_section = by_section;
        self
    }
}

/// Each section's contributions with bytes, as (offset, bytes) in offset order, gathered
/// the first time a relocation needs them.
type NodeIndex<'d> = FxHashMap<SecId, Vec<(u64, &'d [u8])>>;

/// The input bytes holding offset `offset` of a section, and the offset within them.
fn field_bytes<'d>(
    st: &View<'_, 'd>,
    index: &mut NodeIndex<'d>,
    section: SecId,
    offset: u64,
) -> Option<(&'d [u8], u64)> {
    let nodes = index.entry(section).or_insert_with(|| {
        st.nodes_of(section)
            .filter_map(|n| Some((n.offset(), n.data()?)))
            .collect()
    });
    let i = nodes
        .partition_point(|&(o, _)| o <= offset)
        .checked_sub(1)?;
    let (o, d) = nodes[i];
    (offset < o + d.len() as u64).then(|| (d, offset - o))
}

/// `--preserve-relocs` without `-g`: nvlink records what code no laid-out kernel reaches
/// resolved to -1 against an `extern __shared__` name when the layout has a common area, but
/// only sm_90 keeps those names in the symbol table; elsewhere it stops (observed on sm_75,
/// sm_80, sm_100 and sm_120: `--kernels-used` of kernels reaching no dynamic memory while
/// functions only left-out kernels call name it).
pub fn check_deleted_references(
    st: &State<'_>,
    opts: &LinkOptions,
) -> Result<(), super::LinkError> {
    if !opts.preserve_relocs || opts.debug || opts.relocatable {
        return Ok(());
    }
    let fatal = || {
        Err(super::LinkError::Fatal(crate::diag::Diagnostic::new(
            crate::diag::Severity::Fatal,
            "Internal error: reference to deleted symbol",
        )))
    };
    // So it stops at debug info naming an `extern __shared__` name (a `-G` object's
    // `.debug_info` locations, or those of a `-r -g` image of such objects, whose names that
    // link defined at 0 in `.nv_debug.shared`) where it does not list those names (observed on
    // sm_75, sm_80, sm_100 and sm_120; sm_90 links). Names a `-r -g` defined past 0 do not
    // stop it (observed, sm_80 and sm_100).
    let view = View::of(st);
    if !opts.lists_dynamic_shared()
        && st.relocs.iter().any(|r| {
            !r.dropped
                && is_debug_target(st.sec(r.target).name())
                && r.sym.is_some_and(|s| {
                    view.sym(s).shared().is_some_and(|v| {
                        let var = &st.shared_vars[v];
                        var.kind == SharedKind::Dynamic && !var.past_zero
                    })
                })
        })
    {
        return fatal();
    }
    if !st.shared_common_area || opts.lists_dynamic_shared() || st.unplaced_dynamic_code.is_empty()
    {
        return Ok(());
    }
    let deleted = st.relocs.iter().any(|r| {
        !r.dropped
            && r.sym.is_some_and(|s| is_dynamic_shared(&View::of(st), s))
            && st.unplaced_dynamic_code.contains(&r.target)
    });
    if deleted {
        return fatal();
    }
    Ok(())
}

/// Applies what is resolved at link time, marks it dropped, and renames what is kept.
pub fn relocate(st: &mut State<'_>, slots: &Slots, opts: &LinkOptions) -> Patched {
    if opts.relocatable || opts.preserve_relocs || opts.debug || opts.suppress_debug_info {
        ptx_const0_size_from_user_constants(st);
    }
    if opts.relocatable {
        undefined_variables_at_minus_one(st);
    }
    // Each relocation is decided alone, from what the state holds and its own entry: the
    // entries are decided in runs on all cores, and the fields to write and the relocations
    // recorded as resolved are gathered run after run, in relocation order, whatever the
    // number of threads.
    let mut relocs = std::mem::take(&mut st.relocs);
    let view = View::of(st);
    // `.debug_frame` as merged, for the CIE lookups of sm_100+ (read-only).
    let frame = std::sync::OnceLock::new();
    let runs: Vec<(Vec<Patch>, Vec<Reloc>)> = relocs
        .par_chunks_mut(RELOCS_PER_TASK)
        .map(|run| {
            let mut patches = Vec::new();
            // `--preserve-relocs`: what was resolved, as it was, for `.nv.resolvedrela*`.
            let mut resolved = Vec::new();
            let mut node_index = NodeIndex::default();
            for rel in run {
                decide(
                    &view,
                    rel,
                    (slots, opts),
                    (&mut node_index, &frame),
                    (&mut patches, &mut resolved),
                );
            }
            (patches, resolved)
        })
        .collect();
    let mut patched = Patched {
        patches: Vec::with_capacity(runs.iter().map(|r| r.0.len()).sum()),
        by_section: Vec::new(),
    };
    for (patches, resolved) in runs {
        patched.patches.extend(patches);
        relocs.extend(resolved);
    }
    st.relocs = relocs;
    patched.finish()
}

/// What deciding relocations reads of the state: all of it but the name arena (which is not
/// shareable between threads) and the relocation list.
#[derive(Clone, Copy)]
pub(super) struct View<'a, 'd> {
    sections: &'a SectionColumns<'d>,
    nodes: &'a DataNodeColumns<'d>,
    syms: SymbolView<'a, 'd>,
    section_names: &'a elfw_hash::NameMap<&'d str, SecId>,
    shared_vars: &'a [SharedVar],
    unplaced_dynamic_code: &'a rustc_hash::FxHashSet<SecId>,
    dynamic_shared_at: &'a rustc_hash::FxHashMap<(SecId, usize), u64>,
    shared_common_area: bool,
}

impl<'a, 'd> View<'a, 'd> {
    /// The view of `st`.
    pub(super) fn of(st: &'a State<'d>) -> View<'a, 'd> {
        View {
            sections: &st.sections,
            nodes: &st.nodes,
            syms: st.symbol_view(),
            section_names: &st.section_names,
            shared_vars: &st.shared_vars,
            unplaced_dynamic_code: &st.unplaced_dynamic_code,
            dynamic_shared_at: &st.dynamic_shared_at,
            shared_common_area: st.shared_common_area,
        }
    }
    pub(super) fn sec(&self, id: SecId) -> SectionRef<'a, 'd> {
        self.sections.at(id.index())
    }
    pub(super) fn sym(&self, idx: crate::arena::SymIdx) -> SymbolRef<'a, 'd> {
        self.syms.sym(idx)
    }
    fn nodes_of(&self, id: SecId) -> impl Iterator<Item = DataNodeRef<'a, 'd>> + 'a {
        self.nodes.list(self.sec(id).nodes())
    }
    fn section_by_name(&self, name: &str) -> Option<SecId> {
        self.section_names.get(name).copied()
    }
}

/// Relocations decided per task.
const RELOCS_PER_TASK: usize = 4096;

/// Decides relocation `rel`: drops it or renames its type, and adds the field it writes to
/// `patches` and, under `--preserve-relocs`, what it resolved to `resolved`.
fn decide<'d>(
    st: &View<'_, 'd>,
    rel: &mut Reloc,
    (slots, opts): (&Slots, &LinkOptions),
    (node_index, frame): (&mut NodeIndex<'d>, &std::sync::OnceLock<Vec<u8>>),
    (patches, resolved): (&mut Vec<Patch>, &mut Vec<Reloc>),
) {
    let r = *rel;
    if r.dropped {
        return;
    }
    let Some(sym) = r.sym else {
        // Symbol-less relocations (the YIELD rewrites): only dropping is decided here.
        if elfw_reloc::disposition(r.r_type, Target::LinkTime) == Ok(Disposition::Drop) {
            rel.dropped = true;
        }
        return;
    };
    let s = st.sym(sym);
    // A texture/sampler/surface reference in code reads the kernel's constant-bank slot.
    let slot = slots.get(&(r.target, sym)).copied();
    let class = match slot {
        Some(_) => Target::LinkTime,
        None => target_class(st, s, opts),
    };
    let removed_shared_in_debug = removed_shared_in_debug(st, s, r.target, opts);
    let class = if removed_shared_in_debug {
        Target::LinkTime
    } else {
        class
    };
    let Ok(mut disposition) = elfw_reloc::disposition(r.r_type, class) else {
        return;
    };
    // sm_100+ `-r`: references from `.debug_info` into `.debug_line` stay relocations,
    // unapplied (observed: `DW_AT_stmt_list` left 0 with `.debug_line + 0x85`); the final
    // link's finalizer rebuilds the line tables first.
    if opts.relocatable
        && opts.target.is_mercury()
        && s.sym_type() == STT_SECTION
        && matches!(s.section(), SymSection::Section(l) if st.sec(l).name() == ".debug_line")
        && st.sec(r.target).name() == ".debug_info"
    {
        disposition = Disposition::Keep;
    }
    let apply = matches!(disposition, Disposition::Apply | Disposition::ApplyAndKeep);
    let mut full_addend = None;
    let keep = matches!(disposition, Disposition::Keep | Disposition::ApplyAndKeep);
    if apply {
        let rel_is_rela = st.sec(r.rel_section).sh_type() == SHT_RELA;
        // For REL entries the addend is what the fields hold; `r.addend` then carries only
        // the merge's adjustment for section symbols (the contribution's offset).
        let addend = if rel_is_rela {
            r.addend
        } else {
            let implicit = field_bytes(st, node_index, r.target, r.offset)
                .and_then(|(d, o)| elfw_reloc::implicit_addend(r.r_type, d, o).ok())
                .unwrap_or(0);
            (implicit as i64).wrapping_add(r.addend)
        };
        full_addend = Some(addend);
        // Debug info naming dynamic shared memory (`extern __shared__`, whose place
        // differs per kernel) resolves it to -1 (observed, `-G`: all ones on sm_80, 0x3ff
        // on sm_90, whose addend holds the 0x400 reserved bytes).
        let dynamic = is_dynamic_shared(st, sym);
        let dynamic_in_debug = dynamic && is_debug_target(st.sec(r.target).name()) && !opts.debug;
        // So does code no laid-out kernel reaches (see `shared`).
        let unplaced = dynamic && st.unplaced_dynamic_code.contains(&r.target);
        let base = if dynamic_in_debug || unplaced || removed_shared_in_debug {
            u64::MAX
        } else {
            slot.unwrap_or_else(|| symbol_value_in(st, s, opts, r.target))
        };
        let mut value = (base as i64).wrapping_add(addend) as u64;
        if elfw_reloc::lookup(r.r_type).is_some_and(|t| t.is_pc_relative()) {
            value = value.wrapping_sub(r.offset);
        }
        // sm_100+ only: ptxas's addends point into the middle of a CIE there.
        if opts.target.is_mercury()
            && r.r_type == elfw_reloc::table::types::R_CUDA_64
            && is_debug_frame(st, s)
        {
            let bytes = frame.get_or_init(|| section_bytes(st, r.target));
            value = containing_cie(bytes, value).unwrap_or(value);
        }
        let bank = match s.section() {
            _ if slot.is_some() => Some(0),
            SymSection::Section(id) if is_constant_bank(st.sec(id).sh_type()) => {
                Some(st.sec(id).sh_type() - SHT_CUDA_CONSTANT0)
            }
            // `-r`, an undefined constant or texture/surface reference: the bank of
            // "section 0" (type 0), as nvlink computes it (observed, sm_80 and sm_90: bank
            // field 28 = (0 - SHT_CUDA_CONSTANT0) mod 32; sm_100+ keeps the code's bank).
            SymSection::Undef
                if (s.other() & STO_CUDA_CONSTANT != 0
                    || super::bindless::is_bindless_type(s.sym_type()))
                    && opts.relocatable
                    && !opts.target.is_mercury() =>
            {
                Some(0u32.wrapping_sub(SHT_CUDA_CONSTANT0))
            }
            _ => None,
        };
        patches.push(Patch {
            section: r.target,
            offset: r.offset,
            r_type: r.r_type,
            value,
            bank,
        });
    }
    if keep {
        // A relocatable image keeps the compiler's types; the driver's come at the final link.
        if !opts.relocatable {
            rel.r_type = elfw_reloc::driver_type(r.r_type);
        }
    } else {
        rel.dropped = true;
        // The unified-table offsets are settled apart and not recorded (observed).
        // sm_100+ records only what resolved against shared memory (observed).
        // Nor, without `-g`, what resolved against dynamic shared memory (observed, sm_80
        // and sm_90).
        // But sm_90, which then lists the names (with a common area), records what code
        // no laid-out kernel reaches resolved to -1 against them (observed,
        // `--kernels-used` of a kernel reaching no dynamic memory).
        // But debug info naming them is recorded (observed, sm_90, the one target that links
        // it without `-g`: a `-G` object's `.debug_info` locations, value 0x3ff + addend
        // 0x400, and those of a `-r -g` image of such objects), but for names that `-r -g`
        // defined past 0 (not listed).
        let dynamic = !opts.debug
            && is_dynamic_shared(st, sym)
            && (!is_debug_target(st.sec(r.target).name()) || defined_past_zero(st, sym))
            && !(opts.lists_dynamic_shared()
                && st.shared_common_area
                && st.unplaced_dynamic_code.contains(&r.target));
        // sm_100+ writes down nothing resolved in debug sections (observed: a `-G` input's
        // `.debug_info` locations of shared variables).
        let in_debug = opts.target.is_mercury() && is_debug_target(st.sec(r.target).name());
        let recorded = apply
            && opts.preserve_relocs
            && !dynamic
            && !in_debug
            && !super::finalize::is_unified_table_symbol(st.sym(sym).name())
            // (Nor libcudadevrt's reads of `.nv.ptx.const0.size`, nor, in a final link,
            // code reading a texture/surface reference's slot: observed on sm_75 to sm_90;
            // `-r` records the references it settles.)
            && st.sym(sym).name() != super::merge::PTX_CONST0_SIZE
            && (opts.relocatable || !super::bindless::is_bindless_type(st.sym(sym).sym_type()))
            && (!opts.target.is_mercury() || st.sym(sym).shared().is_some());
        if recorded {
            if let Some(sec) = resolved_section(st, r.rel_section) {
                resolved.push(Reloc {
                    rel_section: sec,
                    addend: full_addend.unwrap_or(r.addend),
                    dropped: false,
                    ..r
                });
            }
        }
    }
}

/// `.nv.resolvedrela<x>` for `.rel<x>` or `.rela<x>`.
fn resolved_section(st: &View<'_, '_>, rel: SecId) -> Option<SecId> {
    let name = st.sec(rel).name();
    let suffix = name
        .strip_prefix(".rela")
        .or_else(|| name.strip_prefix(".rel"))?;
    st.section_by_name(&format!(".nv.resolvedrela{suffix}"))
}

/// `-r`: an undefined `__device__` or `__constant__` variable (`STT_CUDA_OBJECT`) is written
/// with the value -1 (observed, sm_80 to sm_100: `extern __device__` and `extern __constant__`
/// arrays no input defines), and what names an undefined constant is settled against that
/// value (see [`target_class`]).
fn undefined_variables_at_minus_one(st: &mut State<'_>) {
    for i in 1..st.globals.len() {
        let mut g = st.globals.at_mut(i);
        let s = g.view();
        // (Not the weak `externsharedinstance` names the link makes: they hold their place;
        // nor the names the driver provides, such as the unified-table symbols and
        // `.nv.reservedSmem.*`, which keep their values through any number of `-r` links.)
        if !s.is_defined()
            && s.shared().is_none()
            && !super::finalize::provided_externally(s.name())
            && s.binding() == STB_GLOBAL
            && s.sym_type() == STT_CUDA_OBJECT
        {
            *g.value() = u64::MAX;
        }
    }
}

/// `-r`, `--preserve-relocs` and `-g` (also with `-suppress-debug-info`, observed on sm_90):
/// libcudadevrt's `.nv.ptx.const0.size` takes the size of
/// the user constant bank, `.nv.constant3`, when the link has one, and what reads it is
/// settled with that (observed, sm_80 to sm_120: 4, 12 and 20 for one, three and five
/// `__constant__` ints; -1 without, and in other final links).
fn ptx_const0_size_from_user_constants(st: &mut State<'_>) {
    let size = st
        .section_by_name(".nv.constant3")
        .map(|sec| st.sec(sec).size());
    let Some(size) = size else {
        return;
    };
    for i in 1..st.locals.len() {
        let mut l = st.locals.at_mut(i);
        let s = l.view();
        if s.name() == super::merge::PTX_CONST0_SIZE && s.binding() == STB_LOCAL {
            *l.value() = size;
        }
    }
}

/// `st_other` bit of a `__constant__` variable.
pub(super) const STO_CUDA_CONSTANT: u8 = 0x80;

pub(super) fn target_class(st: &View<'_, '_>, s: SymbolRef, opts: &LinkOptions) -> Target {
    // Settled by the link whatever becomes of the symbol (see `merge::PTX_CONST0_SIZE`).
    if s.name() == super::merge::PTX_CONST0_SIZE && s.binding() == STB_LOCAL {
        return Target::LinkTime;
    }
    if s.removed() {
        return Target::Removed;
    }
    if s.name() == "__UFT_OFFSET" || s.shared().is_some() {
        return Target::LinkTime;
    }
    // `-r`: references to an undefined constant are settled (to -1) and dropped, unlike those
    // to other undefined variables (observed: `extern __constant__` arrays, sm_80 to sm_100).
    if opts.relocatable
        && !s.is_defined()
        && s.sym_type() == STT_CUDA_OBJECT
        && s.other() & STO_CUDA_CONSTANT != 0
    {
        return Target::LinkTime;
    }
    // `-r` before sm_100: references to module-scope texture and surface references are
    // settled against their undefined symbol (bank 28, offset 0) and dropped (observed:
    // `.texref`/`.surfref` PTX on sm_75 to sm_90; sm_100+ keeps them).
    if opts.relocatable
        && !opts.target.is_mercury()
        && !s.is_defined()
        && super::bindless::is_bindless_type(s.sym_type())
    {
        return Target::LinkTime;
    }
    match s.section() {
        SymSection::Section(id) => {
            let sec = st.sec(id);
            // Shared memory is laid out only by a final link; `-r` keeps its relocations.
            let shared =
                sec.sh_type() == SHT_CUDA_SHARED || sec.sh_type() == SHT_CUDA_SHARED_RESERVED;
            // `-r` leaves references to a weak constant alone: another definition may win at
            // the final link (observed: `__constant__` variable templates).
            let weak_constant = opts.relocatable && s.binding() == STB_WEAK;
            let link_time = sec.flags() & SHF_ALLOC == 0
                || (is_constant_bank(sec.sh_type()) && !weak_constant)
                || (shared && !opts.relocatable);
            if link_time {
                Target::LinkTime
            } else {
                Target::LoadTime
            }
        }
        _ => Target::LoadTime,
    }
}

pub(super) fn symbol_value(st: &View<'_, '_>, s: SymbolRef, opts: &LinkOptions) -> u64 {
    let _ = opts;
    match s.shared() {
        Some(v) => st.shared_vars[v].offset.unwrap_or(0),
        None => s.value(),
    }
}

/// [`symbol_value`] as the code section `code` sees it: dynamic shared memory starts where
/// the layout placed it for that code (see `shared`).
pub(super) fn symbol_value_in(
    st: &View<'_, '_>,
    s: SymbolRef,
    opts: &LinkOptions,
    code: SecId,
) -> u64 {
    s.shared()
        .and_then(|v| st.dynamic_shared_at.get(&(code, v)).copied())
        .unwrap_or_else(|| symbol_value(st, s, opts))
}

/// Whether debug section `target` names, through `s`, a `__shared__` variable whose kernel's
/// window went: resolved to -1, as shared memory no kernel lays out (observed, `-G` objects
/// linked without `-g`, `--kernels-used` leaving the kernel out: sm_80, and on sm_100/sm_120
/// in the Mercury twin too).
pub(super) fn removed_shared_in_debug(
    st: &View<'_, '_>,
    s: SymbolRef,
    target: SecId,
    opts: &LinkOptions,
) -> bool {
    !opts.debug
        && s.shared().is_some_and(|v| {
            let var = &st.shared_vars[v];
            var.offset.is_none() && var.section.is_some_and(|w| st.sec(w).removed())
        })
        && is_debug_target(st.sec(target).name())
}

/// A DWARF or NVIDIA debug section.
pub(super) fn is_debug_target(name: &str) -> bool {
    name.starts_with(".debug_") || name.starts_with(".nv_debug_")
}

fn is_debug_frame(st: &View<'_, '_>, s: SymbolRef) -> bool {
    matches!(s.section(), SymSection::Section(id) if st.sec(id).name() == ".debug_frame")
}

/// The offset of the `.debug_frame` CIE record containing `target` (nvlink writes a CIE
/// pointer as the start of the record the relocated value falls in).
fn containing_cie(frame: &[u8], target: u64) -> Option<u64> {
    let mut o = 0usize;
    while o + 4 <= frame.len() {
        let len32 = u32::from_le_bytes(frame[o..o + 4].try_into().ok()?);
        let (len, id_at, id_size, hdr) = if len32 == u32::MAX {
            let len = u64::from_le_bytes(frame.get(o + 4..o + 12)?.try_into().ok()?);
            (len, o + 12, 8, 12)
        } else {
            (len32 as u64, o + 4, 4, 4)
        };
        let end = o as u64 + hdr as u64 + len;
        let id = frame.get(id_at..id_at + id_size)?;
        let is_cie = id.iter().all(|&b| b == 0xff);
        if is_cie && (o as u64..end).contains(&target) {
            return Some(o as u64);
        }
        if len == 0 || end as usize > frame.len() {
            return None;
        }
        o = end as usize;
    }
    None
}

/// A section's bytes as merged: its contributions at their offsets, zero padding between.
/// (A `SHT_NOBITS` section has no bytes in the file, whatever size it claims: only as many as
/// its contributions hold are made.)
pub(super) fn section_bytes(st: &View<'_, '_>, id: SecId) -> Vec<u8> {
    let size = if st.sec(id).sh_type() == SHT_NOBITS {
        st.nodes_of(id)
            .filter_map(|n| n.data().map(|d| n.offset().saturating_add(d.len() as u64)))
            .max()
            .unwrap_or(0)
            .min(st.sec(id).size())
    } else {
        st.sec(id).size()
    };
    let mut out = vec![0u8; size as usize];
    for n in st.nodes_of(id) {
        if let Some(d) = n.data() {
            // (A contribution past the section's end is left out, as the emitter does.)
            let start = n.offset() as usize;
            if let Some(dst) = out.get_mut(start..start.saturating_add(d.len())) {
                dst.copy_from_slice(d);
            }
        }
    }
    out
}

/// Whether `sym` is an `extern __shared__` name (dynamic shared memory).
/// An `extern __shared__` name an earlier `-r -g` defined past 0 in `.nv_debug.shared`.
fn defined_past_zero(st: &View<'_, '_>, sym: crate::arena::SymIdx) -> bool {
    st.sym(sym)
        .shared()
        .is_some_and(|v| st.shared_vars[v].past_zero)
}

fn is_dynamic_shared(st: &View<'_, '_>, sym: crate::arena::SymIdx) -> bool {
    st.sym(sym)
        .shared()
        .is_some_and(|v| st.shared_vars[v].kind == SharedKind::Dynamic)
}
