//! The linker's state while it merges inputs: nvlink's output-ELF context, reduced to what
//! decides the bytes of the image.
//!
//! nvlink keeps every section in one creation-ordered array, local and section symbols in a
//! "positive" array and non-local symbols in a "negative" array (seed 01, "Positive/Negative
//! Index Scheme"), and appends relocations and `.nv.info` records to lists it later walks
//! backwards. Those orders are what the output's section, symbol, relocation and string-table
//! orders are made of, so this model keeps them exactly.

use super::columns::columns;
use crate::arena::{GlobalIdx, LocalIdx, SymIdx, SymKind};
use elfw_hash::{NameHash, NameMap};
use rustc_hash::{FxHashMap, FxHashSet};

/// Index of an output section in creation order (0 is the null section).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SecId(pub(crate) u32);

impl SecId {
    /// The null section.
    pub const NULL: SecId = SecId(0);
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// One contribution of input bytes (or of a size, for NOBITS data) to an output section.
#[derive(Clone, Copy, Debug)]
pub struct DataNode<'d> {
    /// The bytes, or `None` for zero-filled (NOBITS) data.
    pub data: Option<&'d [u8]>,
    /// Offset in the output section.
    pub offset: u64,
    /// Alignment the contribution asked for.
    pub align: u64,
    /// Size in bytes.
    pub size: u64,
    /// Input index the contribution came from (`usize::MAX` for linker-made data).
    pub input: usize,
    /// The input section it came from (`u32::MAX` for linker-made data): Mercury targets
    /// mirror each contribution with the input section's Mercury twin.
    pub in_section: u32,
    /// The next contribution to the same section (slot 0, the sentinel, ends the list).
    pub next_node: u32,
}

columns! {
    /// Data nodes in creation order, one column per field; slot 0 is a sentinel. Each
    /// section threads its own through `DataNode::next`, as nvlink's lists do.
    pub struct DataNodeColumns of DataNode, read DataNodeRef, write DataNodeMut {
        /// The bytes, or `None` for zero-filled (NOBITS) data.
        data: Option<&'d [u8]>,
        /// Offset in the output section.
        offset: u64,
        /// Alignment the contribution asked for.
        align: u64,
        /// Size in bytes.
        size: u64,
        /// Input index the contribution came from.
        input: usize,
        /// The input section it came from.
        in_section: u32,
        /// The next contribution to the same section.
        next_node: u32,
    }
}

impl<'d> DataNodeColumns<'d> {
    /// The nodes of `list`, in order.
    pub fn list(&self, list: NodeList) -> impl Iterator<Item = DataNodeRef<'_, 'd>> + '_ {
        let mut next = list.first;
        std::iter::from_fn(move || {
            (next != 0).then(|| {
                let n = self.at(next as usize);
                next = n.next_node();
                n
            })
        })
    }
}

/// A section's data nodes: first and last slot in [`DataNodeColumns`] (0 when empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeList {
    first: u32,
    last: u32,
}

impl NodeList {
    /// No contributions.
    pub const EMPTY: NodeList = NodeList { first: 0, last: 0 };
    /// Whether the section has no contributions.
    pub fn is_empty(self) -> bool {
        self.first == 0
    }
}

/// What an output section is for, as far as layout and emission care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecRole {
    /// Section made by the linker whose bytes are computed at emit time.
    Synthetic,
    /// Section whose bytes are its data nodes.
    Data,
}

/// An output section.
#[derive(Clone, Copy, Debug)]
pub struct Section<'d> {
    /// Section name (borrowed from an input, or interned in the link's arena).
    pub name: &'d str,
    /// Section type (CUDA types as nvlink keeps them internally).
    pub sh_type: u32,
    /// Flags.
    pub flags: u64,
    /// `sh_link` in creation-order terms (a section id), resolved at emit.
    pub link: Link,
    /// `sh_info` in creation-order terms, resolved at emit.
    pub info: Link,
    /// Alignment.
    pub addralign: u64,
    /// Entry size.
    pub entsize: u64,
    /// Size (data nodes and padding).
    pub size: u64,
    /// Contributions in order.
    pub nodes: NodeList,
    /// Its section symbol, if it has one.
    pub symbol: Option<LocalIdx>,
    /// Removed (dead code, lost weak contest, or emptied).
    pub removed: bool,
    /// Removed so thoroughly that its name leaves the string tables too (dead code).
    pub name_removed: bool,
    /// How its bytes are made.
    pub role: SecRole,
    /// For relocation sections: the section they apply to.
    pub reloc_target: Option<SecId>,
    /// Written even without entries (Mercury targets: a SASS relocation section whose Mercury
    /// twin keeps entries).
    pub keep_empty: bool,
}

columns! {
    /// Sections in creation order, one column per field; slot 0 is the null section.
    pub struct SectionColumns of Section, read SectionRef, write SectionMut {
        /// Section name.
        name: &'d str,
        /// Section type.
        sh_type: u32,
        /// Flags.
        flags: u64,
        /// `sh_link` in creation-order terms.
        link: Link,
        /// `sh_info` in creation-order terms.
        info: Link,
        /// Alignment.
        addralign: u64,
        /// Entry size.
        entsize: u64,
        /// Size (data nodes and padding).
        size: u64,
        /// Contributions in order.
        nodes: NodeList,
        /// Its section symbol, if it has one.
        symbol: Option<LocalIdx>,
        /// Removed.
        removed: bool,
        /// Removed with its name.
        name_removed: bool,
        /// How its bytes are made.
        role: SecRole,
        /// For relocation sections: the section they apply to.
        reloc_target: Option<SecId>,
        /// Written even without entries.
        keep_empty: bool,
    }
}

/// A header field that refers to another part of the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// No reference (0).
    None,
    /// A literal value.
    Value(u32),
    /// An output section.
    Section(SecId),
    /// The symbol table.
    Symtab,
    /// A symbol; `high` keeps bits 24..32 that nvlink carries through (sm_75–sm_89 `.text`
    /// sections keep the register count there).
    Symbol {
        /// The symbol.
        sym: SymIdx,
        /// Bits 24..32 to keep.
        high: u8,
    },
}

