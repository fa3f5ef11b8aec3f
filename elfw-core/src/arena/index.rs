//! Typed indices into the arena (STYLE.md, "Indices you cannot mix up").
//!
//! Every index is a `NonZero` newtype, so slot 0 of each store — nvlink's sentinel, meaning
//! "none" or `SHN_UNDEF` — cannot be named and `Option<Index>` costs nothing. Each index carries
//! the index space it belongs to ([`Merged`] before dead-code elimination, [`Output`] after), so
//! an index minted before DCE does not type-check against the compacted arena; crossing spaces
//! goes through a [`Remap`](super::Remap).
//!
//! Indices are minted only by this crate: no raw integer index crosses the crate boundary.
//! `Display` prints the number as nvlink writes it (negative for globals).

use core::fmt;
use core::hash::Hash;
use core::marker::PhantomData;
use core::num::{NonZeroI32, NonZeroU32};

pub(crate) mod sealed {
    /// Seals [`Space`](super::Space) and [`MergedIndex`](super::MergedIndex).
    pub trait Sealed {}
}

/// Largest slot number any index may hold: a global's slot must fit `-n` in an `i32`.
pub(crate) const MAX_SLOT: u32 = i32::MAX as u32;

/// An index space: [`Merged`] (the arena being built) or [`Output`] (after dead-code
/// elimination). Sealed; the two markers are the only spaces.
pub trait Space:
    sealed::Sealed + Copy + Eq + Ord + Hash + fmt::Debug + Send + Sync + 'static
{
    /// Short name used in `Debug` output ("merged" / "output").
    const NAME: &'static str;
}

/// The index space of the arena while inputs are merged into it (nvlink's "old" indices,
/// before dead-code elimination).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Merged {}

/// The index space after dead-code elimination: indices `1..=n` per store, in the order the
/// merged arena had them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Output {}

impl sealed::Sealed for Merged {}
impl sealed::Sealed for Output {}
impl Space for Merged {
    const NAME: &'static str = "merged";
}
impl Space for Output {
    const NAME: &'static str = "output";
}

macro_rules! slot_index {
    ($(#[$doc:meta])* $name:ident, $tag:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name<S: Space = Merged>(NonZeroU32, PhantomData<fn() -> S>);

        impl<S: Space> $name<S> {
            /// The index for `slot`, or `None` for slot 0 or a slot past [`MAX_SLOT`].
            pub(crate) fn from_slot(slot: u32) -> Option<Self> {
                if slot > MAX_SLOT {
                    return None;
                }
                NonZeroU32::new(slot).map(|n| Self(n, PhantomData))
            }

            /// The slot number (never 0).
            pub(crate) fn slot(self) -> u32 {
                self.0.get()
            }

            /// The slot as a vector position.
            pub(crate) fn pos(self) -> usize {
                self.0.get() as usize
            }
        }

        impl<S: Space> fmt::Debug for $name<S> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({}, {})", $tag, self.0, S::NAME)
            }
        }

        impl<S: Space> fmt::Display for $name<S> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

slot_index!(
    /// A slot of the positive symbol array: locals, section symbols and weak symbols (nvlink
    /// puts every binding but `STB_GLOBAL` here). Printed as nvlink's positive `sym_index`.
    LocalIdx,
    "LocalIdx"
);
slot_index!(
    /// A slot of the negative symbol array: `STB_GLOBAL` symbols, which nvlink addresses as
    /// `-n`. Displayed as the positive slot number `n`; [`SymIdx`] displays the sign.
    GlobalIdx,
    "GlobalIdx"
);
slot_index!(
    /// An arena section: the position in the section store, which is also the section number
    /// symbols refer to (nvlink's creation-order `section_index`). Slot 0 is `SHN_UNDEF`.
    SectionIdx,
    "SectionIdx"
);
slot_index!(
    /// A data node: one contribution of bytes to a section (seed 04, "Data Copy Primitive").
    DataNodeIdx,
    "DataNodeIdx"
);

/// A symbol: nvlink's signed `sym_index`, positive for the local array and negative for the
/// global array. Built only from a [`LocalIdx`] or a [`GlobalIdx`], so it is never 0 and
/// `Option<SymIdx>` is four bytes. Match on [`kind`](Self::kind) rather than on the sign.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymIdx<S: Space = Merged>(NonZeroI32, PhantomData<fn() -> S>);

/// Which array a [`SymIdx`] addresses.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum SymKind<S: Space = Merged> {
    /// The positive array (locals, section symbols, weak symbols).
    Local(LocalIdx<S>),
    /// The negative array (`STB_GLOBAL`).
    Global(GlobalIdx<S>),
}

