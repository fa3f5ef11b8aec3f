//! Remap tables after dead-code elimination (seed 01, "Symbol Index Remapping") and the
//! compaction that carries the arena from the [`Merged`] space into the [`Output`] space.
//!
//! A [`Remap`] is one old→new table for one index family: slot 0 and deleted slots hold 0,
//! kept slots are numbered `1..=n` in their old order (nvlink's `symbol_index_mapping` and
//! `neg_symbol_index_mapping`, one per sign). Looking up a deleted symbol is
//! [`ArenaError::DeletedSymbol`], nvlink's "reference to deleted symbol".

use core::marker::PhantomData;

use super::error::ArenaError;
use super::index::{
    DataNodeIdx, GlobalIdx, LocalIdx, Merged, MergedIndex, Output, SectionIdx, SymIdx, SymKind,
};
use super::names::NameTable;
use super::sections::{NodeColumns, Section, SectionColumns};
use super::symbols::{fits_shndx, ExtendedIndices, SymSection, Symbol, SymbolColumns};
use super::Arena;
use crate::elf::consts::SHN_XINDEX;

/// Old → new numbering of one index family of the merged arena (locals, globals or sections).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Remap<I: MergedIndex> {
    /// New slot by old slot; 0 for slot 0 and for deleted slots.
    table: Vec<u32>,
    kept: u32,
    _index: PhantomData<fn(I) -> I::Output>,
}

impl<I: MergedIndex> Remap<I> {
    /// A table over old slots `1..slots` keeping those `keep` accepts, numbered `1..=n` in order.
    pub(crate) fn from_keep(slots: usize, mut keep: impl FnMut(I) -> bool) -> Self {
        let mut table = Vec::with_capacity(slots.max(1));
        table.push(0);
        let mut kept = 0u32;
        for slot in 1..slots as u32 {
            if I::merged_from_slot(slot).is_some_and(&mut keep) {
                kept += 1;
                table.push(kept);
            } else {
                table.push(0);
            }
        }
        Remap {
            table,
            kept,
            _index: PhantomData,
        }
    }

    /// The new index of `old`, or `None` if it was deleted (or is not covered by this table).
    pub fn get(&self, old: I) -> Option<I::Output> {
        let new = *self.table.get(old.slot_of() as usize)?;
        I::output_from_slot(new)
    }

    /// Number of kept indices (the new indices are `1..=kept`).
    pub fn kept(&self) -> usize {
        self.kept as usize
    }

    /// Number of old indices covered (sentinel excluded).
    pub fn old_len(&self) -> usize {
        self.table.len() - 1
    }

    /// Every old index with its new index (`None` when deleted), in old order.
    pub fn iter(&self) -> impl Iterator<Item = (I, Option<I::Output>)> + '_ {
        self.table
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(slot, &new)| {
                Some((I::merged_from_slot(slot as u32)?, I::output_from_slot(new)))
            })
    }

    fn slots(&self) -> usize {
        self.table.len()
    }

    fn new_slot(&self, old_pos: usize) -> u32 {
        self.table.get(old_pos).copied().unwrap_or(0)
    }
}

/// The symbol remap: one table per sign.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SymRemap {
    /// Positive array: old local slot → new local slot.
    pub locals: Remap<LocalIdx<Merged>>,
    /// Negative array: old global slot → new global slot.
    pub globals: Remap<GlobalIdx<Merged>>,
}

impl SymRemap {
    /// The output index of merged symbol `old`; [`ArenaError::DeletedSymbol`] if dead-code
    /// elimination deleted it.
    pub fn get(&self, old: SymIdx<Merged>) -> Result<SymIdx<Output>, ArenaError<Output>> {
        let new = match old.kind() {
            SymKind::Local(l) => self.locals.get(l).map(SymIdx::from),
            SymKind::Global(g) => self.globals.get(g).map(SymIdx::from),
        };
        new.ok_or(ArenaError::DeletedSymbol { old })
    }
}

/// Everything dead-code elimination decided: which symbols survive and, optionally, which
/// sections (`None` keeps every section with its number).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DceRemap {
    /// The symbol tables.
    pub symbols: SymRemap,
    /// The section table, if sections are deleted too.
    pub sections: Option<Remap<SectionIdx<Merged>>>,
}

