//! Struct-of-arrays storage for the link's symbol, section and data-node records.
//!
//! nvlink keeps each kind of record in one array addressed by index; elfw keeps each *field*
//! in its own column, so a pass that reads one field of every record (is it removed? which
//! section is it in?) walks one dense array. [`columns!`] writes, for a record type, the
//! column store, a read view ([`Copy`], one bounds-checked load per field read) and a write
//! view (a `&mut` per field). The record type itself stays the value a caller builds a new
//! record from, and what [`record`](SectionRef::record) gives back.

/// Declares `$cols`, the column store of record `$rec`, with its read view `$r` and write
/// view `$m`. Every field type is `Copy`.
macro_rules! columns {
    (
        $(#[$cm:meta])*
        pub struct $cols:ident of $rec:ident, read $r:ident, write $m:ident {
            $(#[$f0m:meta])* $f0:ident : $t0:ty,
            $( $(#[$fm:meta])* $f:ident : $t:ty, )*
        }
    ) => {
        $(#[$cm])*
        #[derive(Clone, Debug, Default)]
        pub struct $cols<'d> {
            $(#[$f0m])* pub(crate) $f0: Vec<$t0>,
            $( $(#[$fm])* pub(crate) $f: Vec<$t>, )*
        }

        impl<'d> $cols<'d> {
            /// Appends a record; returns its slot.
            pub fn push(&mut self, r: $rec<'d>) -> usize {
                let slot = self.$f0.len();
                self.$f0.push(r.$f0);
                $( self.$f.push(r.$f); )*
                slot
            }
            /// Number of records (sentinel included).
            pub fn len(&self) -> usize {
                self.$f0.len()
            }
            /// Whether the store is empty.
            pub fn is_empty(&self) -> bool {
                self.$f0.is_empty()
            }
            /// Reserves room for `n` more records in every column.
            pub fn reserve(&mut self, n: usize) {
                self.$f0.reserve(n);
                $( self.$f.reserve(n); )*
            }
            /// Each column's reserved room past its records, as an address range (see
            /// `ahead::Prefault`).
            pub fn room(&self, out: &mut Vec<(usize, usize)>) {
                out.push(crate::link::ahead::room(&self.$f0));
                $( out.push(crate::link::ahead::room(&self.$f)); )*
            }
            /// Read view of slot `slot`.
            #[inline]
            pub fn at(&self, slot: usize) -> $r<'_, 'd> {
                assert!(slot < self.len(), "record slot out of range");
                $r { cols: self, slot }
            }
            /// Write view of slot `slot`.
            #[inline]
            pub fn at_mut(&mut self, slot: usize) -> $m<'_, 'd> {
                assert!(slot < self.len(), "record slot out of range");
                $m { cols: self, slot }
            }
            /// Read views of every slot, sentinel included, in order.
            pub fn iter(&self) -> impl ExactSizeIterator<Item = $r<'_, 'd>> + '_ {
                (0..self.len()).map(move |slot| $r { cols: self, slot })
            }
        }

        /// Read view of one record in its column store.
        #[derive(Clone, Copy)]
        pub struct $r<'a, 'd> {
            cols: &'a $cols<'d>,
            slot: usize,
        }

        impl<'a, 'd> $r<'a, 'd> {
            $(#[$f0m])*
            #[inline]
            pub fn $f0(self) -> $t0 {
                self.cols.$f0[self.slot]
            }
            $(
                $(#[$fm])*
                #[inline]
                pub fn $f(self) -> $t {
                    self.cols.$f[self.slot]
                }
            )*
            /// The whole record, copied out of its columns.
            pub fn record(self) -> $rec<'d> {
                $rec { $f0: self.$f0(), $( $f: self.$f(), )* }
            }
        }

        /// Write view of one record in its column store.
        pub struct $m<'a, 'd> {
            cols: &'a mut $cols<'d>,
            slot: usize,
        }

        impl<'a, 'd> $m<'a, 'd> {
            $(#[$f0m])*
            #[inline]
            pub fn $f0(&mut self) -> &mut $t0 {
                &mut self.cols.$f0[self.slot]
            }
            $(
                $(#[$fm])*
                #[inline]
                pub fn $f(&mut self) -> &mut $t {
                    &mut self.cols.$f[self.slot]
                }
            )*
            /// Read view of the same record.
            #[inline]
            pub fn view(&self) -> $r<'_, 'd> {
                $r { cols: &*self.cols, slot: self.slot }
            }
            /// Overwrites the whole record.
            pub fn set(&mut self, r: $rec<'d>) {
                *self.$f0() = r.$f0;
                $( *self.$f() = r.$f; )*
            }
        }
    };
}

pub(crate) use columns;