/// What a symbol's `st_shndx` refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymSection {
    /// Undefined.
    Undef,
    /// Absolute.
    Abs,
    /// Common.
    Common,
    /// An output section.
    Section(SecId),
}

/// A symbol record.
#[derive(Clone, Copy, Debug)]
pub struct Symbol<'d> {
    /// Name (borrowed from an input, or interned in the link's arena).
    pub name: &'d str,
    /// `st_info` (binding and type).
    pub info: u8,
    /// `st_other`.
    pub other: u8,
    /// Section.
    pub section: SymSection,
    /// Value (offset in its section).
    pub value: u64,
    /// Size.
    pub size: u64,
    /// Input it was defined by (or first seen in).
    pub input: usize,
    /// Removed from the image.
    pub removed: bool,
    /// Callgraph node, for functions.
    pub func: Option<FuncId>,
    /// For shared-memory variables: their entry in [`State::shared_vars`]. Such symbols are
    /// placed by the shared-memory layout and never reach the output's symbol table.
    pub shared: Option<usize>,
}

impl<'d> Symbol<'d> {
    /// A record with the given fields, not yet in any section, from `input`.
    pub fn new(name: &'d str, info: u8, other: u8, value: u64, size: u64, input: usize) -> Self {
        Symbol {
            name,
            info,
            other,
            section: SymSection::Undef,
            value,
            size,
            input,
            removed: false,
            func: None,
            shared: None,
        }
    }

    /// The section symbol of `section`.
    pub fn for_section(name: &'d str, section: SecId, input: usize) -> Self {
        Symbol {
            section: SymSection::Section(section),
            ..Symbol::new(name, STT_SECTION_TYPE, 0, 0, 0, input)
        }
    }
}

/// `STT_SECTION` (kept here so the record's constructors need no other import).
const STT_SECTION_TYPE: u8 = 3;

columns! {
    /// One of nvlink's two symbol arrays, one column per field; slot 0 is the sentinel.
    pub struct SymbolColumns of Symbol, read SymbolRef, write SymbolMut {
        /// Name.
        name: &'d str,
        /// `st_info` (binding and type).
        info: u8,
        /// `st_other`.
        other: u8,
        /// Section.
        section: SymSection,
        /// Value (offset in its section).
        value: u64,
        /// Size.
        size: u64,
        /// Input it was defined by (or first seen in).
        input: usize,
        /// Removed from the image.
        removed: bool,
        /// Callgraph node, for functions.
        func: Option<FuncId>,
        /// For shared-memory variables: their entry in [`State::shared_vars`].
        shared: Option<usize>,
    }
}

impl SymbolRef<'_, '_> {
    /// `STB_*`.
    pub fn binding(self) -> u8 {
        self.info() >> 4
    }
    /// `STT_*`.
    pub fn sym_type(self) -> u8 {
        self.info() & 0xf
    }
    /// Whether the symbol is defined in a section (not UND).
    pub fn is_defined(self) -> bool {
        self.section() != SymSection::Undef
    }
}

impl Symbol<'_> {
    /// `STB_*`.
    pub fn binding(&self) -> u8 {
        self.info >> 4
    }
    /// `STT_*`.
    pub fn sym_type(&self) -> u8 {
        self.info & 0xf
    }
    /// Whether the symbol is defined in a section (not UND).
    pub fn is_defined(&self) -> bool {
        self.section != SymSection::Undef
    }
}

/// Index of a function in the callgraph, in order of first appearance (nvlink's ordinal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub(crate) u32);

/// A function's direct callees in arrival order (read backwards: newest first). A few are
/// kept in place, more on the heap: a large link has one list per function and most
/// functions call one or two others, so growing a `Vec` from empty for each was an
/// allocation per caller on the merging thread.
#[derive(Clone, Debug)]
pub struct CalleeList(CalleeRepr);

#[derive(Clone, Debug)]
enum CalleeRepr {
    /// The first `len` entries.
    Inline {
        len: u8,
        ids: [FuncId; CalleeList::INLINE],
    },
    Heap(Vec<FuncId>),
}

impl CalleeList {
    /// How many callees are kept without an allocation.
    const INLINE: usize = 4;

    /// Appends a callee.
    pub fn push(&mut self, id: FuncId) {
        match &mut self.0 {
            CalleeRepr::Inline { len, ids } if (*len as usize) < Self::INLINE => {
                ids[*len as usize] = id;
                *len += 1;
            }
            CalleeRepr::Inline { ids, .. } => {
                let mut list = Vec::with_capacity(2 * Self::INLINE);
                list.extend_from_slice(ids);
                list.push(id);
                self.0 = CalleeRepr::Heap(list);
            }
            CalleeRepr::Heap(list) => list.push(id),
        }
    }

    /// The callees, oldest first.
    pub fn as_slice(&self) -> &[FuncId] {
        match &self.0 {
            CalleeRepr::Inline { len, ids } => &ids[..*len as usize],
            CalleeRepr::Heap(list) => list,
        }
    }
}

impl Default for CalleeList {
    fn default() -> Self {
        CalleeList(CalleeRepr::Inline {
            len: 0,
            ids: [FuncId(0); Self::INLINE],
        })
    }
}

impl<'a> IntoIterator for &'a CalleeList {
    type Item = &'a FuncId;
    type IntoIter = std::slice::Iter<'a, FuncId>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for CalleeList {
    type Target = [FuncId];

    fn deref(&self) -> &[FuncId] {
        self.as_slice()
    }
}

