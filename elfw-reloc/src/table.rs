//! The relocation types nvlink 13.5 knows, as data.
//!
//! Two numberings share the ELF `r_type` space:
//! - `R_CUDA_*`, types 0..=116 (`R_CUDA_NONE_LAST` = 116 is a bound, not a type), used by every
//!   SASS section of sm_75 … sm_121 objects;
//! - `R_MERCURY_*`, types 0x10000..=0x10040 (`R_MERCURY_NONE_LAST` = 0x10040), used by the
//!   `.nv.merc.rela*` sections (section type 0x70000082) that sm_100+ objects carry beside their
//!   SASS.
//!
//! The names and their order are those of nvlink 13.5's own name table (read with `strings` from
//! the binary); the field geometry and resolver classes follow the descriptor tables described in
//! the nvopen-tools wiki ("R_CUDA Relocation Types", "R_MERCURY Relocation Types"), checked against
//! real nvlink/nvdisasm output where the tests in `tests/` say so (see `EVIDENCE.md`).

/// Which numbering a relocation type belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `R_CUDA_*`: SASS instruction words and data of sm_75 … sm_121 sections.
    Cuda,
    /// `R_MERCURY_*`: the Mercury mirror (`.nv.merc.*`) of sm_100+ objects; `r_type` = index + 0x10000.
    Mercury,
}

/// Who is expected to resolve a relocation of this type, per the descriptor table's handler class.
///
/// This is the table's static class; whether nvlink resolves one particular relocation at link
/// time also depends on its target (see [`crate::disposition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resolver {
    /// No action (`R_CUDA_NONE`, the `*_NONE_LAST` bounds).
    None,
    /// Resolved by the linker.
    Linker,
    /// Resolved by the CUDA driver at load time.
    Driver,
    /// Either the linker or the driver, depending on whether the value is known at link time.
    Either,
    /// Resolved by the Mercury finalizer (the `R_MERCURY_PROG_REL*` family).
    Finalizer,
}

/// What value the fields of a relocation receive.
///
/// [`crate::apply`] takes that value ready-made; this says how the caller computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// Nothing is written.
    None,
    /// `S + A`: an address or offset (byte offset into a constant bank, shared window offset,
    /// section offset of a debug section, or a load address the driver fills in).
    Address,
    /// `S + A` in the generic address window (`G*`); always left to the driver.
    GenericAddress,
    /// `S + A - P`, P being the address of the patched word.
    PcRelative,
    /// Index of a texture, sampler or surface header, assigned by the driver.
    HeaderIndex,
    /// Surface hardware (and software) descriptor, filled in by the driver.
    SurfaceDescriptor,
    /// Binding slot of a texture, sampler or surface.
    Slot,
    /// Address of a function descriptor (indirect calls, device-side launches).
    FunctionDescriptor,
    /// Address in the unified function/data tables.
    UnifiedAddress,
    /// A whole replacement instruction (or opcode) carried in the addend.
    Instruction,
    /// The field is cleared to zero (when the referenced symbol was removed).
    Clear,
}

/// Where a field's bits come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Bits `shift ..` of the relocation value.
    Value,
    /// Bits `shift ..` of the constant bank number (the `CBANK` part of `CONST_FIELD*` types).
    Bank,
}

/// One contiguous bit range a relocation writes.
///
/// Bit numbering is little-endian over the patched bytes: bit `b` is bit `b % 8` of byte
/// `offset + b / 8`, so a 128-bit instruction is two little-endian 64-bit words and bit 64 is
/// bit 0 of the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// First bit written, counted from bit 0 of the byte at the relocation offset.
    pub bit: u8,
    /// Number of bits written (1..=64).
    pub width: u8,
    /// The field receives `(source >> shift)` truncated to `width` bits.
    pub shift: u8,
    /// Which operand the bits come from.
    pub source: Source,
}

impl Field {
    /// One past the last bit written.
    pub const fn end(&self) -> u32 {
        self.bit as u32 + self.width as u32
    }
}

/// How the implicit addend of an `SHT_REL` relocation is read back from the patched bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImplicitAddend {
    /// Each value field, shifted back left by its `shift`, summed: the addend is in the same
    /// units as the value (e.g. `R_CUDA_ABS32_HI_32`'s field counts 2^32s).
    Shifted,
    /// The raw field: nvlink adds the old byte to the value before selecting the byte lane
    /// (`R_CUDA_8_*` and the other byte-lane types).
    Raw,
}

