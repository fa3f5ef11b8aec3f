//! sm_100+: the SASS line tables as the finalizer rebuilds them.
//!
//! Observed with nvlink 13.5 on sm_100 and sm_120 (`-lineinfo` objects, and `-G` ones linked
//! without `-g`), in `.debug_line` and `.nv_debug_line_sass`:
//! - a sequence whose `DW_LNE_set_address` names a function that is not in the image (removed
//!   by dead-code elimination, or the losing copy of a weak function) is cut out, and its
//!   unit's length shrinks;
//! - each unit's remaining sequences follow the output symbol order of their functions (a
//!   function another input referred to first comes before its own TU's earlier ones).
//!
//! What follows moves, and so do the relocations and the section-relative references into
//! the table (`DW_AT_stmt_list` in `.debug_info`). sm_90 keeps the inputs' tables as they are,
//! and the Mercury copies stay as they are on every target. Runs after dead-code elimination
//! and before relocation, so that everything downstream sees the final offsets.

use super::state::*;
use super::InputObject;
use crate::arena::SymKind;
use crate::elf::consts::*;
use crate::mercury;
use rustc_hash::FxHashMap;

/// The line-table sections the finalizer rebuilds.
const LINE_TABLES: [&str; 2] = [".debug_line", ".nv_debug_line_sass"];