/// A callgraph node.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// Its symbol.
    pub sym: Option<SymIdx>,
    /// Direct callees, newest first (nvlink prepends).
    pub callees: CalleeList,
    /// Prototype string offset in `.strtab`'s interned part.
    pub prototype: Option<u32>,
    /// Whether its address is taken.
    pub address_taken: bool,
    /// Whether it is a kernel (`STO_CUDA_ENTRY`).
    pub is_entry: bool,
    /// Register count reported by its input.
    pub regcount: Option<u32>,
    /// Frame size reported by its input.
    pub frame_size: Option<u32>,
    /// Removed by dead-code elimination or a lost weak contest.
    pub dead: bool,
    /// Functions whose address this one takes (callgraph `-4` records), newest first.
    pub address_edges: Vec<FuncId>,
    /// A kernel `--kernels-used` leaves out that stays (its address is taken): nvlink keeps
    /// its code and its `STO_CUDA_ENTRY`, but treats it as an address-taken function (no `^`
    /// in the callgraph dump, no `EIATTR_MIN_STACK_SIZE`, not a kernel of its own when what
    /// the kernels reach is gathered).
    pub demoted: bool,
}

/// A relocation as merged: symbol and target section in output terms, in arrival order.
#[derive(Clone, Copy, Debug)]
pub struct Reloc {
    /// The relocation section it belongs to.
    pub rel_section: SecId,
    /// The section it patches.
    pub target: SecId,
    /// Offset in the output target section.
    pub offset: u64,
    /// Relocation type.
    pub r_type: u32,
    /// Symbol.
    pub sym: Option<SymIdx>,
    /// Addend (0 for REL).
    pub addend: i64,
    /// Dropped (lost weak, dead target, resolved at link time).
    pub dropped: bool,
    /// The input it came from.
    pub input: usize,
}

/// An `.nv.info` record with its symbol operand (if any) in output terms.
///
/// A quarter of a million of these live through a large link, so the record borrows what it
/// holds: the payload from its input (or from the link's arena once the link changes it) and
/// the EXTERNS list from the link's arena.
#[derive(Clone, Copy, Debug)]
pub struct InfoRecord<'d> {
    /// EIFMT format byte.
    pub format: u8,
    /// EIATTR code.
    pub attr: u8,
    /// For `EIFMT_SVAL`: the payload; for the 2-byte forms, the value in 2 little-endian bytes.
    /// Borrowed from the input until the link changes it, then from the link's arena.
    pub payload: &'d [u8],
    /// Symbol in the first payload word, when the attribute carries one.
    pub sym: Option<SymIdx>,
    /// For `EIATTR_EXTERNS`: the listed symbols (in the link's arena).
    pub externs: &'d [SymIdx],
    /// Removed.
    pub dropped: bool,
}

/// Values kept by section, in a column indexed by section id (no hashing; a large link's
/// lookups in section order walk it in order).
#[derive(Clone, Debug)]
pub struct SecMap<V> {
    slots: Vec<Option<V>>,
}

impl<V> Default for SecMap<V> {
    fn default() -> Self {
        SecMap { slots: Vec::new() }
    }
}

impl<V> SecMap<V> {
    /// The value of section `id`.
    #[inline]
    pub fn get(&self, id: &SecId) -> Option<&V> {
        self.slots.get(id.index())?.as_ref()
    }
    /// The value of section `id`, for writing.
    #[inline]
    pub fn get_mut(&mut self, id: &SecId) -> Option<&mut V> {
        self.slots.get_mut(id.index())?.as_mut()
    }
    /// The reserved room past the last section's place, as an address range (see
    /// `ahead::Prefault`).
    pub fn room(&self) -> (usize, usize) {
        super::ahead::room(&self.slots)
    }
    /// Sets the value of section `id`; returns the one it replaces.
    pub fn insert(&mut self, id: SecId, v: V) -> Option<V> {
        let i = id.index();
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        self.slots[i].replace(v)
    }
    /// Section `id`'s place, to fill.
    pub fn entry(&mut self, id: SecId) -> SecEntry<'_, V> {
        let i = id.index();
        if i >= self.slots.len() {
            self.slots.resize_with(i + 1, || None);
        }
        SecEntry(&mut self.slots[i])
    }
    /// The sections with values and their values, in section order.
    pub fn iter(&self) -> impl Iterator<Item = (SecId, &V)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((SecId(i as u32), v.as_ref()?)))
    }
    /// The values, in section order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.slots.iter().flatten()
    }
    /// Room for sections up to `sections` ids.
    pub fn reserve(&mut self, sections: usize) {
        self.slots
            .reserve(sections.saturating_sub(self.slots.len()));
    }
}

/// A section's place in a [`SecMap`].
pub struct SecEntry<'a, V>(&'a mut Option<V>);

impl<'a, V: Default> SecEntry<'a, V> {
    /// The value, made empty first when there is none.
    pub fn or_default(self) -> &'a mut V {
        self.0.get_or_insert_with(V::default)
    }
}