/// One relocation type: its number, name and what it does to the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RelocType {
    /// The ELF `r_type` (the low 32 bits of `r_info`).
    pub number: u32,
    /// nvlink's name for it, e.g. `"R_CUDA_ABS32_LO_32"`.
    pub name: &'static str,
    /// Which numbering it belongs to.
    pub family: Family,
    /// Who resolves it, per the descriptor table.
    pub resolver: Resolver,
    /// What the fields receive.
    pub value: ValueKind,
    /// The bit ranges written, in the order nvlink writes them.
    pub fields: &'static [Field],
    /// How an `SHT_REL` implicit addend is read.
    pub implicit_addend: ImplicitAddend,
}

impl RelocType {
    /// Bytes from the relocation offset that the fields touch (0 for types that write nothing).
    pub fn span_bytes(&self) -> usize {
        let end = self.fields.iter().map(Field::end).max().unwrap_or(0);
        end.div_ceil(8) as usize
    }

    /// True when the fields of this type lie in a 128-bit instruction word beyond its first
    /// 64 bits, or it writes a 64-bit field in the upper half.
    pub fn needs_128_bit_word(&self) -> bool {
        self.span_bytes() > 8
    }

    /// True if the value must be computed as `S + A - P`.
    pub fn is_pc_relative(&self) -> bool {
        self.value == ValueKind::PcRelative
    }

    /// True for the `*_NONE_LAST` entries, which bound the tables and are not applicable types
    /// (nvlink refuses `R_CUDA_NONE_LAST` with `sass rtype out of range`).
    pub fn is_bound(&self) -> bool {
        self.number == CUDA_BOUND || self.number == MERCURY_BASE + MERCURY_BOUND_INDEX
    }

    /// True if the type has a constant-bank (`CBANK`) field besides its value fields.
    pub fn has_bank_field(&self) -> bool {
        self.fields.iter().any(|f| f.source == Source::Bank)
    }
}

const fn v(bit: u8, width: u8, shift: u8) -> Field {
    Field {
        bit,
        width,
        shift,
        source: Source::Value,
    }
}

const fn b(bit: u8, width: u8, shift: u8) -> Field {
    Field {
        bit,
        width,
        shift,
        source: Source::Bank,
    }
}

/// The first `R_MERCURY_*` type number.
pub const MERCURY_BASE: u32 = 0x10000;

/// `R_CUDA_NONE_LAST`: one past the last `R_CUDA_*` type.
pub const CUDA_BOUND: u32 = 116;

const MERCURY_BOUND_INDEX: u32 = 0x40;

macro_rules! reloc_table {
    ($family:expr, $( $name:literal, $res:ident, $kind:ident, $add:ident, [$($f:expr),*]; )*) => {
        &[ $( RelocType {
            number: 0,
            name: $name,
            family: $family,
            resolver: Resolver::$res,
            value: ValueKind::$kind,
            fields: &[$($f),*],
            implicit_addend: ImplicitAddend::$add,
        }, )* ]
    };
}

/// Fills in `number` (the index plus the family's base) for every entry of a table.
const fn numbered<const N: usize>(entries: &[RelocType], base: u32) -> [RelocType; N] {
    let mut out = [RelocType {
        number: 0,
        name: "",
        family: Family::Cuda,
        resolver: Resolver::None,
        value: ValueKind::None,
        fields: &[],
        implicit_addend: ImplicitAddend::Shifted,
    }; N];
    let mut i = 0;
    while i < N {
        out[i] = entries[i];
        out[i].number = base + i as u32;
        i += 1;
    }
    out
}