/// Rebuilds every SASS line table of the link (see the module documentation), and clears the
/// register ranges of the functions not in the image (see `clear_register_ranges`).
///
/// The rows of functions whose code grew (`grown`: the exit fences of
/// [`super::fence_pads`]) move with their instructions.
pub fn rebuild_line_tables(
    st: &mut State<'_>,
    inputs: &[InputObject<'_>],
    grown: &[super::fence_pads::Rewritten],
) {
    clear_register_ranges(st, inputs);
    let grown: FxHashMap<crate::arena::SymIdx, &super::fence_pads::Rewritten> = grown
        .iter()
        .filter(|r| !r.rows.is_empty())
        .map(|r| (r.sym, r))
        .collect();
    for name in LINE_TABLES {
        if let Some(sec) = st.section_by_name(name) {
            if !st.sec(sec).removed() {
                prune(st, sec, &grown);
            }
        }
    }
    move_register_ranges(st, &grown);
}

/// The `.nv_debug_info_reg_sass` ranges of functions whose code changed move with it (observed
/// on a `-G` kernel that lost the `MEMBAR.SC.VC` of its exit fence: a range ending at the
/// `EXIT` ends at its new place); the Mercury copy keeps its values.
fn move_register_ranges(
    st: &mut State<'_>,
    grown: &FxHashMap<crate::arena::SymIdx, &super::fence_pads::Rewritten>,
) {
    let Some(sec) = st.section_by_name(".nv_debug_info_reg_sass") else {
        return;
    };
    if st.sec(sec).removed() || grown.is_empty() {
        return;
    }
    // By name and input.
    let mut by_name: FxHashMap<(&str, usize), &super::fence_pads::Rewritten> = FxHashMap::default();
    for (&sym, &r) in grown {
        if let Some(n) = st.nodes_of(r.text).next() {
            by_name.insert((st.sym(sym).name(), n.input()), r);
        }
    }
    let mut moved: Vec<Option<Vec<u8>>> = Vec::new();
    for n in st.nodes_of(sec) {
        let new = n.data().and_then(|block| {
            let mut out: Option<Vec<u8>> = None;
            for (name, fields) in register_ranges(block)? {
                let Some(r) = std::str::from_utf8(name)
                    .ok()
                    .and_then(|name| by_name.get(&(name, n.input())))
                else {
                    continue;
                };
                let bytes = out.get_or_insert_with(|| block.to_vec());
                for at in fields {
                    for f in [at, at + 4] {
                        let old = u32::from_le_bytes(bytes[f..f + 4].try_into().ok()?);
                        let new = u32::try_from(r.row_address(old as u64)?).ok()?;
                        bytes[f..f + 4].copy_from_slice(&new.to_le_bytes());
                    }
                }
            }
            out
        });
        moved.push(new);
    }
    if moved.iter().all(Option::is_none) {
        return;
    }
    let bump = st.bump;
    st.relayout_nodes(sec, |k, _| {
        moved[k].as_ref().map(|b| &*bump.alloc_slice_copy(b))
    });
}

fn prune(
    st: &mut State<'_>,
    sec: SecId,
    grown: &FxHashMap<crate::arena::SymIdx, &super::fence_pads::Rewritten>,
) {
    // Relocations of the section by offset.
    let mut at: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    for (k, r) in st.relocs.iter().enumerate() {
        if r.target == sec {
            at.entry(r.offset).or_default().push(k);
        }
    }
    if at.is_empty() {
        return;
    }
    // A sequence goes if its address names a function that is not in the image; the others
    // are ordered by their function's place in the symbol table (locals, then the rest, each in
    // creation order).
    let order = |loc: u64| -> Option<Option<SymKind>> {
        let Some(list) = at.get(&loc) else {
            return Some(None);
        };
        let mut key = None;
        for &k in list {
            let r = &st.relocs[k];
            let Some(sym) = r.sym else { continue };
            let s = st.sym(sym);
            if s.sym_type() != STT_FUNC {
                continue;
            }
            if s.removed() || r.dropped {
                return None;
            }
            key = Some(sym.kind());
        }
        Some(key)
    };
    // The function a sequence describes, when its code grew.
    let grew = |loc: u64| -> Option<&super::fence_pads::Rewritten> {
        at.get(&loc)?.iter().find_map(|&k| {
            let r = &st.relocs[k];
            grown.get(&r.sym?).copied().filter(|_| !r.dropped)
        })
    };
    let mut pruned: Vec<Option<mercury::RebuiltLines>> = Vec::new();
    for n in st.nodes_of(sec) {
        let p = n.data().and_then(|block| {
            let base = n.offset();
            mercury::rebuild_line_table(
                block,
                |a| order(base + a as u64),
                |a, header, seq| {
                    let f = grew(base + a as u64)?;
                    mercury::move_line_rows(header, seq, |old| f.row_address(old))
                },
            )
            .ok()
            .filter(|p| p.bytes != block)
        });
        pruned.push(p);
    }
    if pruned.iter().all(Option::is_none) {
        return;
    }
    let bump = st.bump;
    let old: Vec<(u64, u64)> = st.nodes_of(sec).map(|n| (n.offset(), n.size())).collect();
    let moved = st.relayout_nodes(sec, |k, _| {
        pruned[k]
            .as_ref()
            .map(|p| &*bump.alloc_slice_copy(&p.bytes))
    });
    let mut moves: Vec<(u64, u64, u64)> = Vec::new();
    for (k, &(from, to)) in moved.iter().enumerate() {
        match &pruned[k] {
            Some(p) => moves.extend(
                p.moved
                    .iter()
                    .map(|&(a, b, c)| (from + a as u64, from + b as u64, to + c as u64)),
            ),
            None => moves.push((from, from + old[k].1, to)),
        }
    }
    // Relocations into the table move with their bytes or go with them; references to an
    // offset in the table (through its section symbol) follow it.
    for r in st.relocs.iter_mut() {
        if r.target == sec {
            match moved_offset(&moves, r.offset) {
                Some(new) => r.offset = new,
                None => r.dropped = true,
            }
        }
    }
    for k in 0..st.relocs.len() {
        let Some(sym) = st.relocs[k].sym else {
            continue;
        };
        let s = st.sym(sym);
        if s.sym_type() == STT_SECTION && s.section() == SymSection::Section(sec) {
            let addend = st.relocs[k].addend as u64;
            if let Some(new) = moved_offset(&moves, addend) {
                st.relocs[k].addend = new as i64;
            }
        }
    }
    st.line_moves.push((sec, moves));
}

/// `.nv_debug_info_reg_sass` (`-G`): per function, its name, a count, then that many entries
/// (a word, a register name, a word, and the function-relative start and end of the range).
/// The sm_100+ finalizer zeroes the start and end of every entry of a function that is not in
/// the image (observed on sm_100, `-G` objects linked without `-g`), or whose name leads to
/// another input's function first (a local function of the same name); the rest stays, in
/// input order, and the Mercury copy keeps its values.
fn clear_register_ranges(st: &mut State<'_>, inputs: &[InputObject<'_>]) {
    let Some(sec) = st.section_by_name(".nv_debug_info_reg_sass") else {
        return;
    };
    if st.sec(sec).removed() {
        return;
    }
    // The finalizer finds a record's function by name: a local function another input
    // defined first under the same name takes the lookup (observed on sm_100 under -G -g: of
    // three TUs' `__iAtomicAdd`, the second and third records are zeroed).
    let mut first_by_name: FxHashMap<&str, crate::arena::SymIdx> = FxHashMap::default();
    for f in st.functions.iter().skip(1) {
        if let (Some(sym), false) = (f.sym, f.dead) {
            let s = st.sym(sym);
            if !s.removed() && s.is_defined() {
                first_by_name.entry(s.name()).or_insert(sym);
            }
        }
    }
    let mut cleared: Vec<Option<Vec<u8>>> = Vec::new();
    let mut seen: rustc_hash::FxHashSet<crate::arena::SymIdx> = Default::default();
    for n in st.nodes_of(sec) {
        let new = n.data().and_then(|block| {
            let obj = inputs.get(n.input())?;
            let maps = &st.input_maps.iter().find(|(i, _)| *i == n.input())?.1;
            let mut functions: FxHashMap<&[u8], usize> = FxHashMap::default();
            for (k, s) in obj.elf.symbols().enumerate() {
                if let Ok(s) = s {
                    if s.info & 0xf == STT_FUNC {
                        functions.entry(s.name).or_insert(k);
                    }
                }
            }
            let gone = |name: &[u8]| -> bool {
                let Some(&k) = functions.get(name) else {
                    return false;
                };
                let sym = maps.sym.get(k).copied().flatten();
                let shadowed = sym.is_some_and(|sym| {
                    std::str::from_utf8(name)
                        .ok()
                        .and_then(|n| first_by_name.get(n))
                        .is_some_and(|&first| first != sym)
                });
                maps.lost.get(k).copied().unwrap_or(false)
                    || shadowed
                    || sym.is_some_and(|sym| st.sym(sym).removed())
            };
            let ranges = register_entries(block)?;
            let mut out: Option<Vec<u8>> = None;
            for (name, fields) in ranges {
                if fields.is_empty() {
                    continue;
                }
                if gone(name) {
                    let bytes = out.get_or_insert_with(|| block.to_vec());
                    for (_, at) in fields {
                        bytes[at..at + 8].fill(0);
                    }
                    continue;
                }
                // A weak function a later copy replaced: the finalizer describes it once, at
                // its first record, from that record's Mercury twin with Mercury offsets read
                // in the winner's code; an entry it cannot place, and every later record, is
                // zeroed (observed on sm_100, `-G` objects and ptxas -g ones).
                let Some(sym) = functions
                    .get(name)
                    .and_then(|&k| maps.sym.get(k).copied().flatten())
                    .filter(|sym| st.weak_first_input.contains_key(sym))
                else {
                    continue;
                };
                let winner = st.sym(sym).input();
                let first = seen.insert(sym);
                if first && winner == n.input() {
                    continue;
                }
                let place = if first {
                    let twin = register_record(obj, b".nv.merc.nv_debug_info_reg_sass", name);
                    let pairs = inputs
                        .get(winner)
                        .map(|w| merc_sass_pairs(w, name))
                        .unwrap_or_default();
                    twin.map(|twin| (twin, pairs))
                } else {
                    None
                };
                let bytes = out.get_or_insert_with(|| block.to_vec());
                for (i, &(reg, at)) in fields.iter().enumerate() {
                    let value = place.as_ref().and_then(|(twin, pairs)| {
                        let k = fields[..i].iter().filter(|f| f.0 == reg).count();
                        let &(_, ms, me) = twin.iter().filter(|t| t.0 == reg).nth(k)?;
                        Some((merc_to_sass(pairs, ms)?, merc_to_sass(pairs, me)?))
                    });
                    let (start, end) = value
                        .and_then(|(s, e)| Some((u32::try_from(s).ok()?, u32::try_from(e).ok()?)))
                        .unwrap_or((0, 0));
                    bytes[at..at + 4].copy_from_slice(&start.to_le_bytes());
                    bytes[at + 4..at + 8].copy_from_slice(&end.to_le_bytes());
                }
            }
            out
        });
        cleared.push(new);
    }
    if cleared.iter().all(Option::is_none) {
        return;
    }
    let bump = st.bump;
    st.relayout_nodes(sec, |k, _| {
        cleared[k].as_ref().map(|b| &*bump.alloc_slice_copy(b))
    });
}

