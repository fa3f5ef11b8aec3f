//! The arena: nvlink's output-ELF state (the "elfw" context's symbol, section and data-node
//! stores) as struct-of-arrays columns addressed by typed indices.
//!
//! # Contract
//!
//! - **Symbols** live in two arrays, as in nvlink (seed 01, "Positive/Negative Index Scheme"):
//!   `STB_GLOBAL` symbols in the negative array ([`GlobalIdx`], nvlink's `-n`), every other
//!   binding — locals, section symbols, weak symbols — in the positive array ([`LocalIdx`]).
//!   Slot 0 of both is a sentinel, so [`SymIdx`] (built only from the two) is never 0 and
//!   `Option<SymIdx>` is four bytes. [`locals`](Arena::locals) and [`globals`](Arena::globals)
//!   walk the arrays in order without allocating: the `.symtab` writer's two passes.
//! - **Names** are copied once per distinct name into the caller's [`Bump`](bumpalo::Bump) and
//!   found through [`elfw_hash::NameMap`] with nvlink's geometry. A symbol name maps to the
//!   record that currently owns it; [`distinct_names`](Arena::distinct_names) is nvlink's
//!   counter of names ever registered.
//! - **Adding a symbol** ([`add_symbol`](Arena::add_symbol)) follows nvlink's rules (seed 01,
//!   "Global Symbol Addition"; seed 02, "Resolution Rules Matrix"), see [`Added`]: fresh
//!   insertion, upgrade in place of an undefined global, weak replaced by strong (old record
//!   emptied, name re-pointed), weak against weak left to the caller, strong against strong an
//!   error value. Function symbols get an ordinal and a callgraph node slot; no function is
//!   accepted once the callgraph is complete. Nothing panics on bad input.
//! - **Extended section indices**: a symbol whose section number is above `0xFEFF` and not
//!   `SHN_COMMON` stores `st_shndx = 0xFFFF` and keeps the number in nvlink's side arrays, by
//!   local slot ("merged array") or global slot ("extended store"). Reading resolves the three
//!   tiers: direct; the side arrays; and, for an index from before dead-code elimination,
//!   remap then side array ([`Arena::section_of_merged`]).
//! - **Index spaces**: the arena is built in the [`Merged`] space. Dead-code elimination builds
//!   a [`SymRemap`] (and optionally a section [`Remap`]) from "keep" predicates and
//!   [`eliminate`](Arena::eliminate) consumes the merged arena, returning one in the [`Output`]
//!   space with kept records numbered `1..=n` per array in their old order. Merged indices do
//!   not type-check against the output arena; they cross only through a remap, and a deleted
//!   one yields [`ArenaError::DeletedSymbol`] ("reference to deleted symbol").
//! - **Sections and data nodes** (seed 04): section records in creation order, each with a
//!   list of data nodes that borrow their bytes ([`NodeData`]) instead of copying them.
//! - Every operation is a method on a value: no global or thread-local state, and the arena is
//!   `Send + Sync` so later phases may read it from rayon workers. No raw integer index leaves
//!   the crate.

mod add;
mod error;
mod index;
mod names;
mod remap;
mod sections;
mod symbols;

#[cfg(test)]
mod tests;

pub use add::{Added, NewSymbol};
pub use error::ArenaError;
pub use index::{
    Binding, DataNodeIdx, FuncOrdinal, GlobalIdx, LocalIdx, Merged, Output, SectionIdx, Space,
    SymIdx, SymKind,
};
pub use remap::{DceRemap, Remap, SymRemap};
pub use sections::{DataNode, NewDataNode, NewSection, NodeData, Section};
pub use symbols::{SymSection, Symbol};

use names::NameTable;
use sections::{NodeColumns, SectionColumns};
use symbols::{ExtendedIndices, SymbolColumns};

/// Expected sizes, so bulk building reserves every column once.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Capacity {
    /// Records of the positive array (locals, section symbols, weak symbols).
    pub locals: usize,
    /// Records of the negative array (globals).
    pub globals: usize,
    /// Sections.
    pub sections: usize,
    /// Data nodes.
    pub data_nodes: usize,
    /// Function symbols.
    pub functions: usize,
}

/// The linker's output-ELF state in index space `S`; see the [module documentation](self).
///
/// `'a` is the lifetime of the interned names (the caller's bump arena) and of the bytes data
/// nodes borrow (mapped inputs).
#[derive(Clone, Debug)]
pub struct Arena<'a, S: Space = Merged> {
    symbol_names: NameTable<'a, SymIdx<S>>,
    section_names: NameTable<'a, SectionIdx<S>>,
    distinct_names: u32,
    locals: SymbolColumns<'a>,
    globals: SymbolColumns<'a>,
    xindex: ExtendedIndices,
    /// Callgraph node slots by function ordinal (slot 0 unused): the symbol registered there.
    callgraph: Vec<Option<SymIdx<S>>>,
    callgraph_complete: bool,
    sections: SectionColumns<'a, S>,
    nodes: NodeColumns<'a, S>,
}

impl<'a> Arena<'a, Merged> {
    /// An empty arena: the sentinels in place, nvlink's map geometries.
    pub fn new() -> Self {
        Self::with_capacity(Capacity::default())
    }

    /// An empty arena whose columns have room for `capacity`.
    pub fn with_capacity(capacity: Capacity) -> Self {
        let mut callgraph = Vec::with_capacity(capacity.functions.saturating_add(1));
        callgraph.push(None);
        Arena {
            symbol_names: NameTable::for_symbols(),
            section_names: NameTable::for_sections(),
            distinct_names: 0,
            locals: SymbolColumns::with_sentinel(capacity.locals),
            globals: SymbolColumns::with_sentinel(capacity.globals),
            xindex: ExtendedIndices::default(),
            callgraph,
            callgraph_complete: false,
            sections: SectionColumns::with_sentinel(capacity.sections),
            nodes: NodeColumns::with_sentinel(capacity.data_nodes),
        }
    }
}

impl Default for Arena<'_, Merged> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Space> Arena<'_, S> {
    /// Reserves room for `additional` more symbols in each array.
    pub fn reserve_symbols(&mut self, locals: usize, globals: usize) {
        self.locals.reserve(locals);
        self.globals.reserve(globals);
    }
}
