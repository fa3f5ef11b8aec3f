//! The compiler's constants bank (`.nv.constant2.<f>`, bank `c[0x2]`) of a final link.
//!
//! ptxas puts constants an instruction cannot hold (doubles, switch tables) in a section of
//! bank 2 per function, named by `<f>.const_opt.<start>.<end>` symbols. The driver loads one
//! bank 2 per kernel, so nvlink (observed, 13.5, sm_75–sm_90) gives each kernel the constants
//! of every device function it can call:
//! - a kernel's own constants stay at offset 0;
//! - each device function's block gets one offset for all the kernels that reach it (its code
//!   names one address): blocks are taken in the reverse of the order their sections were
//!   made, each placed after everything the kernels reaching it hold so far (their own
//!   constants, the blocks already placed for them), rounded up to the strictest of the
//!   block's alignment and those of these kernels' banks so far (own constants and placed
//!   blocks), which the block's alignment then raises for each of them;
//! - a kernel's bank then holds its own constants and its blocks, zeros between them, aligned
//!   as its blocks were placed, and sized to a multiple of that;
//!   a kernel with no constants of its own gets a new section (made after `.nv.prototype`,
//!   in the order the blocks first need them);
//! - the device functions' banks and every `const_opt` symbol leave the image; relocations
//!   against those symbols are resolved against the block's place;
//! - a block is as long as its `const_opt` symbols say (never past its bank's bytes): a
//!   function that won a weak contest has the losing copy's constants appended, named by no
//!   symbol but counted, and nvlink writes one such constant's new value into the symbol
//!   table's null entry (the lowest of the last placed block that has any).
//!
//! sm_100–sm_120 (observed on sm_100, sm_103, sm_110, sm_120): the same layout, with Mercury
//! twins. Only switch tables stay in bank 2 there (doubles and libdevice's constants become
//! immediates). ptxas names the bank's section symbol `.nv.constant.optimizer.<f>` and gives it
//! a twin `.nv.merc.nv.constant.optimizer.<f>` (zeros) whose relocations (`R_MERCURY_*` against
//! the function, the jump targets) are the only ones: the SASS `.rela.nv.constant2.<f>` is
//! empty. nvlink keeps the names, writes each kernel's bank with an empty SASS relocation
//! section (a new bank's made with it) and a twin holding every piece's Mercury relocations
//! (see [`MercBank2`]), puts the banks in a read-only load segment before the code (with
//! `.nv.constant3`) and their symbols among the locals; the functions' code and capsules get
//! the blocks' places. A relocatable link merges the banks as other sections, names and twins
//! kept.
//!
//! Observed with kernels reaching 1–5 functions with constants of 8–664 bytes (switch tables,
//! doubles, libdevice's math functions), own constants of 0–96 bytes, functions reached through
//! other functions, weak templates, in one and two translation units and after a relocatable
//! link.

use super::state::*;
use super::{InputObject, LinkOptions};
use crate::arena::{LocalIdx, SymIdx};
use crate::elf::consts::*;
use rustc_hash::FxHashMap;

/// Bank 2's section type.
const SHT_CUDA_CONSTANT2: u32 = SHT_CUDA_CONSTANT0 + 2;

/// Symbols that name compiler constants, to leave out of the image after relocation.
#[derive(Debug, Default)]
pub struct Bank2Symbols(Vec<SymIdx>);