/// The functions of a `.nv_debug_info_reg_sass` block: each one's name and the offsets of its
/// entries' (start, end) pairs; `None` if the block does not parse.
fn register_ranges(d: &[u8]) -> Option<Vec<(&[u8], Vec<usize>)>> {
    Some(
        register_entries(d)?
            .into_iter()
            .map(|(name, entries)| (name, entries.into_iter().map(|(_, at)| at).collect()))
            .collect(),
    )
}

/// A `.nv_debug_info_reg_sass` block read: per function, its name and, per entry, its register
/// name and where its (start, end) pair sits.
type RegisterRecords<'d> = Vec<(&'d [u8], Vec<(&'d [u8], usize)>)>;

/// The functions of a `.nv_debug_info_reg_sass` block: each one's name and, per entry, its
/// register name and the offset of its (start, end) pair; `None` if the block does not parse.
fn register_entries(d: &[u8]) -> Option<RegisterRecords<'_>> {
    let cstr = |at: usize| -> Option<usize> {
        let len = d.get(at..)?.iter().position(|&b| b == 0)?;
        Some(at + len + 1)
    };
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(d.get(at..at + 4)?.try_into().ok()?))
    };
    let mut out = Vec::new();
    let mut at = 0;
    while at < d.len() {
        let name_end = cstr(at)?;
        let name = &d[at..name_end - 1];
        let count = word(name_end)? as usize;
        let mut o = name_end + 4;
        // Each entry takes at least 17 bytes: the count cannot promise more than that.
        if count > d.len().saturating_sub(o) / 17 {
            return None;
        }
        let mut fields = Vec::with_capacity(count);
        for _ in 0..count {
            let reg = o + 4;
            o = cstr(reg)?;
            word(o + 8)?;
            fields.push((&d[reg..o - 1], o + 4));
            o += 12;
        }
        out.push((name, fields));
        at = o;
    }
    Some(out)
}

