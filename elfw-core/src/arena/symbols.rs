//! The symbol store: nvlink's 48-byte symbol record as columns, the positive and negative
//! arrays, extended section indices, and the readers the emitter walks.
//!
//! Record fields (seed 01, "ELF Writer Symbol Storage"): name, `st_info`, `st_other`, the raw
//! 16-bit `st_shndx`, value, size, `func_ordinal`, flags. nvlink's `sym_index` field is the
//! record's own position, so it is the [`SymIdx`] rather than a column; `st_name` (the string
//! table offset) belongs to the writer.

use super::index::Binding;
use super::index::{FuncOrdinal, GlobalIdx, LocalIdx, SectionIdx, Space, SymIdx, SymKind};
use super::Arena;
use crate::elf::consts::{SHN_ABS, SHN_COMMON, SHN_UNDEF, SHN_XINDEX, STT_FUNC};

/// Largest section number `st_shndx` holds directly (seed 01, phase 8: `<= 0xFEFF`).
const MAX_DIRECT_SHNDX: u32 = 0xFEFF;

/// The section a symbol belongs to, as the arena stores it.
///
/// nvlink keeps one 32-bit "section index" per symbol in which 0 is `SHN_UNDEF`, `0xFFF1` is
/// `SHN_ABS` and `0xFFF2` is `SHN_COMMON`; everything else is a section number. A section whose
/// number is exactly `0xFFF1` or `0xFFF2` therefore reads back as `Abs`/`Common`, as it does in
/// nvlink.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum SymSection<S: Space = super::Merged> {
    /// `SHN_UNDEF`: an undefined symbol (or an emptied record).
    Undef,
    /// `SHN_ABS`.
    Abs,
    /// `SHN_COMMON`.
    Common,
    /// A section of this arena.
    Index(SectionIdx<S>),
}

impl<S: Space> SymSection<S> {
    /// nvlink's 32-bit section index for this value.
    pub(crate) fn to_raw(self) -> u32 {
        match self {
            SymSection::Undef => u32::from(SHN_UNDEF),
            SymSection::Abs => u32::from(SHN_ABS),
            SymSection::Common => u32::from(SHN_COMMON),
            SymSection::Index(s) => s.slot(),
        }
    }

    /// The value for nvlink's 32-bit section index `raw`.
    pub(crate) fn from_raw(raw: u32) -> Self {
        if raw == u32::from(SHN_ABS) {
            SymSection::Abs
        } else if raw == u32::from(SHN_COMMON) {
            SymSection::Common
        } else {
            match SectionIdx::from_slot(raw) {
                Some(s) => SymSection::Index(s),
                None => SymSection::Undef,
            }
        }
    }

    /// Whether this is `SHN_UNDEF`.
    pub fn is_undef(self) -> bool {
        self == SymSection::Undef
    }

    /// The arena section, if this is one.
    pub fn index(self) -> Option<SectionIdx<S>> {
        match self {
            SymSection::Index(s) => Some(s),
            _ => None,
        }
    }
}

/// Whether nvlink stores section index `raw` directly in `st_shndx` (seed 01, phase 8): up to
/// `0xFEFF`, plus `SHN_COMMON`. Everything else — `SHN_ABS` included — is stored as
/// `SHN_XINDEX` with the real value in the extended arrays.
pub(crate) fn fits_shndx(raw: u32) -> bool {
    raw <= MAX_DIRECT_SHNDX || raw == u32::from(SHN_COMMON)
}

/// One record as stored (a row of [`SymbolColumns`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Row<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) info: u8,
    pub(crate) other: u8,
    pub(crate) shndx: u16,
    pub(crate) value: u64,
    pub(crate) size: u64,
    pub(crate) ordinal: Option<FuncOrdinal>,
    pub(crate) flags: u32,
}

/// One symbol array (positive or negative) as columns. Slot 0 is the sentinel.
#[derive(Clone, Debug)]
pub(crate) struct SymbolColumns<'a> {
    name: Vec<Option<&'a str>>,
    info: Vec<u8>,
    other: Vec<u8>,
    shndx: Vec<u16>,
    value: Vec<u64>,
    size: Vec<u64>,
    ordinal: Vec<Option<FuncOrdinal>>,
    flags: Vec<u32>,
}