/// The whole merge state.
pub struct State<'d> {
    /// Where names the linker makes up live (names from inputs are borrowed).
    pub bump: &'d bumpalo::Bump,
    /// Sections in creation order; index 0 is the null section.
    pub sections: SectionColumns<'d>,
    /// Data nodes of every section; index 0 is the sentinel.
    pub nodes: DataNodeColumns<'d>,
    /// Local and section symbols (nvlink's positive array); index 0 is the sentinel.
    pub locals: SymbolColumns<'d>,
    /// Non-local symbols (nvlink's negative array); index 0 is the sentinel.
    pub globals: SymbolColumns<'d>,
    /// Name → symbol, for non-local symbols and section symbols.
    pub global_names: NameMap<&'d str, SymIdx>,
    /// Name → section.
    pub section_names: NameMap<&'d str, SecId>,
    /// For each section (by id), the first section made with the same name (itself when it
    /// was the first): names compare equal exactly when these do.
    pub first_named: Vec<SecId>,
    /// Order in which names entered the local/section namespace (`.strtab` part 1).
    pub local_name_order: Vec<(&'d str, NameOwner)>,
    /// Order in which names entered the global namespace (`.strtab` part 2).
    pub global_name_order: Vec<(&'d str, NameOwner)>,
    /// Strings interned into `.strtab` ahead of all names (prototype strings).
    pub interned: Vec<&'d str>,
    /// Interned string → offset.
    pub interned_offsets: FxHashMap<&'d str, u32>,
    /// Next offset in the interned part.
    pub interned_size: u32,
    /// Relocations in arrival order.
    pub relocs: Vec<Reloc>,
    /// Global `.nv.info` records in arrival order.
    pub info: Vec<InfoRecord<'d>>,
    /// Per-section `.nv.info.<f>` records in arrival order, keyed by the info section.
    pub section_info: SecMap<Vec<InfoRecord<'d>>>,
    /// Global `.nv.info` records the linker adds, in output order (after the merged ones).
    pub info_tail: Vec<InfoRecord<'d>>,
    /// Per-section records the linker adds, in output order (after the merged ones).
    pub section_info_tail: FxHashMap<SecId, Vec<InfoRecord<'d>>>,
    /// Callgraph nodes by ordinal (index 0 unused).
    pub functions: Vec<Function>,
    /// Shared-memory variables, in merge order.
    pub shared_vars: Vec<SharedVar>,
    /// Weak shared variables by name (a template kernel's `__shared__` arrays, in every input
    /// that instantiates it): later copies are the first one.
    pub weak_shared: FxHashMap<&'d str, SymIdx>,
    /// Final links: each `extern __shared__` name, with the input that first named it
    /// (defined or not); a later definition of it is a multiple definition.
    pub dynamic_shared_first: FxHashMap<&'d str, usize>,
    /// Each global (file-scope, not `extern`) shared variable's first definition: its input and
    /// symbol; another input defining the name again is a multiple definition.
    pub global_shared_first: FxHashMap<&'d str, (usize, SymIdx)>,
    /// Relocatable links: for a kernel's code section, the `externsharedinstance` its
    /// relocations against `extern __shared__` names now name, and those names.
    pub shared_instances: FxHashMap<SecId, SymIdx>,
    /// Relocatable links: the `extern __shared__` names [`State::shared_instances`] replace.
    pub dynamic_names: rustc_hash::FxHashSet<SymIdx>,
    /// Final links: where the dynamic shared memory starts for the code section that names
    /// the variable (the furthest static end among the kernels reaching that code).
    pub dynamic_shared_at: FxHashMap<(SecId, usize), u64>,
    /// `--preserve-relocs`: code sections of functions no laid-out kernel reaches that name
    /// dynamic shared memory (resolved to -1).
    pub unplaced_dynamic_code: rustc_hash::FxHashSet<SecId>,
    /// Whether the shared-memory layout made a common area (function variables serving
    /// several kernels, or no kernel).
    pub shared_common_area: bool,
    /// Windows the shared-memory layout sized for kernels that had none: (code section,
    /// size, alignment, whether it gets a section symbol), made by `finalize` after
    /// `.nv.prototype`, in this order.
    pub late_windows: Vec<(SecId, u64, u64, bool)>,
    /// Code sections of the kernels `--kernels-used`/`--variables-used` leave out that the
    /// merge holds (made no `.nv.info.<k>`/`.nv.shared.<k>` for).
    pub held_kernels: FxHashSet<SecId>,
    /// Code sections of libnvvm's kernels the host code does not reference, in a partial LTO
    /// libnvvm chose: no roots of the dead-code elimination (see `LinkOptions::lto_host_kernels`).
    pub lto_left_out: FxHashSet<SecId>,
    /// `-r`: windows of held kernels that an earlier `-r` left without variables, made at the
    /// end of their input's section symbols (see `merge`).
    pub held_windows: FxHashSet<SecId>,
    /// Callgraph `-2` records (address-taken functions with their prototype string), in
    /// arrival order.
    pub address_taken: Vec<(FuncId, u32)>,
    /// Callgraph `-3` records (functions making indirect calls, with the callee prototype),
    /// in arrival order.
    pub indirect_calls: Vec<(FuncId, u32)>,
    /// Which inputs were merged (system-library cubins nobody needed are not).
    pub merged_inputs: Vec<usize>,
    /// Each merged input's virtual SM (from its `.note.nv.cuinfo`), by input index.
    pub input_vsm: FxHashMap<usize, u16>,
    /// Mercury targets: each merged input's index maps, in merge order.
    pub input_maps: Vec<(usize, super::merge::InputMaps)>,
    /// Mercury targets: the `.nv.merc.nv.info.<f>` records, keyed by the SASS `.nv.info.<f>`.
    pub merc_section_info: FxHashMap<SecId, Vec<InfoRecord<'d>>>,
    /// Each function's register count as the inputs so far report it (weak contests).
    pub regcounts: FxHashMap<SymIdx, u32>,
    /// Mercury targets: each function's `EIATTR_FRAME_SIZE` in its input's
    /// `.nv.merc.nv.info` (the output's keeps it; the SASS record may differ).
    pub merc_frame_sizes: FxHashMap<SymIdx, u32>,
    /// Weak definitions that met, in the order they did (for the link map).
    pub weak_contests: Vec<WeakContest>,
    /// Weak copies a later copy replaced whose code had relocations, as (input, symbol): their
    /// frame and line relocations (SASS and Mercury) go with them.
    pub replaced_with_relocations: Vec<(usize, SymIdx)>,
    /// Where each per-function `.nv.info.<f>` first came from: (input, input section index).
    pub info_places: FxHashMap<SecId, (usize, u32)>,
    /// The input of each replaced weak function's first definition: later copies are weighed
    /// against its virtual SM, not the current winner's (observed: sm_80, sm_90, sm_86 copies in
    /// that order end with the sm_86 one).
    pub weak_first_input: FxHashMap<SymIdx, usize>,
    /// The input that first named each variable declared (undefined) before it was defined:
    /// nvlink's multiple-definition and size messages name that input as the first, not the
    /// defining one (observed, sm_90: `a.o` declares, `b.o` and `c.o` define: "first defined
    /// in 'a.o'").
    pub var_first_named: FxHashMap<SymIdx, usize>,
    /// Relocatable links: the one `.nv.ptx.const0.size` kept for every input that names it
    /// (observed, `-g -r` of two `-G` libcu++ translation units: one symbol, not two).
    pub ptx_const0_size: Option<SymIdx>,
    /// Why each function stayed or went, by function ordinal (filled by dead-code elimination).
    pub keep_reasons: Vec<KeepReason>,
    /// The call lists the stack-size check made, for the finalizer to reuse
    /// (see `finalize::warn_unknown_stack_sizes`).
    pub call_lists: Option<super::finalize::CallLists>,
    /// Mercury targets: the SASS `.debug_frame` after pruning (see `finalize`).
    pub pruned_debug_frame: Option<Vec<u8>>,
    /// Mercury targets: how the pruned SASS line tables moved, per section, as (old start,
    /// old end, new start) ranges in offset order (see `lines`).
    pub line_moves: Vec<(SecId, Vec<OffsetMove>)>,
    /// Mercury targets: the finalizer's own records at the end of each input's SASS
    /// `.nv.info.<f>`, which keep their input order.
    pub sass_info_tail: FxHashMap<SecId, Vec<InfoRecord<'d>>>,
    /// Kernels that get a compiler-constants bank (`.nv.constant2.<k>`) they had none of, with
    /// its bytes and alignment: made by the finalizer after `.nv.prototype` (see `const_bank2`).
    pub new_constant2: Vec<(FuncId, &'d [u8], u64)>,
    /// Compiler-constant symbols of functions that lost a weak contest, which name nothing in
    /// the image: (their bank, value in it, size). nvlink still lays their bytes out, and the
    /// last one's value lands in the null symbol (see `const_bank2`).
    pub hidden_constants: Vec<(SecId, u64, u64)>,
    /// `st_value` of the symbol table's null entry (0 but for the quirk above).
    pub null_symbol_value: u64,
    /// sm_100+: the Mercury twins of the kernels' compiler-constants banks that a final link
    /// assembled (see `const_bank2`).
    pub merc_bank2: Vec<super::const_bank2::MercBank2>,
    /// sm_100+ final links: the kernels' constant banks that took texture, sampler and surface
    /// slots, in the order the slots were made (see `bindless`).
    pub slot_banks: Vec<super::bindless::SlotBank>,
    /// sm_100+ final links: what code reads for a reference in the Mercury world, by (code
    /// section, reference) (see `bindless`).
    pub merc_slot_values: FxHashMap<(SecId, SymIdx), u64>,
}

/// The symbol arrays and the callgraph, which writers read from worker threads (the state
/// as a whole is not shareable: its name arena is single-threaded).
#[derive(Clone, Copy)]
pub struct SymbolView<'a, 'd> {
    locals: &'a SymbolColumns<'d>,
    globals: &'a SymbolColumns<'d>,
    functions: &'a [Function],
}

impl<'a, 'd> SymbolView<'a, 'd> {
    /// The symbol `idx`.
    pub fn sym(&self, idx: SymIdx) -> SymbolRef<'a, 'd> {
        match idx.kind() {
            SymKind::Local(l) => self.locals.at(l.pos()),
            SymKind::Global(g) => self.globals.at(g.pos()),
        }
    }
    /// The callgraph node `id`.
    pub fn func(&self, id: FuncId) -> &'a Function {
        &self.functions[id.0 as usize]
    }
}

/// Where a shared-memory variable was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedKind {
    /// In a kernel's own `.nv.shared.<k>` (the kernel's text section is given).
    Kernel(SecId),
    /// In a device function (ptxas puts those in `.nv_debug.shared`).
    Function,
    /// `extern __shared__`: dynamic shared memory, placed after the static window.
    Dynamic,
}