/// Lays out every kernel's bank 2 (see the module notes) and returns the `const_opt` symbols,
/// which [`drop_symbols`] removes once relocations are resolved.
pub fn layout(st: &mut State<'_>, inputs: &[InputObject<'_>], opts: &LinkOptions) -> Bank2Symbols {
    let mercury = opts.target.is_mercury();
    // Bank 2 sections by the function whose code they serve (sh_info names its `.text`).
    // (Text sections are mapped to their functions only when the link has such a bank.)
    let mut func_of_text: FxHashMap<SecId, FuncId> = FxHashMap::default();
    let has_bank2 =
        (1..st.sections.len()).any(|i| st.sections.at(i).sh_type() == SHT_CUDA_CONSTANT2);
    for (i, f) in st.functions.iter().enumerate().skip(1) {
        if !has_bank2 {
            break;
        }
        if let (Some(sym), false) = (f.sym, f.dead) {
            if let SymSection::Section(t) = st.sym(sym).section() {
                func_of_text.insert(t, FuncId(i as u32));
            }
        }
    }
    let mut bank_of: FxHashMap<FuncId, SecId> = FxHashMap::default();
    let mut blocks: Vec<(FuncId, SecId)> = Vec::new();
    for i in 1..st.sections.len() {
        let s = st.sections.at(i);
        if s.sh_type() != SHT_CUDA_CONSTANT2 || s.removed() {
            continue;
        }
        let Link::Section(text) = s.info() else {
            continue;
        };
        let Some(&f) = func_of_text.get(&text) else {
            continue;
        };
        bank_of.insert(f, SecId(i as u32));
        if !st.func(f).is_entry {
            blocks.push((f, SecId(i as u32)));
        }
    }
    // (Symbols in bank 2: none without such a section.)
    let mut symbols = if has_bank2 {
        const_opt_symbols(st)
    } else {
        Bank2Symbols::default()
    };
    if opts.relocatable {
        // A relocatable link merges the banks as they come, but a function's bank is cut to
        // the constants its symbols name (observed, sm_80: a `-r` image's weak-template bank
        // holding both copies, 0x10 bytes, one symbol naming 8, gives 8 in a second `-r`).
        for (sec, e) in named_extent(st, &blocks, &symbols) {
            if e < st.sec(sec).size() {
                st.truncate_section(sec, e);
            }
        }
        return Bank2Symbols::default();
    }
    // `--preserve-relocs` keeps the symbols of kernels' own constants (observed, sm_80: as
    // objects, internal) and what resolved against them; those of the blocks still go.
    if opts.preserve_relocs {
        let own: Vec<SecId> = bank_of
            .iter()
            .filter(|(f, _)| st.func(**f).is_entry)
            .map(|(_, &b)| b)
            .collect();
        symbols.0.retain(|&idx| {
            let kept = matches!(st.sym(idx).section(), SymSection::Section(s) if own.contains(&s));
            if kept {
                let mut s = st.sym_mut(idx);
                *s.info() = (*s.info() & 0xf0) | STT_OBJECT;
                *s.other() = 1;
            }
            !kept
        });
    }
    if blocks.is_empty() {
        return symbols;
    }
    let extent = named_extent(st, &blocks, &symbols);
    // The kernels reaching each function (not those `--kernels-used` demoted: observed,
    // sm_80 `--preserve-relocs`, a left-out kernel's bank keeps only its own constants).
    let kernels: Vec<FuncId> = (1..st.functions.len())
        .map(|i| FuncId(i as u32))
        .filter(|&k| {
            let f = st.func(k);
            f.is_entry && !f.dead && !f.demoted && f.sym.is_some()
        })
        .collect();
    let mut reached_by: FxHashMap<FuncId, Vec<FuncId>> = FxHashMap::default();
    let mut seen = vec![false; st.functions.len()];
    for &k in &kernels {
        for f in super::shared::reachable(st, k, &mut seen) {
            if f != k {
                reached_by.entry(f).or_default().push(k);
            }
        }
    }
    // Where each kernel's bytes end so far (its own constants first).
    let mut held: FxHashMap<FuncId, u64> = kernels
        .iter()
        .map(|&k| (k, bank_of.get(&k).map_or(0, |&b| st.sec(b).size())))
        .collect();
    // (block, its offset), in placing order; the blocks each kernel got (indices into it);
    // the kernels in the order their banks are written. New banks are made block by block,
    // the kernels of a block last to first (observed: `kb` before `ka` when both reach one
    // block and neither had a bank).
    // Each kernel's bank alignment so far: its own constants', then every block placed for it
    // raises it, and a block is placed at the strictest alignment of its kernels' banks
    // (observed: a switch table's block goes to a multiple of 8 in a kernel that already got
    // doubles, and in every kernel sharing the block; a kernel reaching only tables stays at 4
    // though other kernels of the link hold doubles).
    let mut bank_align: FxHashMap<FuncId, u64> = kernels
        .iter()
        .map(|&k| {
            (
                k,
                bank_of.get(&k).map_or(1, |&b| st.sec(b).addralign().max(1)),
            )
        })
        .collect();
    let mut placed: Vec<(SecId, u64)> = Vec::new();
    let mut got: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
    let mut order: Vec<FuncId> = Vec::new();
    for &(f, bank) in blocks.iter().rev() {
        let Some(users) = reached_by.get(&f).filter(|u| !u.is_empty()) else {
            continue;
        };
        let size = extent[&bank];
        let align = users
            .iter()
            .filter_map(|k| bank_align.get(k))
            .copied()
            .fold(st.sec(bank).addralign().max(1), u64::max);
        // After everything its kernels hold so far.
        let after = users.iter().filter_map(|k| held.get(k)).copied().max();
        let offset = align_up(after.unwrap_or(0), align);
        let end = offset.saturating_add(size);
        for &k in users.iter().rev() {
            let e = held.entry(k).or_insert(0);
            *e = (*e).max(end);
            let a = bank_align.entry(k).or_insert(1);
            *a = (*a).max(align);
            let list = got.entry(k).or_default();
            if list.is_empty() {
                order.push(k);
            }
            list.push(placed.len());
        }
        placed.push((bank, offset));
    }
    // sm_100+: the constants each block's symbols name (value, size), in value order, for the
    // Mercury relocations (taken before the symbols move).
    let mut named_of: FxHashMap<SecId, Vec<(u64, u64)>> = FxHashMap::default();
    if mercury {
        for &idx in &symbols.0 {
            let s = st.sym(idx);
            if let SymSection::Section(sec) = s.section() {
                if extent.contains_key(&sec) {
                    named_of.entry(sec).or_default().push((s.value(), s.size()));
                }
            }
        }
        for list in named_of.values_mut() {
            list.sort_by_key(|&(v, _)| v);
        }
    }
    // The `const_opt` symbols of the blocks now name their place in the kernels' banks.
    let offset_of: FxHashMap<SecId, u64> = placed.iter().copied().collect();
    for &idx in &symbols.0 {
        if let SymSection::Section(sec) = st.sym(idx).section() {
            if let Some(&o) = offset_of.get(&sec) {
                let mut s = st.sym_mut(idx);
                let v = *s.value();
                *s.value() = v.wrapping_add(o);
            }
        }
    }
    // nvlink writes a hidden symbol's new value in the null symbol: the lowest of the last
    // placed block that has any (observed: 0x50 for a losing copy's one constant 8 bytes into
    // a block placed at 0x48; with copies of several constants, the copy's first, 0x28 into a
    // block at 0x60, and 0x34 into the later of two blocks, at 0x50, not the last made one's).
    let last = placed.iter().rev().find_map(|&(block, o)| {
        st.hidden_constants
            .iter()
            .filter(|h| h.0 == block)
            .map(|h| h.1)
            .min()
            .map(|v| o.wrapping_add(v))
    });
    if let Some(v) = last {
        st.null_symbol_value = v;
    }
    // Every bank that takes blocks is aligned (and sized) as its blocks were placed: 4 with
    // switch tables' words alone, 8 once the kernel or a kernel sharing one of its blocks
    // holds doubles.
    for k in order {
        let existing = bank_of.get(&k).copied();
        let align = bank_align.get(&k).copied().unwrap_or(1);
        let mut pieces: Vec<(u64, &[u8])> = Vec::new();
        let mut end = 0u64;
        if let Some(bank) = existing {
            for n in st.nodes_of(bank) {
                if let Some(d) = n.data() {
                    pieces.push((n.offset(), d));
                }
                end = end.max(n.offset().saturating_add(n.size()));
            }
        }
        for &i in got.get(&k).map(Vec::as_slice).unwrap_or(&[]) {
            let (block, offset) = placed[i];
            let limit = extent[&block];
            for n in st.nodes_of(block) {
                if let Some(d) = n.data() {
                    let keep = limit.saturating_sub(n.offset()).min(d.len() as u64);
                    pieces.push((offset + n.offset(), &d[..keep as usize]));
                }
            }
            end = end.max(offset.saturating_add(limit));
        }
        let size = align_up(end, align);
        let Ok(len) = usize::try_from(size) else {
            continue;
        };
        let bytes = st.bump.alloc_slice_fill_copy(len, 0u8);
        for (at, d) in pieces {
            let at = at as usize;
            if let Some(dst) = bytes.get_mut(at..at.saturating_add(d.len())) {
                dst.copy_from_slice(d);
            }
        }
        if mercury {
            let blocks: Vec<(SecId, u64, u64)> = got
                .get(&k)
                .map(Vec::as_slice)
                .unwrap_or(&[])
                .iter()
                .map(|&i| (placed[i].0, placed[i].1, extent[&placed[i].0]))
                .collect();
            let mut twin = mercury_twin(st, inputs, existing, &blocks, &named_of, len);
            twin.kernel = k;
            // The SASS relocation section of a bank the kernel had stays, empty, as the pair of
            // the Mercury one.
            if let (Some(bank), false) = (existing, twin.relocs.is_empty()) {
                let rela = format!(".rela{}", st.sec(bank).name());
                if let Some(r) = st.section_by_name(&rela) {
                    *st.sec_mut(r).keep_empty() = true;
                }
            }
            st.merc_bank2.push(twin);
        }
        match existing {
            Some(bank) => set_bytes(st, bank, bytes, align),
            None => st.new_constant2.push((k, bytes, align)),
        }
    }
    // The device functions' own banks are gone, names and all (their relocation companions
    // too).
    for &(_, bank) in &blocks {
        let name = st.sec(bank).name();
        let companions: Vec<SecId> = [".rel", ".rela"]
            .iter()
            .filter_map(|p| st.section_by_name(&format!("{p}{name}")))
            .collect();
        for id in std::iter::once(bank).chain(companions) {
            st.sections.removed[id.index()] = true;
            st.sections.name_removed[id.index()] = true;
            if let Some(sym) = st.sections.symbol[id.index()] {
                st.locals.removed[sym.pos()] = true;
            }
        }
    }
    symbols
}