const CUDA_ENTRIES: &[RelocType] = reloc_table! { Family::Cuda,
    "R_CUDA_NONE", None, None, Shifted, [];
    "R_CUDA_32", Either, Address, Shifted, [v(0, 32, 0)];
    "R_CUDA_64", Either, Address, Shifted, [v(0, 64, 0)];
    "R_CUDA_G32", Driver, GenericAddress, Shifted, [v(0, 32, 0)];
    "R_CUDA_G64", Driver, GenericAddress, Shifted, [v(0, 64, 0)];
    "R_CUDA_ABS32_26", Either, Address, Shifted, [v(26, 32, 0)];
    "R_CUDA_TEX_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(0, 20, 0)];
    "R_CUDA_SAMP_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(20, 12, 0)];
    "R_CUDA_SURF_HW_DESC", Driver, SurfaceDescriptor, Shifted, [v(0, 32, 0)];
    "R_CUDA_SURF_HW_SW_DESC", Driver, SurfaceDescriptor, Shifted, [v(0, 32, 0)];
    "R_CUDA_ABS32_LO_26", Either, Address, Shifted, [v(26, 32, 0)];
    "R_CUDA_ABS32_HI_26", Either, Address, Shifted, [v(26, 32, 32)];
    "R_CUDA_ABS32_23", Either, Address, Shifted, [v(23, 32, 0)];
    "R_CUDA_ABS32_LO_23", Either, Address, Shifted, [v(23, 32, 0)];
    "R_CUDA_ABS32_HI_23", Either, Address, Shifted, [v(23, 32, 32)];
    "R_CUDA_ABS24_26", Linker, Address, Shifted, [v(26, 24, 0)];
    "R_CUDA_ABS24_23", Linker, Address, Shifted, [v(23, 24, 0)];
    "R_CUDA_ABS16_26", Linker, Address, Shifted, [v(26, 16, 0)];
    "R_CUDA_ABS16_23", Linker, Address, Shifted, [v(23, 16, 0)];
    "R_CUDA_TEX_SLOT", Linker, Slot, Shifted, [v(32, 8, 0)];
    "R_CUDA_SAMP_SLOT", Linker, Slot, Shifted, [v(40, 5, 0)];
    "R_CUDA_SURF_SLOT", Linker, Slot, Shifted, [v(26, 6, 0)];
    "R_CUDA_TEX_BINDLESSOFF13_32", Linker, Address, Shifted, [v(32, 13, 2)];
    "R_CUDA_TEX_BINDLESSOFF13_47", Linker, Address, Shifted, [v(47, 13, 2)];
    "R_CUDA_CONST_FIELD19_28", Linker, Address, Shifted, [v(28, 14, 2), b(42, 4, 0), b(26, 1, 4)];
    "R_CUDA_CONST_FIELD19_23", Linker, Address, Shifted, [v(23, 14, 2), b(37, 5, 0)];
    "R_CUDA_TEX_SLOT9_49", Linker, Slot, Shifted, [v(49, 9, 0)];
    "R_CUDA_6_31", Linker, Address, Shifted, [v(31, 6, 0)];
    "R_CUDA_2_47", Linker, Address, Shifted, [v(47, 2, 0)];
    "R_CUDA_TEX_BINDLESSOFF13_41", Linker, Address, Shifted, [v(41, 13, 2)];
    "R_CUDA_TEX_BINDLESSOFF13_45", Linker, Address, Shifted, [v(45, 13, 2)];
    "R_CUDA_FUNC_DESC32_23", Driver, FunctionDescriptor, Shifted, [v(23, 32, 0)];
    "R_CUDA_FUNC_DESC32_LO_23", Driver, FunctionDescriptor, Shifted, [v(23, 32, 0)];
    "R_CUDA_FUNC_DESC32_HI_23", Driver, FunctionDescriptor, Shifted, [v(23, 32, 32)];
    "R_CUDA_FUNC_DESC_32", Driver, FunctionDescriptor, Shifted, [v(0, 32, 0)];
    "R_CUDA_FUNC_DESC_64", Driver, FunctionDescriptor, Shifted, [v(0, 64, 0)];
    "R_CUDA_CONST_FIELD21_26", Linker, Address, Shifted, [v(26, 16, 0), b(42, 5, 0)];
    "R_CUDA_QUERY_DESC21_37", Linker, Address, Shifted, [v(37, 16, 0), b(53, 5, 0)];
    "R_CUDA_CONST_FIELD19_26", Linker, Address, Shifted, [v(26, 14, 2), b(40, 5, 0)];
    "R_CUDA_CONST_FIELD21_23", Linker, Address, Shifted, [v(23, 16, 0), b(39, 5, 0)];
    "R_CUDA_PCREL_IMM24_26", Linker, PcRelative, Shifted, [v(26, 24, 0)];
    "R_CUDA_PCREL_IMM24_23", Linker, PcRelative, Shifted, [v(23, 24, 0)];
    "R_CUDA_ABS32_20", Either, Address, Shifted, [v(20, 32, 0)];
    "R_CUDA_ABS32_LO_20", Either, Address, Shifted, [v(20, 32, 0)];
    "R_CUDA_ABS32_HI_20", Either, Address, Shifted, [v(20, 32, 32)];
    "R_CUDA_ABS24_20", Linker, Address, Shifted, [v(20, 24, 0)];
    "R_CUDA_ABS16_20", Linker, Address, Shifted, [v(20, 16, 0)];
    "R_CUDA_FUNC_DESC32_20", Driver, FunctionDescriptor, Shifted, [v(20, 32, 0)];
    "R_CUDA_FUNC_DESC32_LO_20", Driver, FunctionDescriptor, Shifted, [v(20, 32, 0)];
    "R_CUDA_FUNC_DESC32_HI_20", Driver, FunctionDescriptor, Shifted, [v(20, 32, 32)];
    "R_CUDA_CONST_FIELD19_20", Linker, Address, Shifted, [v(20, 14, 2), b(34, 5, 0)];
    "R_CUDA_BINDLESSOFF13_36", Linker, Address, Shifted, [v(36, 13, 2)];
    "R_CUDA_SURF_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(0, 20, 0)];
    "R_CUDA_INSTRUCTION64", Driver, Instruction, Shifted, [v(0, 64, 0)];
    "R_CUDA_CONST_FIELD21_20", Linker, Address, Shifted, [v(20, 16, 0), b(36, 5, 0)];
    "R_CUDA_ABS32_32", Either, Address, Shifted, [v(32, 32, 0)];
    "R_CUDA_ABS32_LO_32", Either, Address, Shifted, [v(32, 32, 0)];
    "R_CUDA_ABS32_HI_32", Either, Address, Shifted, [v(32, 32, 32)];
    "R_CUDA_ABS47_34", Driver, Address, Shifted, [v(34, 47, 2)];
    "R_CUDA_ABS16_32", Linker, Address, Shifted, [v(32, 16, 0)];
    "R_CUDA_ABS24_32", Linker, Address, Shifted, [v(32, 24, 0)];
    "R_CUDA_FUNC_DESC32_32", Driver, FunctionDescriptor, Shifted, [v(32, 32, 0)];
    "R_CUDA_FUNC_DESC32_LO_32", Driver, FunctionDescriptor, Shifted, [v(32, 32, 0)];
    "R_CUDA_FUNC_DESC32_HI_32", Driver, FunctionDescriptor, Shifted, [v(32, 32, 32)];
    "R_CUDA_CONST_FIELD19_40", Linker, Address, Shifted, [v(40, 14, 2), b(54, 5, 0)];
    "R_CUDA_BINDLESSOFF14_40", Linker, Address, Shifted, [v(40, 14, 2)];
    "R_CUDA_CONST_FIELD21_38", Linker, Address, Shifted, [v(38, 16, 0), b(54, 5, 0)];
    "R_CUDA_INSTRUCTION128", Driver, Instruction, Shifted, [v(0, 64, 0), v(64, 64, 64)];
    "R_CUDA_YIELD_OPCODE9_0", Linker, Instruction, Shifted, [v(0, 9, 0)];
    "R_CUDA_YIELD_CLEAR_PRED4_87", Linker, Clear, Shifted, [v(87, 4, 0)];
    "R_CUDA_32_LO", Either, Address, Shifted, [v(0, 32, 0)];
    "R_CUDA_32_HI", Either, Address, Shifted, [v(0, 32, 32)];
    "R_CUDA_UNUSED_CLEAR32", Linker, Clear, Shifted, [v(0, 32, 0)];
    "R_CUDA_UNUSED_CLEAR64", Linker, Clear, Shifted, [v(0, 64, 0)];
    "R_CUDA_ABS24_40", Linker, Address, Shifted, [v(40, 24, 0)];
    "R_CUDA_ABS55_16_34", Driver, Address, Shifted, [v(16, 8, 2), v(34, 47, 10)];
    "R_CUDA_8_0", Either, Address, Raw, [v(0, 8, 0)];
    "R_CUDA_8_8", Either, Address, Raw, [v(0, 8, 8)];
    "R_CUDA_8_16", Either, Address, Raw, [v(0, 8, 16)];
    "R_CUDA_8_24", Either, Address, Raw, [v(0, 8, 24)];
    "R_CUDA_8_32", Either, Address, Raw, [v(0, 8, 32)];
    "R_CUDA_8_40", Either, Address, Raw, [v(0, 8, 40)];
    "R_CUDA_8_48", Either, Address, Raw, [v(0, 8, 48)];
    "R_CUDA_8_56", Either, Address, Raw, [v(0, 8, 56)];
    "R_CUDA_G8_0", Driver, GenericAddress, Raw, [v(0, 8, 0)];
    "R_CUDA_G8_8", Driver, GenericAddress, Raw, [v(0, 8, 8)];
    "R_CUDA_G8_16", Driver, GenericAddress, Raw, [v(0, 8, 16)];
    "R_CUDA_G8_24", Driver, GenericAddress, Raw, [v(0, 8, 24)];
    "R_CUDA_G8_32", Driver, GenericAddress, Raw, [v(0, 8, 32)];
    "R_CUDA_G8_40", Driver, GenericAddress, Raw, [v(0, 8, 40)];
    "R_CUDA_G8_48", Driver, GenericAddress, Raw, [v(0, 8, 48)];
    "R_CUDA_G8_56", Driver, GenericAddress, Raw, [v(0, 8, 56)];
    "R_CUDA_FUNC_DESC_8_0", Driver, FunctionDescriptor, Raw, [v(0, 8, 0)];
    "R_CUDA_FUNC_DESC_8_8", Driver, FunctionDescriptor, Raw, [v(0, 8, 8)];
    "R_CUDA_FUNC_DESC_8_16", Driver, FunctionDescriptor, Raw, [v(0, 8, 16)];
    "R_CUDA_FUNC_DESC_8_24", Driver, FunctionDescriptor, Raw, [v(0, 8, 24)];
    "R_CUDA_FUNC_DESC_8_32", Driver, FunctionDescriptor, Raw, [v(0, 8, 32)];
    "R_CUDA_FUNC_DESC_8_40", Driver, FunctionDescriptor, Raw, [v(0, 8, 40)];
    "R_CUDA_FUNC_DESC_8_48", Driver, FunctionDescriptor, Raw, [v(0, 8, 48)];
    "R_CUDA_FUNC_DESC_8_56", Driver, FunctionDescriptor, Raw, [v(0, 8, 56)];
    "R_CUDA_ABS20_44", Linker, Address, Shifted, [v(44, 20, 0)];
    "R_CUDA_SAMP_HEADER_INDEX_0", Driver, HeaderIndex, Shifted, [v(0, 12, 0)];
    "R_CUDA_UNIFIED", Driver, UnifiedAddress, Shifted, [v(0, 64, 0)];
    "R_CUDA_UNIFIED_32", Driver, UnifiedAddress, Shifted, [v(0, 32, 0)];
    "R_CUDA_UNIFIED_8_0", Driver, UnifiedAddress, Raw, [v(0, 8, 0)];
    "R_CUDA_UNIFIED_8_8", Driver, UnifiedAddress, Raw, [v(0, 8, 8)];
    "R_CUDA_UNIFIED_8_16", Driver, UnifiedAddress, Raw, [v(0, 8, 16)];
    "R_CUDA_UNIFIED_8_24", Driver, UnifiedAddress, Raw, [v(0, 8, 24)];
    "R_CUDA_UNIFIED_8_32", Driver, UnifiedAddress, Raw, [v(0, 8, 32)];
    "R_CUDA_UNIFIED_8_40", Driver, UnifiedAddress, Raw, [v(0, 8, 40)];
    "R_CUDA_UNIFIED_8_48", Driver, UnifiedAddress, Raw, [v(0, 8, 48)];
    "R_CUDA_UNIFIED_8_56", Driver, UnifiedAddress, Raw, [v(0, 8, 56)];
    "R_CUDA_UNIFIED32_LO_32", Driver, UnifiedAddress, Shifted, [v(32, 32, 0)];
    "R_CUDA_UNIFIED32_HI_32", Driver, UnifiedAddress, Shifted, [v(32, 32, 32)];
    "R_CUDA_ABS56_16_34", Driver, Address, Shifted, [v(16, 8, 2), v(34, 48, 10)];
    "R_CUDA_CONST_FIELD22_37", Linker, Address, Shifted, [v(37, 17, 0), b(54, 5, 0)];
    "R_CUDA_NONE_LAST", None, None, Shifted, [];
};

