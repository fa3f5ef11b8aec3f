//! Module-scope texture, sampler and surface references (`.texref`, `.samplerref`,
//! `.surfref`): each kernel that reaches a reference gets a 4-byte slot for it after its
//! parameters in `.nv.constant0.<k>`; the code's constant-bank operand is pointed at the slot,
//! and a `.rel.nv.constant0.<k>` entry (`R_CUDA_TEX_HEADER_INDEX`, `R_CUDA_SAMP_HEADER_INDEX`,
//! `R_CUDA_SURF_HEADER_INDEX`) asks the driver to fill it with the descriptor's header index.
//!
//! Observed (sm_75 to sm_120): a kernel's slots are those of every reference of the link in
//! nvlink's shuffled order (see `slot_order`), whatever order the code refers to them in.
//! Up to sm_90 the relocation section is the REL companion made with the constant bank (so it
//! sorts before `.rel.debug_frame` of the same input), without `SHF_INFO_LINK`; from sm_100 on
//! the slots come from a Mercury bank of their own (see [`SlotBank`]). Following nvlink's
//! bindless pass as the wiki describes it, a kernel takes a slot for every reference of each
//! kind (texture, sampler, surface) it reaches at least one of, reached through any chain of
//! calls.

use super::state::*;
use crate::arena::{GlobalIdx, LocalIdx, SymIdx};
use crate::elf::consts::*;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// `STT_CUDA_TEXTURE`.
pub const STT_CUDA_TEXTURE: u8 = 10;
/// `STT_CUDA_SAMPLER`.
pub const STT_CUDA_SAMPLER: u8 = 11;
/// `STT_CUDA_SURFACE`.
pub const STT_CUDA_SURFACE: u8 = 12;

/// Whether a symbol type names a texture, sampler or surface reference.
pub fn is_bindless_type(t: u8) -> bool {
    (STT_CUDA_TEXTURE..=STT_CUDA_SURFACE).contains(&t)
}

/// The reference kinds a symbol type stands for, as nvlink's bit mask (a surface counts as
/// both of the others).
fn kind_bits(t: u8) -> u8 {
    match t {
        STT_CUDA_TEXTURE => 1,
        STT_CUDA_SAMPLER => 2,
        STT_CUDA_SURFACE => 3,
        _ => 0,
    }
}

/// The driver relocation that fills a slot.
fn header_index_type(t: u8, mercury: bool) -> u32 {
    match (t, mercury) {
        (STT_CUDA_TEXTURE, false) => elfw_reloc::table::types::R_CUDA_TEX_HEADER_INDEX,
        (STT_CUDA_SAMPLER, false) => elfw_reloc::table::types::R_CUDA_SAMP_HEADER_INDEX,
        (_, false) => elfw_reloc::table::types::R_CUDA_SURF_HEADER_INDEX,
        (STT_CUDA_TEXTURE, true) => elfw_reloc::table::types::R_MERCURY_TEX_HEADER_INDEX,
        (STT_CUDA_SAMPLER, true) => elfw_reloc::table::types::R_MERCURY_SAMP_HEADER_INDEX,
        (_, true) => elfw_reloc::table::types::R_MERCURY_SURF_HEADER_INDEX,
    }
}

/// The name of a kernel's slot relocation section (`.rela` from sm_100 on).
pub fn slot_section_name(kernel: &str, mercury: bool) -> String {
    if mercury {
        format!(".rela.nv.constant0.{kernel}")
    } else {
        format!(".rel.nv.constant0.{kernel}")
    }
}

/// Finds `.rel.nv.constant0.<kernel>` (made with the bank), or makes it for a kernel whose
/// `.nv.constant0.<kernel>` came without one. sm_100+: a new `.rela.nv.constant0.<kernel>`
/// with `SHF_INFO_LINK` (observed), the twin of the Mercury bank's relocations.
pub fn ensure_slot_section(st: &mut State<'_>, kernel: &str, mercury: bool) -> Option<SecId> {
    let name = slot_section_name(kernel, mercury);
    if let Some(id) = st.section_by_name(&name) {
        return Some(id);
    }
    let bank = st.first_section_by_name(&format!(".nv.constant0.{kernel}"))?;
    let name = st.bump.alloc_str(&name);
    let mut sec = if mercury {
        new_section(name, SHT_RELA, SHF_INFO_LINK, 8, 24)
    } else {
        new_section(name, SHT_REL, 0, 8, 16)
    };
    sec.link = Link::Symtab;
    sec.info = Link::Section(bank);
    sec.role = SecRole::Synthetic;
    sec.reloc_target = Some(bank);
    Some(st.create_section(sec, false))
}