/// Makes the banks of the kernels that had no compiler constants of their own (the finalizer
/// does, right after `.nv.prototype`: observed in section and symbol order).
pub fn create_new_banks(st: &mut State<'_>, opts: &LinkOptions) {
    for (k, bytes, align) in std::mem::take(&mut st.new_constant2) {
        let Some(text) = st.func(k).sym.and_then(|s| match st.sym(s).section() {
            SymSection::Section(t) => Some(t),
            _ => None,
        }) else {
            continue;
        };
        let f = st.sec(text).name().strip_prefix(".text.").unwrap_or("");
        let name = st.make_name(&[".nv.constant2.", f]);
        let mut sec = new_section(
            name,
            SHT_CUDA_CONSTANT2,
            SHF_ALLOC | SHF_INFO_LINK,
            align,
            0,
        );
        sec.info = Link::Section(text);
        let id = st.create_section(sec, false);
        let sym_name = super::merge::section_symbol_name(st, name, opts);
        let sym = st.add_local(Symbol::for_section(sym_name, id, usize::MAX), false);
        *st.sec_mut(id).symbol() = sym.as_local();
        set_bytes(st, id, bytes, align);
        // sm_100+: with its (empty) SASS relocation section, the pair of the Mercury one.
        if let Some(m) = st.merc_bank2.iter_mut().find(|m| m.kernel == k) {
            m.bank = Some(id);
            let keep = !m.relocs.is_empty();
            let rela = st.make_name(&[".rela", name]);
            let mut r = new_section(rela, SHT_RELA, SHF_INFO_LINK, 8, 24);
            r.link = Link::Symtab;
            r.info = Link::Section(id);
            r.role = SecRole::Synthetic;
            r.reloc_target = Some(id);
            let rid = st.create_section(r, false);
            *st.sec_mut(rid).keep_empty() = keep;
        }
    }
}