impl<'a> Arena<'a, Merged> {
    /// A symbol remap keeping the symbols `keep` accepts (it sees every record, emptied ones
    /// included). Kept symbols are numbered `1..=n` per sign in array order.
    pub fn remap_symbols(
        &self,
        mut keep: impl FnMut(SymIdx<Merged>, &Symbol<'a, Merged>) -> bool,
    ) -> SymRemap {
        let locals = Remap::from_keep(self.locals.len(), |l: LocalIdx<Merged>| {
            let idx = SymIdx::from(l);
            self.get_symbol(idx).is_some_and(|s| keep(idx, &s))
        });
        let globals = Remap::from_keep(self.globals.len(), |g: GlobalIdx<Merged>| {
            let idx = SymIdx::from(g);
            self.get_symbol(idx).is_some_and(|s| keep(idx, &s))
        });
        SymRemap { locals, globals }
    }

    /// A section remap keeping the sections `keep` accepts, numbered `1..=n` in order.
    pub fn remap_sections(
        &self,
        mut keep: impl FnMut(SectionIdx<Merged>, &Section<'a, Merged>) -> bool,
    ) -> Remap<SectionIdx<Merged>> {
        Remap::from_keep(self.sections.len(), |s: SectionIdx<Merged>| {
            self.get_section(s).is_some_and(|sec| keep(s, &sec))
        })
    }

    /// Dead-code elimination's compaction: the arena in the output space, holding the kept
    /// symbols (and sections) renumbered by `remap`, with the extended section indices, the
    /// name maps, the callgraph and the data-node lists carried over. Names of deleted symbols
    /// leave the name map; data nodes keep their bytes but lose a deleted source symbol.
    ///
    /// Errors: a remap built for another arena ([`ArenaError::RemapMismatch`]), or a kept
    /// symbol in a deleted section ([`ArenaError::DeletedSection`]).
    pub fn eliminate(self, remap: &DceRemap) -> Result<Arena<'a, Output>, ArenaError<Output>> {
        let syms = &remap.symbols;
        if syms.locals.slots() != self.locals.len()
            || syms.globals.slots() != self.globals.len()
            || remap
                .sections
                .as_ref()
                .is_some_and(|s| s.slots() != self.sections.len())
        {
            return Err(ArenaError::RemapMismatch);
        }
        let section_of = |old: SymIdx<Merged>, raw: u32| -> Result<u32, ArenaError<Output>> {
            match (&remap.sections, SymSection::<Merged>::from_raw(raw)) {
                (Some(table), SymSection::Index(section)) => table
                    .get(section)
                    .map(|s| s.slot())
                    .ok_or(ArenaError::DeletedSection {
                        symbol: old,
                        section,
                    }),
                _ => Ok(raw),
            }
        };

        // Resolve every kept symbol's section before moving anything.
        let mut xindex = ExtendedIndices::default();
        let mut locals = SymbolColumns::with_sentinel(syms.locals.kept());
        let mut globals = SymbolColumns::with_sentinel(syms.globals.kept());
        let local_idx = |slot| LocalIdx::<Merged>::from_slot(slot).map(SymIdx::from);
        let global_idx = |slot| GlobalIdx::<Merged>::from_slot(slot).map(SymIdx::from);
        compact_symbols(
            &self,
            &self.locals,
            &syms.locals,
            local_idx,
            &mut locals,
            |old, new_slot, raw| {
                let raw = section_of(old, raw)?;
                if !fits_shndx(raw) {
                    if let Some(l) = LocalIdx::<Output>::from_slot(new_slot) {
                        xindex.store(SymKind::Local(l), raw);
                    }
                }
                Ok(raw)
            },
        )?;
        compact_symbols(
            &self,
            &self.globals,
            &syms.globals,
            global_idx,
            &mut globals,
            |old, new_slot, raw| {
                let raw = section_of(old, raw)?;
                if !fits_shndx(raw) {
                    if let Some(g) = GlobalIdx::<Output>::from_slot(new_slot) {
                        xindex.store(SymKind::Global(g), raw);
                    }
                }
                Ok(raw)
            },
        )?;

        let map_sym = |old: SymIdx<Merged>| syms.get(old).ok();
        let map_section = |old: SectionIdx<Merged>| match &remap.sections {
            Some(table) => table.get(old),
            None => SectionIdx::from_slot(old.slot()),
        };
        let symbol_names = self
            .symbol_names
            .filter_map(NameTable::for_symbols(), map_sym);
        let section_names = self
            .section_names
            .filter_map(NameTable::for_sections(), map_section);
        let callgraph = self
            .callgraph
            .iter()
            .map(|node| node.and_then(map_sym))
            .collect();
        let (sections, nodes) = compact_sections(
            &self.sections,
            &self.nodes,
            remap.sections.as_ref(),
            map_sym,
        );

        Ok(Arena {
            symbol_names,
            section_names,
            distinct_names: self.distinct_names,
            locals,
            globals,
            xindex,
            callgraph,
            callgraph_complete: self.callgraph_complete,
            sections,
            nodes,
        })
    }
}

/// Copies the kept rows of `from` into `to` (which holds only the sentinel) in order;
/// `section` maps (old index, new slot, old raw section) to the new raw section.
fn compact_symbols<'a>(
    arena: &Arena<'a, Merged>,
    from: &SymbolColumns<'a>,
    table: &Remap<impl MergedIndex>,
    index: impl Fn(u32) -> Option<SymIdx<Merged>>,
    to: &mut SymbolColumns<'a>,
    mut section: impl FnMut(SymIdx<Merged>, u32, u32) -> Result<u32, ArenaError<Output>>,
) -> Result<(), ArenaError<Output>> {
    for pos in 1..from.len() {
        let new_slot = table.new_slot(pos);
        let Some(mut row) = from.get(pos) else { break };
        if new_slot == 0 {
            continue;
        }
        let old = index(pos as u32).ok_or(ArenaError::RemapMismatch)?;
        let raw = section(old, new_slot, arena.raw_section(old, &row))?;
        row.shndx = if fits_shndx(raw) {
            raw as u16
        } else {
            SHN_XINDEX
        };
        to.push(row);
    }
    Ok(())
}