impl<'a> SymbolColumns<'a> {
    /// Columns holding only the sentinel, with room for `capacity` more records.
    pub(crate) fn with_sentinel(capacity: usize) -> Self {
        let n = capacity.saturating_add(1);
        let mut c = SymbolColumns {
            name: Vec::with_capacity(n),
            info: Vec::with_capacity(n),
            other: Vec::with_capacity(n),
            shndx: Vec::with_capacity(n),
            value: Vec::with_capacity(n),
            size: Vec::with_capacity(n),
            ordinal: Vec::with_capacity(n),
            flags: Vec::with_capacity(n),
        };
        c.push(Row::default());
        c
    }

    pub(crate) fn reserve(&mut self, additional: usize) {
        self.name.reserve(additional);
        self.info.reserve(additional);
        self.other.reserve(additional);
        self.shndx.reserve(additional);
        self.value.reserve(additional);
        self.size.reserve(additional);
        self.ordinal.reserve(additional);
        self.flags.reserve(additional);
    }

    /// Number of slots, sentinel included.
    pub(crate) fn len(&self) -> usize {
        self.info.len()
    }

    /// Appends a row and returns its slot.
    pub(crate) fn push(&mut self, r: Row<'a>) -> u32 {
        let slot = self.len() as u32;
        self.name.push(r.name);
        self.info.push(r.info);
        self.other.push(r.other);
        self.shndx.push(r.shndx);
        self.value.push(r.value);
        self.size.push(r.size);
        self.ordinal.push(r.ordinal);
        self.flags.push(r.flags);
        slot
    }

    /// The row at `pos`, or `None` past the end.
    pub(crate) fn get(&self, pos: usize) -> Option<Row<'a>> {
        Some(Row {
            name: *self.name.get(pos)?,
            info: *self.info.get(pos)?,
            other: *self.other.get(pos)?,
            shndx: *self.shndx.get(pos)?,
            value: *self.value.get(pos)?,
            size: *self.size.get(pos)?,
            ordinal: *self.ordinal.get(pos)?,
            flags: *self.flags.get(pos)?,
        })
    }

    /// Overwrites the row at `pos` (no-op past the end).
    pub(crate) fn set(&mut self, pos: usize, r: Row<'a>) {
        if pos < self.len() {
            self.name[pos] = r.name;
            self.info[pos] = r.info;
            self.other[pos] = r.other;
            self.shndx[pos] = r.shndx;
            self.value[pos] = r.value;
            self.size[pos] = r.size;
            self.ordinal[pos] = r.ordinal;
            self.flags[pos] = r.flags;
        }
    }

    /// Applies `f` to the row at `pos` (no-op past the end).
    pub(crate) fn update(&mut self, pos: usize, f: impl FnOnce(&mut Row<'a>)) {
        if let Some(mut r) = self.get(pos) {
            f(&mut r);
            self.set(pos, r);
        }
    }
}

/// nvlink's two extended-section-index arrays (seed 01, "merged_symbol_array and
/// extended_symbol_store"): the real section index of each symbol whose `st_shndx` is
/// `SHN_XINDEX`, keyed by local slot and by global slot. Empty until first needed.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExtendedIndices {
    /// Whether the arrays have been created (nvlink creates both on first use).
    pub(crate) present: bool,
    /// `merged_symbol_array` (ctx+592): by local slot.
    pub(crate) locals: Vec<u32>,
    /// `extended_symbol_store` (ctx+600): by global slot.
    pub(crate) globals: Vec<u32>,
}

/// nvlink's initial size of both extended arrays (seed 01: `dyn_array_create(0x10000)`).
const EXTENDED_INITIAL: usize = 0x10000;

impl ExtendedIndices {
    /// nvlink's set-at-index: grows with zero fill.
    fn set(v: &mut Vec<u32>, pos: usize, raw: u32) {
        if pos >= v.len() {
            v.resize(pos + 1, 0);
        }
        v[pos] = raw;
    }

    pub(crate) fn store<S: Space>(&mut self, kind: SymKind<S>, raw: u32) {
        if !self.present {
            self.present = true;
            self.locals.reserve(EXTENDED_INITIAL);
            self.globals.reserve(EXTENDED_INITIAL);
        }
        match kind {
            SymKind::Local(l) => Self::set(&mut self.locals, l.pos(), raw),
            SymKind::Global(g) => Self::set(&mut self.globals, g.pos(), raw),
        }
    }

    /// nvlink's bounds-checked get: 0 past the end.
    pub(crate) fn load<S: Space>(&self, kind: SymKind<S>) -> u32 {
        match kind {
            SymKind::Local(l) => self.locals.get(l.pos()).copied().unwrap_or(0),
            SymKind::Global(g) => self.globals.get(g.pos()).copied().unwrap_or(0),
        }
    }
}