/// sm_100+: a kernel's compiler-constants bank as its Mercury twin
/// (`.nv.merc.nv.constant.optimizer.<k>`) holds it.
///
/// Observed (13.5, sm_100/sm_120): the twin has the inputs' Mercury bytes (zeros) where the
/// SASS bank has the SASS ones, and the Mercury relocations of every piece (the jump tables'
/// `R_MERCURY_*` entries against the functions' code, kept in the image): first the kernel's
/// own, in the reverse of their input order; then each block's, blocks in placing order, the
/// block's relocations in the reverse of the order nvlink gathers them: constant by constant
/// (`const_opt` symbols in value order), each constant's in input order, then those no symbol
/// names (a losing weak copy's) in input order. Relocations past the block's end (what a
/// relocatable link appended) are left out.
#[derive(Clone, Debug)]
pub struct MercBank2 {
    /// The kernel.
    pub kernel: FuncId,
    /// Its SASS bank (for a kernel that had none, set when the bank is made).
    pub bank: Option<SecId>,
    /// The twin's bytes.
    pub bytes: Vec<u8>,
    /// The twin's relocations in output order.
    pub relocs: Vec<MercReloc2>,
}

/// One Mercury relocation of a compiler-constants bank: offset, type, symbol, addend.
pub type MercReloc2 = (u64, u32, Option<SymIdx>, i64);