/// Slot offsets by (code section, reference symbol), for the relocation phase.
pub type Slots = FxHashMap<(SecId, SymIdx), u64>;

/// sm_100+ (final links): a kernel's constant bank that took slots. nvlink lays the slots out
/// in the Mercury world, in a bank of their own, `.nv.merc.nv.constant.entry_image_header_indices.<k>`
/// (its section symbol `.nv.constant.entry_image_header_indices.<k>`, its relocations
/// `R_MERCURY_*_HEADER_INDEX`), and the finalizer appends that bank to the SASS
/// `.nv.constant0.<k>` at the next 16-byte boundary after the parameters, with
/// `.rela.nv.constant0.<k>` (`R_CUDA_*_HEADER_INDEX`). The SASS bank then is a section the link
/// made: among the other constant banks, before the code, its symbol among the locals
/// (observed, sm_100 and sm_120).
#[derive(Clone, Debug)]
pub struct SlotBank {
    /// The SASS bank (`.nv.constant0.<k>`).
    pub bank: SecId,
    /// Where the slots start in the SASS bank.
    pub start: u64,
    /// Each slot: its reference and its place in the SASS bank.
    pub slots: Vec<(SymIdx, u64)>,
}

impl SlotBank {
    /// The Mercury relocation type of a slot's reference.
    pub fn mercury_type(st: &State<'_>, sym: SymIdx) -> u32 {
        header_index_type(st.sym(sym).sym_type(), true)
    }
}

/// What code reads for a reference in the Mercury world: its slot's place in the Mercury
/// bank (the SASS place less where the slots start).
pub fn mercury_slot_value(st: &State<'_>, text: SecId, sym: SymIdx) -> Option<u64> {
    st.merc_slot_values.get(&(text, sym)).copied()
}

/// Relocations read per task when looking for references.
const RELOCS_PER_TASK: usize = 8192;

/// The order of a kernel's slots: every reference of the link (used or not), as nvlink lays
/// them out. Observed (sm_75 to sm_120, 1 to 7 references): nvlink lists the surfaces, then
/// the samplers, then the textures, each kind in symbol-table order, builds its list by
/// prepending them one by one, and lays the slots out after its list merge sort by
/// (alignment, size), all equal here, so that the result is that sort's fixed shuffle of the
/// reversed list (3 textures in symbol order a, b, c: slots a, c, b).
fn slot_order(st: &State<'_>) -> Vec<SymIdx> {
    let mut listed: Vec<(u8, SymIdx)> = Vec::new();
    let locals =
        (1..st.locals.len()).filter_map(|i| LocalIdx::from_slot(i as u32).map(SymIdx::from));
    let globals =
        (1..st.globals.len()).filter_map(|i| GlobalIdx::from_slot(i as u32).map(SymIdx::from));
    for sym in locals.chain(globals) {
        let s = st.sym(sym);
        if !s.removed() && is_bindless_type(s.sym_type()) {
            listed.push((s.sym_type(), sym));
        }
    }
    // Surfaces first, then samplers, then textures (stable: symbol order within a kind).
    listed.sort_by_key(|&(t, _)| std::cmp::Reverse(t));
    let prepended: Vec<SymIdx> = listed.iter().rev().map(|&(_, sym)| sym).collect();
    super::shared::list_merge_sort(&prepended, |_| ())
}

/// Where the slots start in every kernel's bank: past the largest kernel bank of the link,
/// those of kernels without slots included, rounded up to the banks' largest alignment (up to
/// sm_90) or to 16 bytes (from sm_100 on, where the finalizer appends the Mercury bank).
/// Observed (sm_90 and sm_100): a kernel with 8 bytes of parameters gets its slots at 0x244
/// (0x3c0) beside a kernel with 52, whether or not that one reads a reference.
fn slots_start(st: &State<'_>, mercury: bool) -> u64 {
    let (mut size, mut align) = (0u64, 1u64);
    for i in 1..st.sections.len() {
        let s = st.sections.at(i);
        if s.removed() || s.sh_type() != SHT_CUDA_CONSTANT0 || !matches!(s.info(), Link::Section(_))
        {
            continue;
        }
        size = size.max(s.size());
        align = align.max(s.addralign());
    }
    size.next_multiple_of(if mercury { 16 } else { align })
}

