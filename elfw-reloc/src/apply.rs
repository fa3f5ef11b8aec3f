//! Applying one relocation to a section's bytes, and reading back what a relocation's fields hold.

use crate::bits;
use crate::table::{self, ImplicitAddend, RelocType, Source, ValueKind};
use crate::RelocError;

/// The table entry for a type that can be applied: `*_NONE_LAST` and unknown numbers are
/// refused the way nvlink refuses them (`sass rtype out of range`).
pub(crate) fn applicable(r_type: u32) -> Result<&'static RelocType, RelocError> {
    match table::lookup(r_type) {
        Some(t) if !t.is_bound() => Ok(t),
        _ => Err(RelocError::UnknownType { r_type }),
    }
}

/// The bytes `[offset, offset + span)` of `section`, or why they are not all there.
fn word(
    r_type: u32,
    section_len: usize,
    offset: u64,
    span: usize,
) -> Result<(usize, usize), RelocError> {
    let len = section_len as u64;
    if offset >= len {
        return Err(RelocError::OffsetPastEnd {
            r_type,
            offset,
            len,
        });
    }
    let end = offset.checked_add(span as u64).filter(|&e| e <= len);
    match end {
        Some(end) => Ok((offset as usize, end as usize)),
        None => Err(RelocError::WordPastEnd {
            r_type,
            offset,
            span,
            len,
        }),
    }
}

/// `(source >> shift)` for a field; shifts of 64 and more give 0 (the upper half of
/// `R_CUDA_INSTRUCTION128`).
#[inline]
fn shifted(source: u64, shift: u8) -> u64 {
    ((source as u128) >> shift) as u64
}

fn write(
    r_type: u32,
    section: &mut [u8],
    offset: u64,
    value: u64,
    bank: Option<u32>,
) -> Result<(), RelocError> {
    let t = applicable(r_type)?;
    let (start, end) = word(r_type, section.len(), offset, t.span_bytes())?;
    let w = &mut section[start..end];
    for f in t.fields {
        let bits = match (t.value, f.source) {
            (ValueKind::Clear, _) => 0,
            (_, Source::Value) => shifted(value, f.shift),
            (_, Source::Bank) => match bank {
                Some(bank) => shifted(bank as u64, f.shift),
                None => continue,
            },
        };
        bits::insert(w, f.bit as u32, f.width as u32, bits)?;
    }
    Ok(())
}

/// Writes `value` into the fields of relocation type `r_type` at `offset` of `section`.
///
/// `value` is the finished relocation value: `S + A` for most types, `S + A - P` for
/// PC-relative ones ([`RelocType::is_pc_relative`]); each field receives its slice of it
/// (`value >> shift`, truncated to the field's width — nvlink does not range-check). Bits outside
/// the fields are left alone. Types of kind [`ValueKind::Clear`] zero their fields whatever
/// `value` is; `R_CUDA_NONE`/`R_MERCURY_NONE` write nothing. The constant-bank fields of
/// `R_CUDA_CONST_FIELD*` types are left as they are; use [`apply_with_bank`] to write them too.
///
/// Errors: unknown type or a `*_NONE_LAST` bound ([`RelocError::UnknownType`]), `offset` outside
/// the section ([`RelocError::OffsetPastEnd`], also for `R_CUDA_NONE`, as nvlink), fields
/// running past its end ([`RelocError::WordPastEnd`]). On error nothing is written.
pub fn apply(r_type: u32, section: &mut [u8], offset: u64, value: u64) -> Result<(), RelocError> {
    write(r_type, section, offset, value, None)
}

/// [`apply`], also writing the constant-bank fields of `R_CUDA_CONST_FIELD*`-style types with
/// `bank` (the number N of the `.nv.constantN` section the target lives in; nvlink writes 3 for
/// `__constant__` data in `.nv.constant3`, 0 for the texture/surface slots it appends to a
/// kernel's `.nv.constant0`). For types without a bank field this is [`apply`].
pub fn apply_with_bank(
    r_type: u32,
    section: &mut [u8],
    offset: u64,
    value: u64,
    bank: u32,
) -> Result<(), RelocError> {
    write(r_type, section, offset, value, Some(bank))
}

/// The implicit addend of an `SHT_REL` relocation: what its value fields hold now, in value
/// units, so that `apply(r_type, s, off, S + implicit_addend(r_type, s, off)?)` does what nvlink
/// does for `.rel` sections (it adds the old field contents to the symbol value).
///
/// For ordinary types this is each value field shifted back by its `shift` (so the high half
/// of `R_CUDA_ABS32_HI_32` counts in 2^32s, `R_CUDA_ABS47_34` in bytes); for the byte-lane
/// types ([`ImplicitAddend::Raw`]) it is the raw byte, which nvlink adds before selecting the
/// lane. Bits above 63 (the upper half of `R_CUDA_INSTRUCTION128`) are not represented.
/// Types that write nothing have addend 0.
pub fn implicit_addend(r_type: u32, section: &[u8], offset: u64) -> Result<u64, RelocError> {
    let t = applicable(r_type)?;
    let (start, end) = word(r_type, section.len(), offset, t.span_bytes())?;
    let w = &section[start..end];
    let mut addend = 0u64;
    for f in t.fields.iter().filter(|f| f.source == Source::Value) {
        let old = bits::extract(w, f.bit as u32, f.width as u32)?;
        let part = match t.implicit_addend {
            ImplicitAddend::Raw => old,
            ImplicitAddend::Shifted if f.shift >= 64 => 0,
            ImplicitAddend::Shifted => old << f.shift,
        };
        addend = addend.wrapping_add(part);
    }
    Ok(addend)
}

/// The constant-bank number held in the bank fields of an `R_CUDA_CONST_FIELD*`-style type,
/// `None` for types without one.
pub fn bank(r_type: u32, section: &[u8], offset: u64) -> Result<Option<u32>, RelocError> {
    let t = applicable(r_type)?;
    if !t.has_bank_field() {
        return Ok(None);
    }
    let (start, end) = word(r_type, section.len(), offset, t.span_bytes())?;
    let w = &section[start..end];
    let mut bank = 0u64;
    for f in t.fields.iter().filter(|f| f.source == Source::Bank) {
        bank |= bits::extract(w, f.bit as u32, f.width as u32)? << f.shift;
    }
    Ok(Some(bank as u32))
}

/// The bits `r_type` may write, relative to bit 0 of the byte at the relocation offset (bank
/// fields included). Every other bit of the section is left alone by [`apply_with_bank`].
pub fn field_mask(r_type: u32) -> Result<u128, RelocError> {
    let t = applicable(r_type)?;
    Ok(t.fields.iter().fold(0u128, |m, f| {
        m | ((u128::MAX >> (128 - f.width as u32)) << f.bit)
    }))
}