/// A symbol as read from the arena: the record's fields with the section resolved.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symbol<'a, S: Space = super::Merged> {
    /// The interned name; `None` for the sentinel and for emptied records.
    pub name: Option<&'a str>,
    /// `st_info`: binding in the high nibble, type in the low nibble.
    pub info: u8,
    /// `st_other`: visibility and CUDA attribute bits.
    pub other: u8,
    /// The section, resolved through the extended arrays when `st_shndx` is `SHN_XINDEX`.
    pub section: SymSection<S>,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
    /// The callgraph ordinal of a function symbol (or the caller's pass-through value).
    pub func_ordinal: Option<FuncOrdinal>,
    /// nvlink's internal flags word, cleared when the symbol is added.
    pub flags: u32,
}

impl<S: Space> Symbol<'_, S> {
    /// The binding (`st_info >> 4`).
    pub fn binding(&self) -> Binding {
        // Only values built from `Binding` are ever stored.
        match self.info >> 4 {
            1 => Binding::Global,
            2 => Binding::Weak,
            _ => Binding::Local,
        }
    }

    /// The `STT_*` type (`st_info & 0xf`).
    pub fn sym_type(&self) -> u8 {
        self.info & 0xf
    }

    /// Whether the symbol is `STT_FUNC`.
    pub fn is_function(&self) -> bool {
        self.sym_type() == STT_FUNC
    }

    /// Whether the symbol has a section (anything but `SHN_UNDEF`).
    pub fn is_defined(&self) -> bool {
        !self.section.is_undef()
    }

    /// Whether this is an emptied record (a weak definition that lost to a strong one).
    pub fn is_emptied(&self) -> bool {
        self.name.is_none()
    }
}

