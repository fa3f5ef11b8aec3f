//! What the arena refuses, as values (nvlink's internal assertions become errors here).

use super::index::{Merged, SectionIdx, Space, SymIdx};

/// An arena operation that nvlink would have stopped at.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ArenaError<S: Space = Merged> {
    /// A strong global definition met an existing strong global of the same name (nvlink's
    /// internal "adding global symbols of same name"; the user-facing message is "multiple
    /// definition", which the merge phase words).
    #[error("adding global symbols of same name (existing symbol {existing})")]
    DuplicateGlobal {
        /// The definition already in the arena.
        existing: SymIdx<S>,
    },
    /// A function symbol was added after the callgraph was marked complete.
    #[error("adding function after callgraph completed")]
    FunctionAfterCallgraph,
    /// An executable section was added after the callgraph was marked complete.
    #[error("adding function section after callgraph completed")]
    FunctionSectionAfterCallgraph,
    /// A store outgrew what a signed 32-bit index can address.
    #[error("too many {0}: the index no longer fits a signed 32-bit value")]
    TooMany(&'static str),
    /// An index that does not address a record of this arena.
    #[error("symbol {0} is not in this arena")]
    NoSuchSymbol(SymIdx<S>),
    /// A merged-space symbol that dead-code elimination deleted was looked up.
    #[error("reference to deleted symbol {old}")]
    DeletedSymbol {
        /// The merged-space index.
        old: SymIdx<Merged>,
    },
    /// A kept symbol lies in a section that dead-code elimination deleted.
    #[error("symbol {symbol} refers to deleted section {section}")]
    DeletedSection {
        /// The merged-space symbol.
        symbol: SymIdx<Merged>,
        /// The deleted merged-space section.
        section: SectionIdx<Merged>,
    },
    /// A remap that was not built for this arena (its tables are shorter than the stores).
    #[error("the remap was built for a different arena")]
    RemapMismatch,
}