/// A shared-memory variable.
#[derive(Clone, Debug)]
pub struct SharedVar {
    /// Where it was declared.
    pub kind: SharedKind,
    /// Alignment (ptxas stores it in `st_value`).
    pub align: u64,
    /// Size.
    pub size: u64,
    /// Offset assigned by the layout (relative to the user part of the window).
    pub offset: Option<u64>,
    /// The output section it was declared in (none for dynamic shared memory).
    pub section: Option<SecId>,
    /// The code section of the one kernel whose window holds it, for variables declared
    /// outside a kernel's own shared section (`.nv_debug.shared`) and placed privately.
    pub window: Option<SecId>,
    /// An `extern __shared__` name an earlier `-r -g` defined at 0 in `.nv_debug.shared`:
    /// it asks 16 of the windows naming it and nothing of the others (see `shared`); under
    /// `--preserve-relocs` debug info naming it is recorded (see `relocate`).
    pub at_zero: bool,
    /// An `extern __shared__` name an earlier `-r -g` defined past 0 in `.nv_debug.shared`
    /// (where its kernel's dynamic memory started): `--preserve-relocs` links such an image
    /// where it stops at names at 0 and at `-G` objects' names (see `relocate`).
    pub past_zero: bool,
}

/// Two weak definitions of one function met; one was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeakContest {
    /// The function.
    pub symbol: SymIdx,
    /// The input whose definition stayed.
    pub winner: usize,
    /// The input whose definition went.
    pub loser: usize,
    /// What decided.
    pub why: WeakWhy,
}

/// What decides between two weak definitions (nvlink's order of criteria).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeakWhy {
    /// The newer virtual architecture (PTX `.target`).
    NewerPtxTarget,
    /// Fewer registers.
    FewerRegisters,
    /// Neither differs: the first on the command line.
    FirstOnCommandLine,
}