/// The entries of function `func`'s record in section `section` of `obj` (a
/// `.nv_debug_info_reg_sass` or its Mercury twin): (register name, start, end) each.
fn register_record<'d>(
    obj: &InputObject<'d>,
    section: &[u8],
    func: &[u8],
) -> Option<Vec<(&'d [u8], u64, u64)>> {
    let d = obj
        .elf
        .section_data(obj.elf.section_by_name(section)?)
        .ok()?;
    let (_, fields) = register_entries(d)?.into_iter().find(|(n, _)| *n == func)?;
    fields
        .into_iter()
        .map(|(reg, at)| {
            let word = |o: usize| Some(u32::from_le_bytes(d.get(o..o + 4)?.try_into().ok()?));
            Some((reg, u64::from(word(at)?), u64::from(word(at + 4)?)))
        })
        .collect()
}

/// (Mercury offset, SASS offset) pairs known to name the same instruction boundary in function
/// `func`'s code as input `obj` has it: the start, its register ranges (each entry of its
/// `.nv_debug_info_reg_sass` record against the same register's entry in the Mercury twin), and
/// the rows of its `.debug_frame` FDE against the Mercury FDE's. Ascending; just the start when
/// they disagree.
pub(super) fn merc_sass_pairs(obj: &InputObject<'_>, func: &[u8]) -> Vec<(u64, u64)> {
    let mut pairs = vec![(0, 0)];
    let sass = register_record(obj, b".nv_debug_info_reg_sass", func);
    let merc = register_record(obj, b".nv.merc.nv_debug_info_reg_sass", func);
    if let (Some(sass), Some(merc)) = (sass, merc) {
        for (i, &(reg, start, end)) in sass.iter().enumerate() {
            let k = sass[..i].iter().filter(|e| e.0 == reg).count();
            if let Some(&(_, ms, me)) = merc.iter().filter(|e| e.0 == reg).nth(k) {
                pairs.extend([(ms, start), (me, end)]);
            }
        }
    }
    pairs.extend(frame_pairs(obj, func).unwrap_or_default());
    pairs.sort_unstable();
    pairs.dedup();
    if pairs.windows(2).any(|w| w[0].0 == w[1].0) {
        return vec![(0, 0)];
    }
    pairs
}

