//! Symbol addition with nvlink's semantics (seed 01, "Global Symbol Addition", the twelve
//! phases of `elfw_add_symbol`; seed 02, "Resolution Rules Matrix").
//!
//! The outcome of each existing/incoming pair:
//!
//! | existing \ incoming | local | global def | weak def | undefined |
//! |---|---|---|---|---|
//! | none | insert (+) | insert (−) | insert (+) | insert placeholder |
//! | local | insert, re-point | insert, re-point | insert, re-point | insert, re-point |
//! | undefined in − array | insert, re-point | upgrade in place | upgrade in place | bind |
//! | undefined weak in + array | insert, re-point | replace weak | upgrade in place | bind |
//! | strong global | insert, re-point | error: duplicate | strong kept | bind |
//! | weak definition | insert, re-point | replace weak | caller decides | bind |
//!
//! "Error: duplicate" is [`ArenaError::DuplicateGlobal`]; "bind" is
//! [`Added::BoundToExisting`]; "caller decides" is [`Added::ExistingWeak`].
//!
//! "Insert, re-point" is nvlink's low-level rule: a local (or anything meeting a local) gets a
//! fresh record and the name now finds the newest one. Functions get an ordinal and a callgraph
//! node slot whenever a new function record is created or a record becomes a function.

use bumpalo::Bump;
use elfw_hash::{EntryId, NameHash};

use super::error::ArenaError;
use super::index::{Binding, FuncOrdinal, GlobalIdx, LocalIdx, Space, SymIdx, SymKind};
use super::names::intern;
use super::symbols::{Row, SymSection};
use super::Arena;
use crate::elf::consts::STT_FUNC;

/// A symbol to add: the arguments of nvlink's `elfw_add_symbol`, with the section already
/// resolved to this arena's numbering.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NewSymbol<'n, S: Space = super::Merged> {
    /// The name (copied into the bump arena once per distinct name).
    pub name: &'n str,
    /// The `STT_*` type (low nibble of `st_info`).
    pub sym_type: u8,
    /// The binding; it decides the array.
    pub binding: Binding,
    /// `st_other`.
    pub other: u8,
    /// The section (`Undef` for a reference).
    pub section: SymSection<S>,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// For non-function symbols, an ordinal stored as given; functions get the next ordinal.
    pub func_ordinal: Option<FuncOrdinal>,
}

/// What [`Arena::add_symbol`] did. Every variant names the record the symbol's name maps to
/// afterwards ([`Added::index`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Added<S: Space = super::Merged> {
    /// A new record. `shadowed` is the record the name mapped to before, if any (nvlink
    /// re-points the name to the newest record when a local is involved).
    Inserted {
        /// The new record.
        index: SymIdx<S>,
        /// The record the name found before.
        shadowed: Option<SymIdx<S>>,
    },
    /// An undefined record was filled in place by the definition; its index is unchanged.
    Upgraded(SymIdx<S>),
    /// A weak record (or an undefined weak one) lost to a strong global: the old record was
    /// emptied and the name re-pointed to the new global. The caller runs nvlink's cleanup
    /// passes (weak relocations, `.nv.info` entries, constant sections) for `old`.
    ReplacedWeak {
        /// The emptied record.
        old: SymIdx<S>,
        /// The new strong global.
        new: GlobalIdx<S>,
    },
    /// The incoming symbol was an undefined reference; the existing record stands.
    BoundToExisting(SymIdx<S>),
    /// The incoming weak definition lost to an existing strong one; nothing changed.
    KeptStrong(SymIdx<S>),
    /// Weak against weak: nothing changed, the caller picks the winner (nvlink: newer PTX
    /// target, then fewer registers, then first on the command line) and, if the incoming one
    /// wins, calls [`Arena::redefine`].
    ExistingWeak(SymIdx<S>),
}

impl<S: Space> Added<S> {
    /// The record the name maps to after the call.
    pub fn index(self) -> SymIdx<S> {
        match self {
            Added::Inserted { index, .. } => index,
            Added::ReplacedWeak { new, .. } => new.into(),
            Added::Upgraded(i)
            | Added::BoundToExisting(i)
            | Added::KeptStrong(i)
            | Added::ExistingWeak(i) => i,
        }
    }
}

fn pack_info(sym_type: u8, binding: Binding) -> u8 {
    (sym_type & 0xf) | (binding.to_elf() << 4)
}