const MERCURY_ENTRIES: &[RelocType] = reloc_table! { Family::Mercury,
    "R_MERCURY_NONE", None, None, Shifted, [];
    "R_MERCURY_G64", Driver, GenericAddress, Shifted, [v(0, 64, 0)];
    "R_MERCURY_ABS64", Either, Address, Shifted, [v(0, 64, 0)];
    "R_MERCURY_ABS32", Either, Address, Shifted, [v(0, 32, 0)];
    "R_MERCURY_ABS16", Either, Address, Shifted, [v(0, 16, 0)];
    "R_MERCURY_ABS32_LO", Driver, Address, Shifted, [v(0, 32, 0)];
    "R_MERCURY_ABS32_HI", Driver, Address, Shifted, [v(0, 32, 32)];
    "R_MERCURY_PROG_REL64", Finalizer, Address, Shifted, [v(0, 64, 0)];
    "R_MERCURY_PROG_REL32", Finalizer, Address, Shifted, [v(0, 32, 0)];
    "R_MERCURY_PROG_REL32_LO", Finalizer, Address, Shifted, [v(0, 32, 0)];
    "R_MERCURY_PROG_REL32_HI", Finalizer, Address, Shifted, [v(0, 32, 32)];
    "R_MERCURY_TEX_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(0, 20, 0)];
    "R_MERCURY_SAMP_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(20, 12, 0)];
    "R_MERCURY_SURF_HEADER_INDEX", Driver, HeaderIndex, Shifted, [v(0, 20, 0)];
    "R_MERCURY_UNUSED_CLEAR64", Linker, Clear, Shifted, [v(0, 64, 0)];
    "R_MERCURY_FUNC_DESC_64", Driver, FunctionDescriptor, Shifted, [v(0, 64, 0)];
    "R_MERCURY_8_0", Either, Address, Raw, [v(0, 8, 0)];
    "R_MERCURY_8_8", Either, Address, Raw, [v(0, 8, 8)];
    "R_MERCURY_8_16", Either, Address, Raw, [v(0, 8, 16)];
    "R_MERCURY_8_24", Either, Address, Raw, [v(0, 8, 24)];
    "R_MERCURY_8_32", Either, Address, Raw, [v(0, 8, 32)];
    "R_MERCURY_8_40", Either, Address, Raw, [v(0, 8, 40)];
    "R_MERCURY_8_48", Either, Address, Raw, [v(0, 8, 48)];
    "R_MERCURY_8_56", Either, Address, Raw, [v(0, 8, 56)];
    "R_MERCURY_G8_0", Driver, GenericAddress, Raw, [v(0, 8, 0)];
    "R_MERCURY_G8_8", Driver, GenericAddress, Raw, [v(0, 8, 8)];
    "R_MERCURY_G8_16", Driver, GenericAddress, Raw, [v(0, 8, 16)];
    "R_MERCURY_G8_24", Driver, GenericAddress, Raw, [v(0, 8, 24)];
    "R_MERCURY_G8_32", Driver, GenericAddress, Raw, [v(0, 8, 32)];
    "R_MERCURY_G8_40", Driver, GenericAddress, Raw, [v(0, 8, 40)];
    "R_MERCURY_G8_48", Driver, GenericAddress, Raw, [v(0, 8, 48)];
    "R_MERCURY_G8_56", Driver, GenericAddress, Raw, [v(0, 8, 56)];
    "R_MERCURY_FUNC_DESC_8_0", Driver, FunctionDescriptor, Raw, [v(0, 8, 0)];
    "R_MERCURY_FUNC_DESC_8_8", Driver, FunctionDescriptor, Raw, [v(0, 8, 8)];
    "R_MERCURY_FUNC_DESC_8_16", Driver, FunctionDescriptor, Raw, [v(0, 8, 16)];
    "R_MERCURY_FUNC_DESC_8_24", Driver, FunctionDescriptor, Raw, [v(0, 8, 24)];
    "R_MERCURY_FUNC_DESC_8_32", Driver, FunctionDescriptor, Raw, [v(0, 8, 32)];
    "R_MERCURY_FUNC_DESC_8_40", Driver, FunctionDescriptor, Raw, [v(0, 8, 40)];
    "R_MERCURY_FUNC_DESC_8_48", Driver, FunctionDescriptor, Raw, [v(0, 8, 48)];
    "R_MERCURY_FUNC_DESC_8_56", Driver, FunctionDescriptor, Raw, [v(0, 8, 56)];
    "R_MERCURY_ABS_PROG_REL32_LO", Driver, PcRelative, Shifted, [v(0, 32, 0)];
    "R_MERCURY_ABS_PROG_REL32_HI", Driver, PcRelative, Shifted, [v(0, 32, 32)];
    "R_MERCURY_PROG_REL8_0", Finalizer, Address, Raw, [v(0, 8, 0)];
    "R_MERCURY_PROG_REL8_8", Finalizer, Address, Raw, [v(0, 8, 8)];
    "R_MERCURY_PROG_REL8_16", Finalizer, Address, Raw, [v(0, 8, 16)];
    "R_MERCURY_PROG_REL8_24", Finalizer, Address, Raw, [v(0, 8, 24)];
    "R_MERCURY_PROG_REL8_32", Finalizer, Address, Raw, [v(0, 8, 32)];
    "R_MERCURY_PROG_REL8_40", Finalizer, Address, Raw, [v(0, 8, 40)];
    "R_MERCURY_PROG_REL8_48", Finalizer, Address, Raw, [v(0, 8, 48)];
    "R_MERCURY_PROG_REL8_56", Finalizer, Address, Raw, [v(0, 8, 56)];
    "R_MERCURY_UNIFIED", Driver, UnifiedAddress, Shifted, [v(0, 64, 0)];
    "R_MERCURY_UNIFIED_32", Driver, UnifiedAddress, Shifted, [v(0, 32, 0)];
    "R_MERCURY_UNIFIED_8_0", Driver, UnifiedAddress, Raw, [v(0, 8, 0)];
    "R_MERCURY_UNIFIED_8_8", Driver, UnifiedAddress, Raw, [v(0, 8, 8)];
    "R_MERCURY_UNIFIED_8_16", Driver, UnifiedAddress, Raw, [v(0, 8, 16)];
    "R_MERCURY_UNIFIED_8_24", Driver, UnifiedAddress, Raw, [v(0, 8, 24)];
    "R_MERCURY_UNIFIED_8_32", Driver, UnifiedAddress, Raw, [v(0, 8, 32)];
    "R_MERCURY_UNIFIED_8_40", Driver, UnifiedAddress, Raw, [v(0, 8, 40)];
    "R_MERCURY_UNIFIED_8_48", Driver, UnifiedAddress, Raw, [v(0, 8, 48)];
    "R_MERCURY_UNIFIED_8_56", Driver, UnifiedAddress, Raw, [v(0, 8, 56)];
    "R_MERCURY_ABS_PROG_REL32", Driver, PcRelative, Shifted, [v(0, 32, 0)];
    "R_MERCURY_ABS_PROG_REL64", Driver, PcRelative, Shifted, [v(0, 64, 0)];
    "R_MERCURY_UNIFIED32_LO", Driver, UnifiedAddress, Shifted, [v(0, 32, 0)];
    "R_MERCURY_UNIFIED32_HI", Driver, UnifiedAddress, Shifted, [v(0, 32, 32)];
    "R_MERCURY_NONE_LAST", None, None, Shifted, [];
};