impl<'a, S: Space> Arena<'a, S> {
    pub(crate) fn row(&self, idx: SymIdx<S>) -> Option<Row<'a>> {
        match idx.kind() {
            SymKind::Local(l) => self.locals.get(l.pos()),
            SymKind::Global(g) => self.globals.get(g.pos()),
        }
    }

    pub(crate) fn update_row(&mut self, idx: SymIdx<S>, f: impl FnOnce(&mut Row<'a>)) {
        match idx.kind() {
            SymKind::Local(l) => self.locals.update(l.pos(), f),
            SymKind::Global(g) => self.globals.update(g.pos(), f),
        }
    }

    /// nvlink's resolved 32-bit section index of the record at `idx` (tiers 1 and 2 of
    /// seed 01, "Section Index Resolution").
    pub(crate) fn raw_section(&self, idx: SymIdx<S>, row: &Row<'a>) -> u32 {
        if row.shndx != SHN_XINDEX {
            return u32::from(row.shndx); // tier 1: direct
        }
        // Tier 2: by the sign of the index, merged array or extended store. (Tier 3, remap then
        // merged array, is `Arena::<Output>::section_of_merged`.)
        self.xindex.load(idx.kind())
    }

    /// Encodes `raw` into `row.shndx` and the extended arrays for the record at `idx`
    /// (seed 01, phase 8).
    pub(crate) fn encode_section(&mut self, idx: SymIdx<S>, row: &mut Row<'a>, raw: u32) {
        if fits_shndx(raw) {
            row.shndx = raw as u16;
        } else {
            row.shndx = SHN_XINDEX;
            self.xindex.store(idx.kind(), raw);
        }
    }

    pub(crate) fn view(&self, idx: SymIdx<S>, row: Row<'a>) -> Symbol<'a, S> {
        Symbol {
            name: row.name,
            info: row.info,
            other: row.other,
            section: SymSection::from_raw(self.raw_section(idx, &row)),
            value: row.value,
            size: row.size,
            func_ordinal: row.ordinal,
            flags: row.flags,
        }
    }

    /// The symbol at `idx`, or `None` if `idx` is not a slot of this arena.
    pub fn get_symbol(&self, idx: SymIdx<S>) -> Option<Symbol<'a, S>> {
        self.row(idx).map(|r| self.view(idx, r))
    }

    /// The symbol at `idx`.
    ///
    /// # Panics
    /// If `idx` was minted by another arena and is past this one's end.
    pub fn symbol(&self, idx: SymIdx<S>) -> Symbol<'a, S> {
        match self.get_symbol(idx) {
            Some(s) => s,
            None => panic!("{idx:?} is not a symbol of this arena"),
        }
    }

    /// The section of the symbol at `idx` (`Undef` for a foreign index).
    pub fn section_of(&self, idx: SymIdx<S>) -> SymSection<S> {
        match self.row(idx) {
            Some(r) => SymSection::from_raw(self.raw_section(idx, &r)),
            None => SymSection::Undef,
        }
    }

    /// The raw `st_shndx` nvlink stores for `idx` (`SHN_XINDEX` when the real index is in the
    /// extended arrays), for the `.symtab` writer.
    #[allow(dead_code)] // for the .symtab writer
    pub(crate) fn raw_shndx(&self, idx: SymIdx<S>) -> u16 {
        self.row(idx).map_or(SHN_UNDEF, |r| r.shndx)
    }

    /// The section index nvlink resolves for `idx` as a 32-bit number, for `.symtab_shndx`.
    #[allow(dead_code)] // for the .symtab writer
    pub(crate) fn raw_section_of(&self, idx: SymIdx<S>) -> u32 {
        self.row(idx).map_or(0, |r| self.raw_section(idx, &r))
    }

    /// The symbol index the name currently maps to.
    pub fn find_symbol(&self, name: &str) -> Option<SymIdx<S>> {
        self.symbol_names.get(name)
    }

    /// The interned name of the symbol at `idx`.
    pub fn symbol_name(&self, idx: SymIdx<S>) -> Option<&'a str> {
        self.row(idx).and_then(|r| r.name)
    }

    /// Number of records in the positive array, sentinel excluded (emptied records included).
    pub fn local_count(&self) -> usize {
        self.locals.len() - 1
    }

    /// Number of records in the negative array, sentinel excluded.
    pub fn global_count(&self) -> usize {
        self.globals.len() - 1
    }

    /// The positive array in order (nvlink's `.symtab` order for locals), sentinel skipped.
    /// Allocation-free.
    pub fn locals(&self) -> impl Iterator<Item = (LocalIdx<S>, Symbol<'a, S>)> + '_ {
        (1..self.locals.len() as u32).filter_map(move |slot| {
            let l = LocalIdx::from_slot(slot)?;
            let row = self.locals.get(l.pos())?;
            Some((l, self.view(l.into(), row)))
        })
    }

    /// The negative array in order (nvlink's `.symtab` order for globals), sentinel skipped.
    /// Allocation-free.
    pub fn globals(&self) -> impl Iterator<Item = (GlobalIdx<S>, Symbol<'a, S>)> + '_ {
        (1..self.globals.len() as u32).filter_map(move |slot| {
            let g = GlobalIdx::from_slot(slot)?;
            let row = self.globals.get(g.pos())?;
            Some((g, self.view(g.into(), row)))
        })
    }

    /// Number of distinct symbol names ever registered (nvlink's name counter, ctx+304).
    /// Never decreases, not even when dead-code elimination drops names.
    pub fn distinct_names(&self) -> u32 {
        self.distinct_names
    }

    /// Sets `st_value` (layout assigns addresses).
    pub fn set_value(&mut self, idx: SymIdx<S>, value: u64) {
        self.update_row(idx, |r| r.value = value);
    }

    /// Sets `st_size`.
    pub fn set_size(&mut self, idx: SymIdx<S>, size: u64) {
        self.update_row(idx, |r| r.size = size);
    }

    /// Sets `st_other`.
    pub fn set_other(&mut self, idx: SymIdx<S>, other: u8) {
        self.update_row(idx, |r| r.other = other);
    }

    /// Sets the `STT_*` type, keeping the binding (e.g. `STT_CUDA_OBJECT` → `STT_OBJECT` in a
    /// final link). The binding cannot change: it decides the array.
    pub fn set_type(&mut self, idx: SymIdx<S>, sym_type: u8) {
        self.update_row(idx, |r| r.info = (r.info & 0xf0) | (sym_type & 0xf));
    }

    /// Sets the internal flags word.
    pub fn set_flags(&mut self, idx: SymIdx<S>, flags: u32) {
        self.update_row(idx, |r| r.flags = flags);
    }

    /// Moves the symbol to `section`, re-encoding extended indices as needed.
    pub fn set_section(&mut self, idx: SymIdx<S>, section: SymSection<S>) {
        if let Some(mut row) = self.row(idx) {
            self.encode_section(idx, &mut row, section.to_raw());
            self.update_row(idx, |r| *r = row);
        }
    }
}