impl<'a, S: Space> Arena<'a, S> {
    /// Adds a symbol with nvlink's resolution rules (see the module table). Names are copied
    /// into `bump` once; the distinct-name counter counts them.
    ///
    /// Errors: a strong global against a strong global ([`ArenaError::DuplicateGlobal`]), a
    /// function after [`mark_callgraph_complete`](Self::mark_callgraph_complete), or an index
    /// space exhausted. The arena is unchanged on error.
    pub fn add_symbol(
        &mut self,
        bump: &'a Bump,
        new: &NewSymbol<'_, S>,
    ) -> Result<Added<S>, ArenaError<S>> {
        // Phase 3a: no functions once the callgraph is complete.
        if self.callgraph_complete && new.sym_type == STT_FUNC {
            return Err(ArenaError::FunctionAfterCallgraph);
        }
        // Phase 2: duplicate detection by name (hashed once for every probe below).
        let hash = NameHash::of(new.name);
        let Some(entry) = self.symbol_names.find_hashed(hash, new.name) else {
            // Phase 5: a new name.
            let section_key = self
                .section_names
                .find_hashed(hash, new.name)
                .map(|e| e.key);
            let name = intern(bump, new.name, [None, section_key]);
            let index = self.push_symbol(name, new)?;
            self.symbol_names.insert_new_hashed(hash, name, index);
            self.distinct_names += 1;
            return Ok(Added::Inserted {
                index,
                shadowed: None,
            });
        };
        let existing = entry.value;
        let Some(row) = self.row(existing) else {
            return Err(ArenaError::NoSuchSymbol(existing));
        };
        let old = self.view(existing, row);

        if new.binding == Binding::Local || old.binding() == Binding::Local {
            let index = self.push_symbol(entry.key, new)?;
            self.symbol_names.set(entry.id, index);
            return Ok(Added::Inserted {
                index,
                shadowed: Some(existing),
            });
        }
        if new.section.is_undef() {
            return Ok(Added::BoundToExisting(existing));
        }
        if !old.is_defined() {
            return match (existing.kind(), new.binding) {
                // A global must live in the negative array: replace the weak placeholder.
                (SymKind::Local(_), Binding::Global) => {
                    self.replace_weak(existing, entry.id, entry.key, new)
                }
                _ => {
                    self.upgrade(existing, row, new)?;
                    Ok(Added::Upgraded(existing))
                }
            };
        }
        match (old.binding(), new.binding) {
            (Binding::Global, Binding::Global) => Err(ArenaError::DuplicateGlobal { existing }),
            (Binding::Global, _) => Ok(Added::KeptStrong(existing)),
            (_, Binding::Global) => self.replace_weak(existing, entry.id, entry.key, new),
            _ => Ok(Added::ExistingWeak(existing)),
        }
    }

    /// Replaces the definition at `idx` in place with `new`'s type, section, value, size and
    /// `st_other`, keeping its name, index, binding and ordinal — for the caller's weak-versus-
    /// weak choice after [`Added::ExistingWeak`].
    pub fn redefine(
        &mut self,
        idx: SymIdx<S>,
        new: &NewSymbol<'_, S>,
    ) -> Result<(), ArenaError<S>> {
        let Some(mut row) = self.row(idx) else {
            return Err(ArenaError::NoSuchSymbol(idx));
        };
        if self.callgraph_complete && new.sym_type == STT_FUNC && !self.is_registered(idx, &row) {
            return Err(ArenaError::FunctionAfterCallgraph);
        }
        row.info = (row.info & 0xf0) | (new.sym_type & 0xf);
        row.other = new.other;
        row.value = new.value;
        row.size = new.size;
        self.fill_ordinal(idx, &mut row, new)?;
        self.encode_section(idx, &mut row, new.section.to_raw());
        self.update_row(idx, |r| *r = row);
        Ok(())
    }

    /// Phases 3, 6, 7, 8, 11, 12: a new record in the array the binding selects.
    fn push_symbol(
        &mut self,
        name: &'a str,
        new: &NewSymbol<'_, S>,
    ) -> Result<SymIdx<S>, ArenaError<S>> {
        let index: SymIdx<S> = if new.binding == Binding::Global {
            GlobalIdx::from_slot(self.globals.len() as u32)
                .ok_or(ArenaError::TooMany("global symbols"))?
                .into()
        } else {
            LocalIdx::from_slot(self.locals.len() as u32)
                .ok_or(ArenaError::TooMany("local symbols"))?
                .into()
        };
        let mut row = Row {
            name: Some(name),
            info: pack_info(new.sym_type, new.binding),
            other: new.other,
            value: new.value,
            size: new.size,
            ..Row::default()
        };
        self.fill_ordinal(index, &mut row, new)?;
        self.encode_section(index, &mut row, new.section.to_raw());
        match index.kind() {
            SymKind::Local(_) => self.locals.push(row),
            SymKind::Global(_) => self.globals.push(row),
        };
        Ok(index)
    }