/// Every `R_CUDA_*` type, indexed by type number (0..=116, the last being `R_CUDA_NONE_LAST`).
pub static CUDA: [RelocType; 117] = numbered(CUDA_ENTRIES, 0);

/// Every `R_MERCURY_*` type, indexed by `r_type - 0x10000` (the last being `R_MERCURY_NONE_LAST`).
pub static MERCURY: [RelocType; 65] = numbered(MERCURY_ENTRIES, MERCURY_BASE);

/// The table entry for an ELF `r_type`, `None` if nvlink 13.5 has no such type.
///
/// The `*_NONE_LAST` bounds are returned (nvlink names them) although they are not types an
/// object should use.
pub fn lookup(r_type: u32) -> Option<&'static RelocType> {
    if r_type >= MERCURY_BASE {
        MERCURY.get((r_type - MERCURY_BASE) as usize)
    } else {
        CUDA.get(r_type as usize)
    }
}

/// nvlink's name for an ELF `r_type`, e.g. `name(0x38) == Some("R_CUDA_ABS32_LO_32")`.
pub fn name(r_type: u32) -> Option<&'static str> {
    lookup(r_type).map(|t| t.name)
}

/// The type number for a name, e.g. `number("R_CUDA_ABS47_34") == Some(0x3a)`.
pub fn number(name: &str) -> Option<u32> {
    CUDA.iter()
        .chain(MERCURY.iter())
        .find(|t| t.name == name)
        .map(|t| t.number)
}