/// The rows of function `func`'s FDE in `obj`'s `.debug_frame` against its Mercury twin's, as
/// (Mercury, SASS) locations.
fn frame_pairs(obj: &InputObject<'_>, func: &[u8]) -> Option<Vec<(u64, u64)>> {
    let data = |name: &[u8]| obj.elf.section_data(obj.elf.section_by_name(name)?).ok();
    let (sass, merc) = (data(b".debug_frame")?, data(b".nv.merc.debug_frame")?);
    let rela = obj.elf.section_by_name(b".rela.debug_frame")?;
    let (se, me) = (
        mercury::frame_entries(sass).ok()?,
        mercury::frame_entries(merc).ok()?,
    );
    let names: Vec<u32> = obj
        .elf
        .relocations(rela)
        .ok()?
        .filter(|r| {
            obj.elf
                .symbol(r.sym)
                .is_ok_and(|s| s.name == func && s.info & 0xf == STT_FUNC)
        })
        .filter_map(|r| u32::try_from(r.offset).ok())
        .collect();
    let i = se.iter().position(|e| {
        !e.is_cie() && e.length_size == 12 && names.contains(&((e.offset + 20) as u32))
    })?;
    let j = merc_frame_twin(obj, &se, &me, i)?;
    fn entry<'a>(d: &'a [u8], e: &mercury::FrameEntry) -> Option<&'a [u8]> {
        d.get(e.offset..e.offset + e.size)
    }
    let rows = |d: &[u8], entries: &[mercury::FrameEntry], i: usize| {
        let c = (0..i).rev().find(|&c| entries[c].is_cie())?;
        let align = mercury::cie_code_align(entry(d, &entries[c])?)?;
        mercury::frame_rows(mercury::fde_program(entry(d, &entries[i])?), align).ok()
    };
    let (s, m) = (rows(sass, &se, i)?, rows(merc, &me, j)?);
    (s.len() == m.len()).then(|| {
        m.iter()
            .map(|r| r.loc)
            .zip(s.iter().map(|r| r.loc))
            .collect()
    })
}

