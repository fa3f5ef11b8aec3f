//! Bit fields of little-endian words: the read-modify-write under every relocation.
//!
//! A field is `width` bits (1..=64) starting at bit `bit` of a byte slice, bit `b` being bit
//! `b % 8` of byte `b / 8`. For a 64-bit instruction word that is the usual little-endian bit
//! numbering; a 128-bit instruction is two little-endian 64-bit words, low word first, so bit 64
//! is bit 0 of the second word.
//!
//! [`insert`] and [`extract`] are the fast versions (one unaligned 128-bit load and store per
//! field); [`mod@reference`] holds scalar bit-by-bit versions with the same contract, used to check
//! the fast ones.

use crate::RelocError;

/// Largest field width, in bits.
pub const MAX_WIDTH: u32 = 64;

/// `width` low bits set (`width` in 1..=64).
#[inline]
pub fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Checks that a field of `width` bits at `bit` lies inside `len` bytes.
#[inline]
fn check(len: usize, bit: u32, width: u32) -> Result<(), RelocError> {
    if width == 0 || width > MAX_WIDTH {
        return Err(RelocError::BadField { bit, width });
    }
    let end = bit as u64 + width as u64;
    if end > len as u64 * 8 {
        return Err(RelocError::FieldPastEnd {
            bit,
            width,
            len: len as u64,
        });
    }
    Ok(())
}

/// The bytes a field occupies: the slice range and the field's bit offset in its first byte.
#[inline]
fn window(bit: u32, width: u32) -> (usize, usize, u32) {
    let first = (bit / 8) as usize;
    let shift = bit % 8;
    // shift + width <= 7 + 64 = 71 bits, so at most 9 bytes.
    let bytes = (shift + width).div_ceil(8) as usize;
    (first, first + bytes, shift)
}

/// Writes the low `width` bits of `value` into the field at `bit` of `bytes`, leaving every
/// other bit as it was. Bits of `value` above `width` are ignored.
///
/// Fails (and writes nothing) if `width` is not in 1..=64 or the field does not lie inside
/// `bytes`.
pub fn insert(bytes: &mut [u8], bit: u32, width: u32, value: u64) -> Result<(), RelocError> {
    check(bytes.len(), bit, width)?;
    let (start, end, shift) = window(bit, width);
    let span = &mut bytes[start..end];
    let mut buf = [0u8; 16];
    buf[..span.len()].copy_from_slice(span);
    let word = u128::from_le_bytes(buf);
    let mask = (low_mask(width) as u128) << shift;
    let word = (word & !mask) | (((value & low_mask(width)) as u128) << shift);
    span.copy_from_slice(&word.to_le_bytes()[..span.len()]);
    Ok(())
}

/// Reads the `width`-bit field at `bit` of `bytes` (zero-extended).
///
/// Fails if `width` is not in 1..=64 or the field does not lie inside `bytes`.
pub fn extract(bytes: &[u8], bit: u32, width: u32) -> Result<u64, RelocError> {
    check(bytes.len(), bit, width)?;
    let (start, end, shift) = window(bit, width);
    let span = &bytes[start..end];
    let mut buf = [0u8; 16];
    buf[..span.len()].copy_from_slice(span);
    let word = u128::from_le_bytes(buf);
    Ok(((word >> shift) as u64) & low_mask(width))
}

/// Scalar bit-by-bit versions of [`insert`] and [`extract`], the specification the fast ones
/// are tested against.
pub mod reference {
    use super::check;
    use crate::RelocError;

    /// Same contract as [`super::insert`], one bit at a time.
    pub fn insert(bytes: &mut [u8], bit: u32, width: u32, value: u64) -> Result<(), RelocError> {
        check(bytes.len(), bit, width)?;
        for i in 0..width {
            let pos = (bit + i) as usize;
            let byte = &mut bytes[pos / 8];
            let b = 1u8 << (pos % 8);
            if (value >> i) & 1 == 1 {
                *byte |= b;
            } else {
                *byte &= !b;
            }
        }
        Ok(())
    }

    /// Same contract as [`super::extract`], one bit at a time.
    pub fn extract(bytes: &[u8], bit: u32, width: u32) -> Result<u64, RelocError> {
        check(bytes.len(), bit, width)?;
        let mut out = 0u64;
        for i in 0..width {
            let pos = (bit + i) as usize;
            if (bytes[pos / 8] >> (pos % 8)) & 1 == 1 {
                out |= 1u64 << i;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abs32_lo_32_of_a_sass_word() {
        // MOV R4, imm32 (sm_75): the immediate is bits 32..63 of the first 64-bit word.
        let mut w = [
            0x02, 0x78, 0x04, 0x00, 0, 0, 0, 0, 0, 0x0f, 0, 0, 0, 0xe4, 0x0f, 0,
        ];
        insert(&mut w, 32, 32, 0x1234_5678).unwrap();
        assert_eq!(&w[4..8], &[0x78, 0x56, 0x34, 0x12]);
        assert_eq!(extract(&w, 32, 32).unwrap(), 0x1234_5678);
        assert_eq!(w[0..4], [0x02, 0x78, 0x04, 0x00]);
    }

    #[test]
    fn field_crossing_the_64_bit_boundary() {
        let mut w = [0u8; 16];
        insert(&mut w, 34, 47, u64::MAX).unwrap();
        assert_eq!(extract(&w, 34, 47).unwrap(), low_mask(47));
        assert_eq!(extract(&w, 0, 34).unwrap(), 0);
        assert_eq!(extract(&w, 81, 47).unwrap(), 0);
    }

    #[test]
    fn bad_fields_are_errors_not_panics() {
        let mut w = [0u8; 8];
        assert!(insert(&mut w, 0, 0, 1).is_err());
        assert!(insert(&mut w, 0, 65, 1).is_err());
        assert!(insert(&mut w, 60, 8, 1).is_err());
        assert!(extract(&w, u32::MAX, 64).is_err());
        assert!(reference::insert(&mut w, u32::MAX - 3, 8, 1).is_err());
        assert!(extract(&[], 0, 1).is_err());
    }
}