/// Allocates the slots, appends them to the kernels' constant banks and adds the driver
/// relocations. Runs after dead-code elimination and before relocation.
pub fn assign_slots(st: &mut State<'_>, mercury: bool) -> Slots {
    let mut slots = Slots::default();
    // A link without a texture, sampler or surface reference among its symbols (most links)
    // has no relocation against one: nothing to scan.
    if !st
        .locals
        .iter()
        .chain(st.globals.iter())
        .any(|s| is_bindless_type(s.sym_type()))
    {
        return slots;
    }
    // Which live code section refers to which references.
    // (The relocations are read in runs on all cores, the references found taken run after
    // run in relocation order.)
    let view = super::relocate::View::of(st);
    let found: Vec<Vec<(SecId, SymIdx, u8)>> = st
        .relocs
        .par_chunks(RELOCS_PER_TASK)
        .map(|run| {
            run.iter()
                .filter_map(|r| {
                    let sym = r.sym?;
                    if r.dropped || view.sec(r.target).removed() {
                        return None;
                    }
                    let t = view.sym(sym).sym_type();
                    is_bindless_type(t).then_some((r.target, sym, t))
                })
                .collect()
        })
        .collect();
    let found: Vec<(SecId, SymIdx, u8)> = found.into_iter().flatten().collect();
    let mut used: FxHashMap<SecId, u8> = FxHashMap::default();
    for &(target, _, t) in &found {
        *used.entry(target).or_default() |= kind_bits(t);
    }
    // A link left with one kernel gives it the kinds all code read, that of functions dead
    // code elimination removed and of kernels `--kernels-used` left out included (observed,
    // sm_80 to sm_120: a kernel reading a sampler gets the texture slot a dead function's
    // `txq` asked for, and a kernel reading none gets every slot when the kernels reading
    // them are left out; with two kernels left each gets what it reaches).
    let mut kernels = st
        .functions
        .iter()
        .skip(1)
        .filter(|f| f.is_entry && !f.dead && !f.demoted);
    let lone_kernel_mask = match (kernels.next(), kernels.next()) {
        (Some(_), None) => st
            .relocs
            .iter()
            .filter(|r| st.sec(r.target).name().starts_with(".text."))
            .filter_map(|r| r.sym)
            .fold(0, |m, sym| m | kind_bits(st.sym(sym).sym_type())),
        _ => 0,
    };
    if used.is_empty() && lone_kernel_mask == 0 {
        return slots;
    }
    let refs = slot_order(st);
    let start = slots_start(st, mercury);

    let text_of = |st: &State<'_>, f: &Function| -> Option<SecId> {
        match st.sym(f.sym?).section() {
            SymSection::Section(id) => Some(id),
            _ => None,
        }
    };
    let mut banks_done: FxHashSet<SecId> = FxHashSet::default();
    for k in 1..st.functions.len() {
        let f = &st.functions[k];
        if !f.is_entry || f.dead || f.demoted {
            continue;
        }
        let Some(ksym) = f.sym else { continue };
        let kname = st.sym(ksym).name();
        // Everything the kernel reaches, itself first.
        let mut reached = vec![k];
        let mut seen: FxHashSet<usize> = FxHashSet::from_iter([k]);
        let mut i = 0;
        while i < reached.len() {
            for c in &st.functions[reached[i]].callees {
                if seen.insert(c.0 as usize) {
                    reached.push(c.0 as usize);
                }
            }
            i += 1;
        }
        let texts: Vec<SecId> = reached
            .iter()
            .filter_map(|&g| text_of(st, &st.functions[g]))
            .collect();
        let mask = texts.iter().fold(lone_kernel_mask, |m, t| {
            m | used.get(t).copied().unwrap_or(0)
        });
        if mask == 0 {
            continue;
        }
        // A local kernel given twice (the same object twice: nvlink keeps both copies) finds
        // the first copy's bank (and `.nv.info.<k>`) by its name: that bank takes the slots
        // once, the second copy's bank none, and the second copy's code reads the references
        // at their places (observed, sm_100 and sm_120; the copies count as two kernels for
        // the lone-kernel rule above).
        let Some(bank) = st.first_section_by_name(&format!(".nv.constant0.{kname}")) else {
            continue;
        };
        if !banks_done.insert(bank) {
            continue;
        }
        let Some(rel) = ensure_slot_section(st, kname, mercury) else {
            continue;
        };
        // Zeros up to where every kernel's slots start.
        let size = st.sec(bank).size();
        if start > size {
            st.append_data(bank, None, start - size, 1, usize::MAX, u32::MAX);
        }
        // Every reference has one place in every kernel's bank, the kinds the kernel does
        // not read left as holes (observed: a kernel reading only a sampler gets its slot at
        // the sampler's place, its bank as long as the others').
        let block = st.append_data(bank, None, 4 * refs.len() as u64, 4, usize::MAX, u32::MAX);
        let mut made = Vec::new();
        for (i, &sym) in refs.iter().enumerate() {
            let t = st.sym(sym).sym_type();
            if mask & kind_bits(t) == 0 {
                continue;
            }
            let offset = block + 4 * i as u64;
            // (The SASS relocations keep the R_CUDA types on sm_100+ too, but a sampler's
            // is R_CUDA_SAMP_HEADER_INDEX_0 there: observed, sm_100 and sm_120.)
            let r_type = match t {
                STT_CUDA_SAMPLER if mercury => elfw_reloc::table::types::R_CUDA_SAMP_HEADER_INDEX_0,
                _ => header_index_type(t, false),
            };
            st.relocs.push(Reloc {
                rel_section: rel,
                target: bank,
                offset,
                r_type,
                sym: Some(sym),
                addend: 0,
                dropped: false,
                input: usize::MAX,
            });
            made.push((sym, offset));
            // (Code shared by several kernels finds the reference at one place in all of them.)
            for &text in &texts {
                slots.entry((text, sym)).or_insert(offset);
                if mercury {
                    st.merc_slot_values
                        .entry((text, sym))
                        .or_insert(offset - start);
                }
            }
        }
        if mercury {
            st.slot_banks.push(SlotBank {
                bank,
                start,
                slots: made,
            });
            // The finalizer notes that the kernel's textures and surfaces are in bank 0
            // (observed: both records, whatever kinds the kernel reads, after its others).
            if let Some(info) = st.first_section_by_name(&format!(".nv.info.{kname}")) {
                let zero: &[u8] = &[0, 0];
                let tail = st.sass_info_tail.entry(info).or_default();
                for attr in [EIATTR_BINDLESS_TEXTURE_BANK, EIATTR_BINDLESS_SURFACE_BANK] {
                    tail.push(InfoRecord {
                        format: crate::nvinfo::EIFMT_BVAL,
                        attr,
                        payload: zero,
                        sym: None,
                        externs: &[],
                        dropped: false,
                    });
                }
            }
        }
    }
    // Code no kernel reaches (kept by `-g`) finds a reference at its place in every kernel's
    // bank (observed, sm_100 `-g`: a function nothing calls reads its texture at 0x398, the
    // third slot past 0x390, beside a kernel whose slots start there).
    for (text, sym, _) in found {
        if slots.contains_key(&(text, sym)) {
            continue;
        }
        let Some(i) = refs.iter().position(|&r| r == sym) else {
            continue;
        };
        slots.insert((text, sym), start + 4 * i as u64);
        if mercury {
            st.merc_slot_values.insert((text, sym), 4 * i as u64);
        }
    }
    slots
}

/// The name of a slot bank's section symbol in the Mercury world, less the kernel's name.
pub const MERC_SLOT_BANK_SYMBOL: &str = crate::mercury::SLOT_CONSTANT.1;

/// `EIATTR_BINDLESS_TEXTURE_BANK`.
const EIATTR_BINDLESS_TEXTURE_BANK: u8 = 0x15;
/// `EIATTR_BINDLESS_SURFACE_BANK`.
const EIATTR_BINDLESS_SURFACE_BANK: u8 = 0x16;

/// Whether `bank` is a kernel's constant bank that took slots on sm_100+ (see [`SlotBank`]).
pub fn is_slot_bank(st: &State<'_>, bank: SecId) -> bool {
    st.slot_banks.iter().any(|b| b.bank == bank)
}