/// The index among `merc` (the entries of `obj`'s `.nv.merc.debug_frame`) of the Mercury twin
/// of FDE `i` among `sass` (the entries of its `.debug_frame`). The same index when both
/// tables hold as many entries (ptxas's objects). Otherwise (an nvlink `-r` image: its Mercury
/// table keeps the FDEs of the weak copies the link replaced, without their relocations, where
/// its SASS table dropped them) the Mercury FDE whose initial-location relocation names the
/// symbol the SASS FDE's names (`.nv.merc.symtab` is index-aligned with `.symtab`), the
/// first such one after as many of them as SASS FDEs before `i` name it.
pub(super) fn merc_frame_twin(
    obj: &InputObject<'_>,
    sass: &[mercury::FrameEntry],
    merc: &[mercury::FrameEntry],
    i: usize,
) -> Option<usize> {
    if sass.len() == merc.len() {
        return Some(i);
    }
    // The symbol index each FDE's initial location is relocated against, by the location's
    // offset in the section (64-bit DWARF: 12-byte length, 8-byte CIE pointer).
    let targets = |name: &[u8]| -> Option<FxHashMap<u64, u32>> {
        let d = obj.elf.section_data(obj.elf.section_by_name(name)?).ok()?;
        Some(
            d.chunks_exact(24)
                .map(|r| {
                    let word =
                        |o: usize| u64::from_le_bytes(r[o..o + 8].try_into().unwrap_or([0; 8]));
                    (word(0), (word(8) >> 32) as u32)
                })
                .collect(),
        )
    };
    let (st, mt) = (
        targets(b".rela.debug_frame")?,
        targets(b".nv.merc.rela.debug_frame")?,
    );
    let sym_of = |targets: &FxHashMap<u64, u32>, e: &mercury::FrameEntry| {
        (!e.is_cie() && e.length_size == 12)
            .then(|| targets.get(&(e.offset as u64 + 20)).copied())
            .flatten()
    };
    let sym = sym_of(&st, sass.get(i)?)?;
    let k = sass[..i]
        .iter()
        .filter(|e| sym_of(&st, e) == Some(sym))
        .count();
    merc.iter()
        .enumerate()
        .filter(|(_, e)| sym_of(&mt, e) == Some(sym))
        .nth(k)
        .map(|(j, _)| j)
}

/// The SASS offset of Mercury offset `m` in a function's code, given pairs of (Mercury, SASS)
/// offsets known to match (ascending, starting at (0, 0)): a known one, or one between two
/// known ones whose Mercury distance is twice the SASS distance (every instruction between is
/// 32 bytes in Mercury, 16 in SASS) on a 32-byte boundary. `None` when elfw cannot tell (the
/// finalizer reads Mercury offsets through the code's instruction table; one that is no
/// instruction boundary does not map).
pub(super) fn merc_to_sass(pairs: &[(u64, u64)], m: u64) -> Option<u64> {
    if let Some(&(_, s)) = pairs.iter().find(|p| p.0 == m) {
        return Some(s);
    }
    let i = pairs.partition_point(|p| p.0 < m);
    let (m0, s0) = *pairs.get(i.checked_sub(1)?)?;
    let (m1, s1) = *pairs.get(i)?;
    (m1 - m0 == 2 * s1.checked_sub(s0)? && (m - m0) % 32 == 0).then(|| s0 + (m - m0) / 2)
}

/// Where each Mercury instruction of function `func` starts in `obj`'s code, as (Mercury
/// offset, SASS offset) per instruction in capsule order, read from its
/// `.nv.capmerc.text.<func>` capsule: a stored instruction takes its record's size (16 bytes
/// for a record whose first byte is 1, 32 for 2); one the capsule leaves out (or keeps in short
/// form without its size) takes the size its SASS instruction's opcode gives ([`merc_size`]). `None` when the
/// capsule does not walk.
///
/// Only an estimate: the finalizer's own instruction table is not in the input. Callers check
/// it against the offsets the input pins before trusting it (see [`merc_placer`]).
fn merc_layout(obj: &InputObject<'_>, func: &[u8]) -> Option<Vec<(u64, u64)>> {
    let section = |prefix: &[u8]| {
        let name = [prefix, func].concat();
        obj.elf.section_data(obj.elf.section_by_name(&name)?).ok()
    };
    let (cap, text) = (section(b".nv.capmerc.text.")?, section(b".text.")?);
    let h = mercury::capsule_header(cap).ok()?;
    let slots = h.slots as usize;
    let bitmap = cap.get(12..12 + slots.div_ceil(8))?;
    let omitted = |i: usize| bitmap[i / 8] >> (i % 8) & 1 == 1;
    let opcode = |sass: usize| -> Option<u16> {
        let b = text.get(sass * 16..sass * 16 + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]) & 0xfff)
    };
    let sm = obj.elf.header().flags >> 8 & 0xffff;
    let mut at = 12 + slots.div_ceil(8).div_ceil(4) * 4;
    let (mut merc, mut sass) = (0u64, 0usize);
    let mut out = Vec::with_capacity(slots);
    for i in 0..slots {
        out.push((merc, sass as u64 * 16));
        if i + 1 == slots {
            break;
        }
        if omitted(i) {
            merc += merc_size(opcode(sass)?, sm);
            sass += 1;
            continue;
        }
        let mut count = 1;
        let mut whole = false;
        while let Some(&b) = cap.get(at) {
            if b & 0x7f != 0x50 && b & 0x7f != 0x51 {
                break;
            }
            count = (u16::from_le_bytes([b, *cap.get(at + 1)?]) >> 7) as usize;
            whole = b & 0x7f == 0x50;
            at += 2;
        }
        let size = if whole {
            merc_size(opcode(sass)?, sm)
        } else {
            let (len, size) = match *cap.get(at)? {
                1 => (16, 16),
                2 => (32, 32),
                // A short record: its first byte is the whole record's with bit 0x40 set.
                0x41 => (4, 16),
                0x42 => (4, 32),
                _ => (4, merc_size(opcode(sass)?, sm)),
            };
            at += len;
            size
        };
        merc += size;
        sass += count;
    }
    Some(out)
}