/// Why a function is in the image, or is not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeepReason {
    /// Not decided (dead-code elimination did not run yet).
    Unknown,
    /// A kernel (selected by `--kernels-used` when given).
    Kernel,
    /// Called, directly or not, from a kernel: the chain of calls from it, by function ordinal.
    Reachable {
        /// The kernel or address-taken function the chain starts at.
        root: usize,
        /// The functions from the root to this one, both included.
        path: Vec<usize>,
    },
    /// Its address is taken (it may be called indirectly).
    AddressTaken,
    /// `-r`, `-g` or `--preserve-relocs`: nothing is eliminated.
    NoElimination,
    /// A kernel `--kernels-used` did not select (or that `--variables-used` left out), and
    /// nothing kept calls it.
    NotSelected,
    /// A kernel no host object's `.nvHRKE`/`.nvHRKI` list names, and nothing kept calls it.
    NotReferencedFromHost,
    /// Nothing kept calls it.
    Unreachable,
}

/// Who put a name into a namespace, so the name can leave with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameOwner {
    /// A section.
    Section(SecId),
    /// A symbol.
    Symbol(SymIdx),
}

impl<'d> State<'d> {
    /// A fresh state with the sentinels in place; made-up names go to `bump`.
    pub fn new(bump: &'d bumpalo::Bump) -> State<'d> {
        let mut s = State {
            bump,
            sections: SectionColumns::default(),
            nodes: DataNodeColumns::default(),
            locals: SymbolColumns::default(),
            globals: SymbolColumns::default(),
            global_names: NameMap::for_symbol_names(),
            section_names: NameMap::for_section_names(),
            first_named: Vec::new(),
            local_name_order: Vec::new(),
            global_name_order: Vec::new(),
            interned: Vec::new(),
            interned_offsets: FxHashMap::default(),
            interned_size: 0,
            relocs: Vec::new(),
            info: Vec::new(),
            section_info: SecMap::default(),
            info_tail: Vec::new(),
            section_info_tail: FxHashMap::default(),
            functions: Vec::new(),
            shared_vars: Vec::new(),
            weak_shared: FxHashMap::default(),
            dynamic_shared_first: FxHashMap::default(),
            global_shared_first: FxHashMap::default(),
            shared_instances: FxHashMap::default(),
            dynamic_names: Default::default(),
            unplaced_dynamic_code: Default::default(),
            dynamic_shared_at: Default::default(),
            shared_common_area: false,
            late_windows: Vec::new(),
            held_kernels: Default::default(),
            lto_left_out: Default::default(),
            held_windows: Default::default(),
            address_taken: Vec::new(),
            indirect_calls: Vec::new(),
            merged_inputs: Vec::new(),
            input_vsm: FxHashMap::default(),
            input_maps: Vec::new(),
            merc_section_info: FxHashMap::default(),
            pruned_debug_frame: None,
            line_moves: Vec::new(),
            regcounts: FxHashMap::default(),
            merc_frame_sizes: FxHashMap::default(),
            weak_contests: Vec::new(),
            replaced_with_relocations: Vec::new(),
            info_places: FxHashMap::default(),
            weak_first_input: FxHashMap::default(),
            var_first_named: FxHashMap::default(),
            ptx_const0_size: None,
            keep_reasons: Vec::new(),
            call_lists: None,
            sass_info_tail: FxHashMap::default(),
            new_constant2: Vec::new(),
            hidden_constants: Vec::new(),
            null_symbol_value: 0,
            merc_bank2: Vec::new(),
            slot_banks: Vec::new(),
            merc_slot_values: FxHashMap::default(),
        };
        s.sections.push(Section {
            role: SecRole::Synthetic,
            ..new_section("", 0, 0, 0, 0)
        });
        s.first_named.push(SecId(0));
        let sentinel = Symbol::new("", 0, 0, 0, 0, usize::MAX);
        s.locals.push(sentinel);
        s.globals.push(sentinel);
        s.nodes.push(DataNode {
            data: None,
            offset: 0,
            align: 0,
            size: 0,
            input: usize::MAX,
            in_section: u32::MAX,
            next_node: 0,
        });
        s.functions.push(Function::default());
        s.interned_size = 1;
        s
    }

    /// The section `id`.
    pub fn sec(&self, id: SecId) -> SectionRef<'_, 'd> {
        self.sections.at(id.index())
    }
    /// The section `id`, for writing.
    pub fn sec_mut(&mut self, id: SecId) -> SectionMut<'_, 'd> {
        self.sections.at_mut(id.index())
    }
    /// The sections' ids in creation order, the null section excluded.
    pub fn section_ids(&self) -> impl Iterator<Item = SecId> {
        (1..self.sections.len() as u32).map(SecId)
    }
    /// The symbols and callgraph, for readers on other threads.
    pub fn symbol_view(&self) -> SymbolView<'_, 'd> {
        SymbolView {
            locals: &self.locals,
            globals: &self.globals,
            functions: &self.functions,
        }
    }
    /// The symbol `idx`.
    pub fn sym(&self, idx: SymIdx) -> SymbolRef<'_, 'd> {
        match idx.kind() {
            SymKind::Local(l) => self.locals.at(l.pos()),
            SymKind::Global(g) => self.globals.at(g.pos()),
        }
    }
    /// The symbol `idx`, for writing.
    pub fn sym_mut(&mut self, idx: SymIdx) -> SymbolMut<'_, 'd> {
        match idx.kind() {
            SymKind::Local(l) => self.locals.at_mut(l.pos()),
            SymKind::Global(g) => self.globals.at_mut(g.pos()),
        }
    }
    /// The data nodes of section `id`, in order.
    pub fn nodes_of(&self, id: SecId) -> impl Iterator<Item = DataNodeRef<'_, 'd>> + '_ {
        self.nodes.list(self.sec(id).nodes())
    }
    /// Gives section `id`'s contributions new bytes (`new` returns them, or `None` to keep a
    /// contribution's own) and lays them out again from offset 0 with their alignments, as
    /// [`State::append_data`] did. Returns each contribution's (old offset, new offset).
    pub fn relayout_nodes(
        &mut self,
        id: SecId,
        mut new: impl FnMut(usize, DataNode<'d>) -> Option<&'d [u8]>,
    ) -> Vec<(u64, u64)> {
        let mut moved = Vec::new();
        let mut size = 0u64;
        let mut next = self.sec(id).nodes().first;
        let mut k = 0;
        while next != 0 {
            let slot = next as usize;
            let node = self.nodes.at(slot).record();
            next = node.next_node;
            let mut n = self.nodes.at_mut(slot);
            if let Some(bytes) = new(k, node) {
                *n.data() = Some(bytes);
                *n.size() = bytes.len() as u64;
            }
            let offset = size.div_ceil(node.align.max(1)) * node.align.max(1);
            *n.offset() = offset;
            size = offset + *n.size();
            moved.push((node.offset, offset));
            k += 1;
        }
        *self.sec_mut(id).size() = size;
        moved
    }

    /// Cuts section `id` to `size` bytes: contributions past it go, one across it keeps
    /// its bytes up to it.
    pub fn truncate_section(&mut self, id: SecId, size: u64) {
        let mut next = self.sec(id).nodes().first;
        while next != 0 {
            let slot = next as usize;
            let node = self.nodes.at(slot).record();
            next = node.next_node;
            let keep = size.saturating_sub(node.offset);
            if node.size > keep {
                let mut n = self.nodes.at_mut(slot);
                *n.size() = keep;
                if let Some(d) = node.data {
                    *n.data() = Some(&d[..(keep as usize).min(d.len())]);
                }
            }
        }
        *self.sec_mut(id).size() = size;
    }

    /// Where offset `offset` of line-table section `id` went when it was pruned (itself when
    /// the section was not pruned or the offset fell in removed bytes).
    pub fn line_offset(&self, id: SecId, offset: u64) -> u64 {
        self.line_moves
            .iter()
            .find(|(s, _)| *s == id)
            .and_then(|(_, moves)| moved_offset(moves, offset))
            .unwrap_or(offset)
    }

    /// Drops every data node of section `id` (the nodes stay in the store, unlinked).
    pub fn clear_nodes(&mut self, id: SecId) {
        *self.sec_mut(id).nodes() = NodeList::EMPTY;
    }

    /// Creates a section (nvlink's `section_create`), registering its name in both namespaces.
    /// Constant-bank sections of a final link first get their `.rel` companion, whose name
    /// enters `.strtab` before the parent's (observed).
    pub fn create_section(&mut self, sec: Section<'d>, with_rel_companion: bool) -> SecId {
        self.create_section_hashed(NameHash::of(sec.name), sec, with_rel_companion)
    }

    /// [`create_section`](Self::create_section) with the name's hash already computed.
    pub fn create_section_hashed(
        &mut self,
        hash: NameHash,
        mut sec: Section<'d>,
        with_rel_companion: bool,
    ) -> SecId {
        let id = SecId(self.sections.len() as u32);
        let name = sec.name;
        sec.removed = false;
        sec.nodes = NodeList::EMPTY;
        self.sections.push(sec);
        let (_, last) = self.section_names.insert_hashed(hash, name, id);
        let first = last.map_or(id, |last| {
            self.first_named.get(last.index()).copied().unwrap_or(last)
        });
        self.first_named.push(first);
        if with_rel_companion {
            let rel_name = self.make_name(&[".rel", name]);
            // No SHF_INFO_LINK (observed on the texture-slot relocations it carries).
            let rel = Section {
                link: Link::Symtab,
                info: Link::Section(id),
                role: SecRole::Synthetic,
                reloc_target: Some(id),
                ..new_section(rel_name, crate::elf::consts::SHT_REL, 0, 8, 16)
            };
            self.create_section(rel, false);
        }
        self.local_name_order.push((name, NameOwner::Section(id)));
        id
    }

    /// The room reserved past their records in the large lists the merge fills (the record
    /// columns, the namespaces' entries, the name orders, the functions, the relocations, the
    /// `.nv.info` records), as address ranges: what `ahead::Prefault` maps in ahead of the
    /// merge.
    pub fn reserved_room(&self) -> Vec<(usize, usize)> {
        use super::ahead::room;
        let mut out = Vec::new();
        self.sections.room(&mut out);
        self.nodes.room(&mut out);
        self.locals.room(&mut out);
        self.globals.room(&mut out);
        out.push(self.global_names.reserved_room());
        out.push(self.section_names.reserved_room());
        out.push(room(&self.first_named));
        out.push(room(&self.local_name_order));
        out.push(room(&self.global_name_order));
        out.push(room(&self.functions));
        out.push(room(&self.relocs));
        out.push(room(&self.info));
        out.push(self.section_info.room());
        out
    }

    /// Looks a section up by name.
    pub fn section_by_name(&self, name: &str) -> Option<SecId> {
        self.section_names.get(name).copied()
    }

    /// The first section created with this name (where [`section_by_name`](Self::section_by_name)
    /// gives the last): what nvlink's look-ups by name find when two sections share it (a
    /// local kernel given twice).
    pub fn first_section_by_name(&self, name: &str) -> Option<SecId> {
        let last = self.section_by_name(name)?;
        Some(self.first_named.get(last.index()).copied().unwrap_or(last))
    }

    /// The section named `name` that belongs to the code section `text` (its `sh_info`):
    /// a kernel's `.nv.info.<f>` or `.nv.constant2.<f>` when a local kernel given twice
    /// makes two sections of that name. A lone section of the name is taken whatever its
    /// `sh_info` says.
    pub fn section_of_code(&self, name: &str, text: SecId) -> Option<SecId> {
        let last = self.section_by_name(name)?;
        let first = self.first_section_by_name(name)?;
        if first == last {
            return Some(last);
        }
        let owns = |id: SecId| self.sec(id).info() == Link::Section(text);
        if owns(last) {
            return Some(last);
        }
        if owns(first) {
            return Some(first);
        }
        self.section_ids()
            .find(|&id| self.sec(id).name() == name && owns(id))
    }

    /// [`section_by_name`](Self::section_by_name) with the name's hash already computed.
    pub fn section_by_name_hashed(&self, hash: NameHash, name: &str) -> Option<SecId> {
        self.section_names.get_hashed(hash, name).copied()
    }

    /// A name made of `parts`, interned in the link's arena (`.nv.info.` + a function name …).
    pub fn make_name(&self, parts: &[&str]) -> &'d str {
        self.bump.alloc_str(&parts.concat())
    }

