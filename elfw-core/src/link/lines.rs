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
/// register ranges of the functions not in the image (see [`clear_register_ranges`]).
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
            let ranges = register_ranges(block)?;
            let mut out: Option<Vec<u8>> = None;
            for (name, fields) in ranges {
                if fields.is_empty() || !gone(name) {
                    continue;
                }
                let bytes = out.get_or_insert_with(|| block.to_vec());
                for at in fields {
                    bytes[at..at + 8].fill(0);
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
            o = cstr(o + 4)?;
            word(o + 8)?;
            fields.push(o + 4);
            o += 12;
        }
        out.push((name, fields));
        at = o;
    }
    Some(out)
}