/// The Mercury twin of a kernel's bank: its own bank's contributions (`own`) at their offsets,
/// then `blocks` (section, offset in the kernel's bank, length), `len` bytes in all.
fn mercury_twin(
    st: &State<'_>,
    inputs: &[InputObject<'_>],
    own: Option<SecId>,
    blocks: &[(SecId, u64, u64)],
    named_of: &FxHashMap<SecId, Vec<(u64, u64)>>,
    len: usize,
) -> MercBank2 {
    let mut out = MercBank2 {
        kernel: FuncId(0),
        bank: own,
        bytes: vec![0; len],
        relocs: Vec::new(),
    };
    // Each contribution's twin bytes and relocations (offsets from the contribution's start).
    let twin = |input: usize, in_section: u32| -> (&[u8], Vec<MercReloc2>) {
        let Some(obj) = inputs.get(input) else {
            return (&[], Vec::new());
        };
        let Ok(name) = obj.elf.section_name(in_section) else {
            return (&[], Vec::new());
        };
        let data = obj
            .elf
            .section_by_name(&crate::mercury::merc_twin(name))
            .and_then(|m| obj.elf.section_data(m).ok())
            .unwrap_or(&[]);
        let maps = st
            .input_maps
            .iter()
            .find(|(i, _)| *i == input)
            .map(|(_, m)| m);
        let rela = crate::mercury::merc_twin(&[b".rela", name].concat());
        let relocs = obj
            .elf
            .section_by_name(&rela)
            .and_then(|r| obj.elf.section_data(r).ok())
            .unwrap_or(&[])
            .chunks_exact(24)
            .map(|e| {
                let word = |o: usize| u64::from_le_bytes(e[o..o + 8].try_into().unwrap_or([0; 8]));
                let info = word(8);
                let sym = maps.and_then(|m| m.sym.get((info >> 32) as usize).copied().flatten());
                (word(0), info as u32, sym, word(16) as i64)
            })
            .collect();
        (data, relocs)
    };
    let mut put = |at: u64, d: &[u8], limit: u64| {
        let keep = (limit as usize).min(d.len());
        let at = at as usize;
        if let Some(dst) = out.bytes.get_mut(at..at.saturating_add(keep)) {
            dst.copy_from_slice(&d[..keep]);
        }
    };
    let mut own_relocs = Vec::new();
    if let Some(bank) = own {
        for n in st.nodes_of(bank) {
            let (d, relocs) = twin(n.input(), n.in_section());
            put(n.offset(), d, n.size());
            own_relocs.extend(
                relocs
                    .into_iter()
                    .map(|(o, t, s, a)| (o.wrapping_add(n.offset()), t, s, a)),
            );
        }
    }
    let mut relocs: Vec<_> = own_relocs.into_iter().rev().collect();
    for &(block, offset, limit) in blocks {
        let mut gathered = Vec::new();
        for n in st.nodes_of(block) {
            let (d, list) = twin(n.input(), n.in_section());
            put(
                offset.saturating_add(n.offset()),
                d,
                limit.saturating_sub(n.offset()),
            );
            gathered.extend(
                list.into_iter()
                    .map(|(o, t, s, a)| (o.wrapping_add(n.offset()), t, s, a))
                    .filter(|r| r.0 < limit),
            );
        }
        let named = named_of.get(&block).map(Vec::as_slice).unwrap_or(&[]);
        let within = |o: u64, &(v, size): &(u64, u64)| (v..v.saturating_add(size)).contains(&o);
        let mut order = Vec::with_capacity(gathered.len());
        for range in named {
            order.extend(gathered.iter().filter(|r| within(r.0, range)));
        }
        order.extend(
            gathered
                .iter()
                .filter(|r| !named.iter().any(|range| within(r.0, range))),
        );
        relocs.extend(
            order
                .into_iter()
                .rev()
                .map(|&(o, t, s, a)| (o.wrapping_add(offset), t, s, a)),
        );
    }
    out.relocs = relocs;
    out
}

/// Section `bank`'s bytes are `bytes` now, at alignment `align`.
fn set_bytes<'d>(st: &mut State<'d>, bank: SecId, bytes: &'d [u8], align: u64) {
    st.clear_nodes(bank);
    {
        let mut s = st.sec_mut(bank);
        *s.size() = 0;
        *s.addralign() = align;
    }
    st.append_data(
        bank,
        Some(bytes),
        bytes.len() as u64,
        align,
        usize::MAX,
        u32::MAX,
    );
}