/// The kept sections renumbered, each with its data-node list rebuilt in list order.
fn compact_sections<'a>(
    from: &SectionColumns<'a, Merged>,
    nodes: &NodeColumns<'a, Merged>,
    table: Option<&Remap<SectionIdx<Merged>>>,
    map_sym: impl Fn(SymIdx<Merged>) -> Option<SymIdx<Output>>,
) -> (SectionColumns<'a, Output>, NodeColumns<'a, Output>) {
    let kept = table.map_or(from.len() - 1, Remap::kept);
    let mut sections = SectionColumns::<Output>::with_sentinel(kept);
    let mut out_nodes = NodeColumns::<Output>::with_sentinel(nodes.len());
    for pos in 1..from.len() {
        let keep = table.is_none_or(|t| t.new_slot(pos) != 0);
        let Some(old) = from.get(pos) else { break };
        if !keep {
            continue;
        }
        sections.push_section(&old);
        let new_pos = sections.len() - 1;
        let mut cursor = old.first_node;
        let mut head = None;
        let mut tail: Option<DataNodeIdx<Output>> = None;
        while let Some(n) = cursor.and_then(|c| nodes.get(c.pos())) {
            let Some(idx) = DataNodeIdx::<Output>::from_slot(out_nodes.len() as u32) else {
                break;
            };
            out_nodes.push(n.source.and_then(&map_sym), n.offset, n.alignment, n.data);
            match tail {
                Some(t) => out_nodes.next[t.pos()] = Some(idx),
                None => head = Some(idx),
            }
            tail = Some(idx);
            cursor = n.next;
        }
        sections.head[new_pos] = head;
        sections.tail[new_pos] = tail;
    }
    (sections, out_nodes)
}

impl<'a> Arena<'a, Output> {
    /// Tier 3 of seed 01's section resolution: a merged-space symbol's section after
    /// dead-code elimination — remap `old`, then read the output record (and its extended
    /// index). [`ArenaError::DeletedSymbol`] if `old` was deleted.
    pub fn section_of_merged(
        &self,
        remap: &SymRemap,
        old: SymIdx<Merged>,
    ) -> Result<SymSection<Output>, ArenaError<Output>> {
        let new = remap.get(old)?;
        Ok(self.section_of(new))
    }
}