/// The size of the Mercury instruction a SASS instruction with opcode field `op` (the low 12
/// bits of its first word) comes from, where the capsule does not store it: 16 bytes for the
/// register forms (0x2xx, 0x3xx) and the 0x9xx group, 32 for the immediate and constant forms,
/// with the exceptions observed (reg_sass/FDE rows against their Mercury twins; the immediate
/// `IMAD.WIDE` 0x825 takes 48 on sm_100, 32 on sm_120: fresh program p97).
fn merc_size(op: u16, sm: u32) -> u64 {
    match op {
        0x825 if sm < 120 => 48,
        0x825 => 32,
        0x223 | 0x227 | 0x22b | 0x343 | 0x947 => 32,
        0x802 => 16,
        _ => match op >> 8 {
            2 | 3 | 9 => 16,
            _ => 32,
        },
    }
}

/// Mercury → SASS offsets in function `func`'s code as input `obj` has it: the pairs the input
/// pins ([`merc_sass_pairs`], [`merc_to_sass`]) and, for an offset they do not place, the
/// capsule's instruction layout ([`merc_layout`]) when it agrees with every pinned pair.
pub(super) fn merc_placer(obj: &InputObject<'_>, func: &[u8]) -> impl Fn(u64) -> Option<u64> {
    let pairs = merc_sass_pairs(obj, func);
    let layout = merc_layout(obj, func)
        .filter(|l| pairs.len() > 1 && pairs.iter().all(|p| l.binary_search(p).is_ok()));
    move |m| {
        merc_to_sass(&pairs, m).or_else(|| {
            let l = layout.as_ref()?;
            let i = l.binary_search_by_key(&m, |p| p.0).ok()?;
            Some(l[i].1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::merc_to_sass;

    /// The -g copy of `shared_weak` (sm100_weak_ptx_target_debug's winner): Mercury
    /// `MOV`(16) `IMAD`(32) `IADD3`(32) `MOV`(16) `RET`(32), pinned at 0, 0x10, 0x30 and 0x60.
    #[test]
    fn mercury_offsets_read_in_the_code() {
        let pairs = [(0, 0), (0x10, 0x10), (0x30, 0x20), (0x60, 0x40)];
        assert_eq!(merc_to_sass(&pairs, 0x30), Some(0x20));
        // Inside the IADD3, or in a span of mixed sizes: not placed.
        assert_eq!(merc_to_sass(&pairs, 0x40), None);
        // Past the last known boundary: not placed.
        assert_eq!(merc_to_sass(&pairs, 0x80), None);
        // A span of 32-byte instructions only: every 32 bytes is a boundary.
        let even = [(0, 0), (0x60, 0x30)];
        assert_eq!(merc_to_sass(&even, 0x20), Some(0x10));
        assert_eq!(merc_to_sass(&even, 0x40), Some(0x20));
        assert_eq!(merc_to_sass(&even, 0x30), None);
    }
}