impl<S: Space> SymIdx<S> {
    /// The array and slot this index addresses.
    pub fn kind(self) -> SymKind<S> {
        let n = self.0.get();
        // Both constructors keep |n| within 1..=MAX_SLOT, so the slot is never 0.
        let slot = NonZeroU32::new(n.unsigned_abs()).unwrap_or(NonZeroU32::MIN);
        if n > 0 {
            SymKind::Local(LocalIdx(slot, PhantomData))
        } else {
            SymKind::Global(GlobalIdx(slot, PhantomData))
        }
    }

    /// The slot in the positive array, if this is a local index.
    pub fn as_local(self) -> Option<LocalIdx<S>> {
        match self.kind() {
            SymKind::Local(l) => Some(l),
            SymKind::Global(_) => None,
        }
    }

    /// The slot in the negative array, if this is a global index.
    pub fn as_global(self) -> Option<GlobalIdx<S>> {
        match self.kind() {
            SymKind::Global(g) => Some(g),
            SymKind::Local(_) => None,
        }
    }

    /// nvlink's signed `sym_index` (for the ELF boundary inside this crate).
    #[allow(dead_code)]
    pub(crate) fn signed(self) -> i32 {
        self.0.get()
    }
}

impl<S: Space> From<LocalIdx<S>> for SymIdx<S> {
    fn from(l: LocalIdx<S>) -> Self {
        // slot <= MAX_SLOT = i32::MAX, so the cast is exact and non-zero.
        SymIdx(
            NonZeroI32::new(l.slot() as i32).unwrap_or(NonZeroI32::MIN),
            PhantomData,
        )
    }
}

impl<S: Space> From<GlobalIdx<S>> for SymIdx<S> {
    fn from(g: GlobalIdx<S>) -> Self {
        SymIdx(
            NonZeroI32::new(-(g.slot() as i32)).unwrap_or(NonZeroI32::MIN),
            PhantomData,
        )
    }
}

impl<S: Space> fmt::Debug for SymIdx<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SymIdx({}, {})", self.0, S::NAME)
    }
}

impl<S: Space> fmt::Display for SymIdx<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A function's ordinal: its node slot in the callgraph, handed out by a counter as function
/// symbols are added (seed 01, phase 11). Ordinals are not renumbered by dead-code elimination.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FuncOrdinal(NonZeroU32);

impl FuncOrdinal {
    pub(crate) fn from_slot(slot: u32) -> Option<Self> {
        NonZeroU32::new(slot).map(FuncOrdinal)
    }

    pub(crate) fn pos(self) -> usize {
        self.0.get() as usize
    }
}

impl fmt::Debug for FuncOrdinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FuncOrdinal({})", self.0)
    }
}

impl fmt::Display for FuncOrdinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A symbol binding as the arena knows it: the three values of `st_info >> 4` nvlink handles.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Binding {
    /// `STB_LOCAL`: positive array.
    Local,
    /// `STB_GLOBAL`: negative array.
    Global,
    /// `STB_WEAK`: positive array (nvlink gives the negative array to `STB_GLOBAL` only).
    Weak,
}

impl Binding {
    /// The binding for an ELF `STB_*` value, if it is one of the three.
    pub fn from_elf(stb: u8) -> Option<Binding> {
        match stb {
            0 => Some(Binding::Local),
            1 => Some(Binding::Global),
            2 => Some(Binding::Weak),
            _ => None,
        }
    }

    /// The ELF `STB_*` value.
    pub fn to_elf(self) -> u8 {
        match self {
            Binding::Local => 0,
            Binding::Global => 1,
            Binding::Weak => 2,
        }
    }
}

/// An index of the merged space that a [`Remap`](super::Remap) can carry into the output space.
/// Sealed: implemented for [`LocalIdx`], [`GlobalIdx`], [`SectionIdx`] and [`DataNodeIdx`] of
/// [`Merged`].
pub trait MergedIndex: sealed::Sealed + Copy + Eq + fmt::Debug {
    /// The same kind of index in the [`Output`] space.
    type Output: Copy + Eq + fmt::Debug;
    #[doc(hidden)]
    fn slot_of(self) -> u32;
    #[doc(hidden)]
    fn merged_from_slot(slot: u32) -> Option<Self>;
    #[doc(hidden)]
    fn output_from_slot(slot: u32) -> Option<Self::Output>;
}

macro_rules! merged_index {
    ($name:ident) => {
        impl sealed::Sealed for $name<Merged> {}
        impl MergedIndex for $name<Merged> {
            type Output = $name<Output>;
            fn slot_of(self) -> u32 {
                self.slot()
            }
            fn merged_from_slot(slot: u32) -> Option<Self> {
                Self::from_slot(slot)
            }
            fn output_from_slot(slot: u32) -> Option<$name<Output>> {
                $name::from_slot(slot)
            }
        }
    };
}

merged_index!(LocalIdx);
merged_index!(GlobalIdx);
merged_index!(SectionIdx);
merged_index!(DataNodeIdx);