macro_rules! type_consts {
    ($($name:ident = $value:expr;)*) => {
        $(
            #[doc = concat!("`", stringify!($name), "` (type ", stringify!($value), ").")]
            pub const $name: u32 = $value;
        )*
    };
}

/// Named constants for the types other crates refer to by name.
pub mod types {
    type_consts! {
        R_CUDA_NONE = 0;
        R_CUDA_32 = 1;
        R_CUDA_64 = 2;
        R_CUDA_G32 = 3;
        R_CUDA_G64 = 4;
        R_CUDA_TEX_HEADER_INDEX = 6;
        R_CUDA_SAMP_HEADER_INDEX = 7;
        R_CUDA_FUNC_DESC_32 = 34;
        R_CUDA_FUNC_DESC_64 = 35;
        R_CUDA_SURF_HEADER_INDEX = 52;
        R_CUDA_ABS32_32 = 55;
        R_CUDA_ABS32_LO_32 = 56;
        R_CUDA_ABS32_HI_32 = 57;
        R_CUDA_ABS47_34 = 58;
        R_CUDA_ABS16_32 = 59;
        R_CUDA_ABS24_32 = 60;
        R_CUDA_FUNC_DESC32_LO_32 = 62;
        R_CUDA_FUNC_DESC32_HI_32 = 63;
        R_CUDA_BINDLESSOFF14_40 = 65;
        R_CUDA_CONST_FIELD21_38 = 66;
        R_CUDA_YIELD_OPCODE9_0 = 68;
        R_CUDA_YIELD_CLEAR_PRED4_87 = 69;
        R_CUDA_UNUSED_CLEAR32 = 72;
        R_CUDA_UNUSED_CLEAR64 = 73;
        R_CUDA_ABS24_40 = 74;
        R_CUDA_ABS55_16_34 = 75;
        R_CUDA_ABS20_44 = 100;
        R_CUDA_SAMP_HEADER_INDEX_0 = 101;
        R_CUDA_UNIFIED = 102;
        R_CUDA_UNIFIED_32 = 103;
        R_CUDA_UNIFIED32_LO_32 = 112;
        R_CUDA_UNIFIED32_HI_32 = 113;
        R_CUDA_ABS56_16_34 = 114;
        R_CUDA_CONST_FIELD22_37 = 115;
        R_CUDA_NONE_LAST = 116;
        R_MERCURY_NONE = 0x10000;
        R_MERCURY_G64 = 0x10001;
        R_MERCURY_ABS64 = 0x10002;
        R_MERCURY_ABS32 = 0x10003;
        R_MERCURY_ABS16 = 0x10004;
        R_MERCURY_ABS32_LO = 0x10005;
        R_MERCURY_ABS32_HI = 0x10006;
        R_MERCURY_TEX_HEADER_INDEX = 0x1000b;
        R_MERCURY_SAMP_HEADER_INDEX = 0x1000c;
        R_MERCURY_SURF_HEADER_INDEX = 0x1000d;
        R_MERCURY_UNUSED_CLEAR64 = 0x1000e;
        R_MERCURY_FUNC_DESC_64 = 0x1000f;
        R_MERCURY_ABS_PROG_REL32_LO = 0x10028;
        R_MERCURY_ABS_PROG_REL32_HI = 0x10029;
        R_MERCURY_UNIFIED = 0x10032;
        R_MERCURY_UNIFIED_32 = 0x10033;
        R_MERCURY_ABS_PROG_REL64 = 0x1003d;
        R_MERCURY_UNIFIED32_LO = 0x1003e;
        R_MERCURY_UNIFIED32_HI = 0x1003f;
        R_MERCURY_NONE_LAST = 0x10040;
    }
}