/// Removes the `const_opt` symbols (after relocation, which needed their values).
pub fn drop_symbols(st: &mut State<'_>, symbols: Bank2Symbols) {
    if symbols.0.is_empty() {
        return;
    }
    for &idx in &symbols.0 {
        *st.sym_mut(idx).removed() = true;
    }
    // Their names leave `.strtab` too.
    let gone: rustc_hash::FxHashSet<SymIdx> = symbols.0.into_iter().collect();
    // `--preserve-relocs` writes down nothing resolved against them (observed, sm_90: a switch
    // table's relocations leave no `.nv.resolvedrela.text.<f>`).
    for i in 0..st.relocs.len() {
        let r = st.relocs[i];
        if r.sym.is_some_and(|s| gone.contains(&s))
            && st.sec(r.rel_section).sh_type() == SHT_CUDA_RESOLVED_RELA
        {
            st.relocs[i].dropped = true;
        }
    }
    st.local_name_order
        .retain(|(_, owner)| !matches!(owner, NameOwner::Symbol(s) if gone.contains(s)));
}

/// The symbols naming compiler constants: defined in a bank 2 section, not section symbols.
/// How long each block is: as long as the constants its symbols name (observed: a weak
/// template's bank that a relocatable link made twice as long gives 8 bytes, as its one
/// symbol says), hidden ones included; never past the bank's own bytes (a damaged symbol must
/// not grow it).
fn named_extent(
    st: &State<'_>,
    blocks: &[(FuncId, SecId)],
    symbols: &Bank2Symbols,
) -> FxHashMap<SecId, u64> {
    let mut extent: FxHashMap<SecId, u64> = blocks.iter().map(|&(_, b)| (b, 0)).collect();
    let named = symbols.0.iter().filter_map(|&idx| {
        let s = st.sym(idx);
        match s.section() {
            SymSection::Section(sec) => Some((sec, s.value(), s.size())),
            _ => None,
        }
    });
    for (sec, value, size) in named.chain(st.hidden_constants.iter().copied()) {
        if let Some(e) = extent.get_mut(&sec) {
            *e = (*e).max(value.saturating_add(size));
        }
    }
    for (sec, e) in extent.iter_mut() {
        *e = (*e).min(st.sec(*sec).size());
    }
    extent
}

fn const_opt_symbols(st: &State<'_>) -> Bank2Symbols {
    let mut out = Vec::new();
    for (j, s) in st.locals.iter().enumerate().skip(1) {
        if s.sym_type() == STT_SECTION {
            continue;
        }
        if let SymSection::Section(sec) = s.section() {
            if st.sec(sec).sh_type() == SHT_CUDA_CONSTANT2 && s.name().contains(".const_opt.") {
                if let Some(idx) = LocalIdx::from_slot(j as u32) {
                    out.push(idx.into());
                }
            }
        }
    }
    Bank2Symbols(out)
}

/// `v` rounded up to a multiple of `a` (saturating).
fn align_up(v: u64, a: u64) -> u64 {
    let a = a.max(1);
    v.div_ceil(a).saturating_mul(a)
}