    /// Upgrade in place: an undefined record takes the definition's fields (seed 02, matrix row
    /// "STB_GLOBAL (UND)"). The index and the name entry do not change.
    fn upgrade(
        &mut self,
        idx: SymIdx<S>,
        mut row: Row<'a>,
        new: &NewSymbol<'_, S>,
    ) -> Result<(), ArenaError<S>> {
        row.info = pack_info(new.sym_type, new.binding);
        row.other = new.other;
        row.value = new.value;
        row.size = new.size;
        self.fill_ordinal(idx, &mut row, new)?;
        self.encode_section(idx, &mut row, new.section.to_raw());
        self.update_row(idx, |r| *r = row);
        Ok(())
    }

    /// Weak replaced by strong: a new global record, the old record emptied, the name
    /// re-pointed (seed 02, matrix row "STB_WEAK", column "STB_GLOBAL").
    fn replace_weak(
        &mut self,
        old: SymIdx<S>,
        name_entry: EntryId,
        name: &'a str,
        new: &NewSymbol<'_, S>,
    ) -> Result<Added<S>, ArenaError<S>> {
        let index = self.push_symbol(name, new)?;
        let Some(new_global) = index.as_global() else {
            return Err(ArenaError::NoSuchSymbol(index));
        };
        if let Some(ordinal) = self.row(old).and_then(|r| r.ordinal) {
            if let Some(node) = self.callgraph.get_mut(ordinal.pos()) {
                if *node == Some(old) {
                    *node = None;
                }
            }
        }
        self.update_row(old, |r| *r = Row::default());
        self.symbol_names.set(name_entry, index);
        Ok(Added::ReplacedWeak {
            old,
            new: new_global,
        })
    }

    fn is_registered(&self, idx: SymIdx<S>, row: &Row<'a>) -> bool {
        row.ordinal
            .is_some_and(|o| self.callgraph_node(o) == Some(idx))
    }

    /// Phase 11: a function gets the next ordinal and its callgraph node slot (unless the
    /// record already has one); other symbols keep their ordinal or take the caller's.
    fn fill_ordinal(
        &mut self,
        idx: SymIdx<S>,
        row: &mut Row<'a>,
        new: &NewSymbol<'_, S>,
    ) -> Result<(), ArenaError<S>> {
        if new.sym_type != STT_FUNC {
            row.ordinal = row.ordinal.or(new.func_ordinal);
            return Ok(());
        }
        if self.is_registered(idx, row) {
            return Ok(());
        }
        let ordinal = FuncOrdinal::from_slot(self.callgraph.len() as u32)
            .ok_or(ArenaError::TooMany("functions"))?;
        self.callgraph.push(Some(idx));
        row.ordinal = Some(ordinal);
        Ok(())
    }

    /// Marks the callgraph complete: from now on adding a function symbol or an executable
    /// section is refused (nvlink's ctx+81 flag).
    pub fn mark_callgraph_complete(&mut self) {
        self.callgraph_complete = true;
    }

    /// Whether [`mark_callgraph_complete`](Self::mark_callgraph_complete) was called.
    pub fn is_callgraph_complete(&self) -> bool {
        self.callgraph_complete
    }

    /// Number of function ordinals handed out.
    pub fn function_count(&self) -> usize {
        self.callgraph.len() - 1
    }

    /// The symbol registered at a callgraph node (`None` once its record was emptied or
    /// deleted).
    pub fn callgraph_node(&self, ordinal: FuncOrdinal) -> Option<SymIdx<S>> {
        self.callgraph.get(ordinal.pos()).copied().flatten()
    }

    /// The callgraph nodes in ordinal order, skipping emptied and deleted ones.
    pub fn callgraph_nodes(&self) -> impl Iterator<Item = (FuncOrdinal, SymIdx<S>)> + '_ {
        self.callgraph
            .iter()
            .enumerate()
            .skip(1)
            .filter_map(|(pos, node)| Some((FuncOrdinal::from_slot(pos as u32)?, (*node)?)))
    }
}