    /// `name` as a string of the link's lifetime: an input's bytes when they are UTF-8
    /// (no copy), a lossy copy in the arena otherwise.
    pub fn name_from(&self, name: &'d [u8]) -> &'d str {
        match std::str::from_utf8(name) {
            Ok(s) => s,
            Err(_) => self.bump.alloc_str(&String::from_utf8_lossy(name)),
        }
    }

    /// Adds a local (or section) symbol to the positive array.
    pub fn add_local(&mut self, sym: Symbol<'d>, register_name: bool) -> SymIdx {
        let slot = self.locals.len() as u32;
        let idx: SymIdx = LocalIdx::from_slot(slot)
            .expect("positive array slot is never 0")
            .into();
        if register_name {
            self.local_name_order
                .push((sym.name, NameOwner::Symbol(idx)));
        }
        self.locals.push(sym);
        idx
    }

    /// Adds a non-local symbol to the negative array and its name to the global namespace.
    pub fn add_global(&mut self, sym: Symbol<'d>) -> SymIdx {
        self.add_global_hashed(NameHash::of(sym.name), sym)
    }

    /// [`add_global`](Self::add_global) with the name's hash already computed.
    pub fn add_global_hashed(&mut self, hash: NameHash, sym: Symbol<'d>) -> SymIdx {
        let slot = self.globals.len() as u32;
        let idx: SymIdx = GlobalIdx::from_slot(slot)
            .expect("negative array slot is never 0")
            .into();
        self.global_names.insert_hashed(hash, sym.name, idx);
        self.global_name_order
            .push((sym.name, NameOwner::Symbol(idx)));
        self.globals.push(sym);
        idx
    }

    /// Looks a non-local symbol up by name.
    pub fn global_by_name(&self, name: &str) -> Option<SymIdx> {
        self.global_names.get(name).copied()
    }

    /// [`global_by_name`](Self::global_by_name) with the name's hash already computed.
    pub fn global_by_name_hashed(&self, hash: NameHash, name: &str) -> Option<SymIdx> {
        self.global_names.get_hashed(hash, name).copied()
    }

    /// Interns a string into the head of `.strtab` (prototype strings), returning its offset.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&o) = self.interned_offsets.get(s) {
            return o;
        }
        let o = self.interned_size;
        self.interned_size += s.len() as u32 + 1;
        let s: &'d str = self.bump.alloc_str(s);
        self.interned.push(s);
        self.interned_offsets.insert(s, o);
        o
    }

    /// Registers a callgraph node for a function symbol.
    pub fn add_function(&mut self, sym: SymIdx, is_entry: bool) -> FuncId {
        let id = FuncId(self.functions.len() as u32);
        self.functions.push(Function {
            sym: Some(sym),
            is_entry,
            ..Function::default()
        });
        *self.sym_mut(sym).func() = Some(id);
        id
    }

    /// The callgraph node `id`.
    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The callgraph node `id`, mutably.
    pub fn func_mut(&mut self, id: FuncId) -> &mut Function {
        &mut self.functions[id.0 as usize]
    }

    /// Appends a contribution to a section, aligning it (nvlink's `section_data_copy`).
    pub fn append_data(
        &mut self,
        sec: SecId,
        data: Option<&'d [u8]>,
        size: u64,
        align: u64,
        input: usize,
        in_section: u32,
    ) -> u64 {
        let node = self.nodes.push(DataNode {
            data,
            offset: 0,
            align: 0,
            size,
            input,
            in_section,
            next_node: 0,
        }) as u32;
        let mut s = self.sections.at_mut(sec.index());
        let align = align.max(1);
        let offset = s.size().div_ceil(align) * align;
        *s.size() = offset + size;
        if align > *s.addralign() {
            *s.addralign() = align;
        }
        let list = *s.nodes();
        *s.nodes() = NodeList {
            first: if list.is_empty() { node } else { list.first },
            last: node,
        };
        if !list.is_empty() {
            *self.nodes.at_mut(list.last as usize).next_node() = node;
        }
        let mut n = self.nodes.at_mut(node as usize);
        *n.offset() = offset;
        *n.align() = align;
        offset
    }
}

/// A range of a section's bytes that moved: (old start, old end, new start).
pub type OffsetMove = (u64, u64, u64);

/// Where `offset` went under `moves` ((old start, old end, new start) ranges in offset order),
/// or `None` when it fell in removed bytes. The end of the last range maps to the new end.
pub fn moved_offset(moves: &[OffsetMove], offset: u64) -> Option<u64> {
    let i = moves.partition_point(|&(start, _, _)| start <= offset);
    let (start, end, new) = moves[i.checked_sub(1)?];
    (offset < end || (offset == end && i == moves.len())).then(|| new + (offset - start))
}

/// A blank section description with the common defaults, for [`State::create_section`].
pub fn new_section<'d>(
    name: &'d str,
    sh_type: u32,
    flags: u64,
    addralign: u64,
    entsize: u64,
) -> Section<'d> {
    Section {
        name,
        sh_type,
        flags,
        link: Link::None,
        info: Link::None,
        addralign,
        entsize,
        size: 0,
        nodes: NodeList::EMPTY,
        symbol: None,
        removed: false,
        name_removed: false,
        role: SecRole::Data,
        reloc_target: None,
        keep_empty: false,
    }
}
