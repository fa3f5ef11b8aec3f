//! Property tests: the fast bit-field engine against the scalar reference, and `apply` against
//! a field-by-field application through the reference.

use elfw_reloc::bits::{self, reference};
use elfw_reloc::{apply, apply_with_bank, field_mask, implicit_addend, table, ImplicitAddend};
use elfw_reloc::{RelocType, Source, ValueKind};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2048,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "../proptest-regressions/elfw-reloc-bits_props.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// A byte buffer and a field (bit, width) that fits in it.
fn buffer_and_field() -> impl Strategy<Value = (Vec<u8>, u32, u32)> {
    prop::collection::vec(any::<u8>(), 1..=24).prop_flat_map(|buf| {
        let bits = buf.len() as u32 * 8;
        (1..=bits.min(64)).prop_flat_map(move |width| {
            let buf = buf.clone();
            (0..=bits - width).prop_map(move |bit| (buf.clone(), bit, width))
        })
    })
}

fn mask_bytes(len: usize, bit: u32, width: u32) -> Vec<u8> {
    let mut m = vec![0u8; len];
    for i in bit..bit + width {
        m[(i / 8) as usize] |= 1 << (i % 8);
    }
    m
}

/// Every type nvlink can apply (the `*_NONE_LAST` bounds excluded).
fn any_type() -> impl Strategy<Value = &'static RelocType> {
    let all: Vec<&'static RelocType> = table::CUDA
        .iter()
        .chain(table::MERCURY.iter())
        .filter(|t| !t.is_bound())
        .collect();
    prop::sample::select(all)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fast_insert_matches_reference((buf, bit, width) in buffer_and_field(), value in any::<u64>()) {
        let mut fast = buf.clone();
        let mut slow = buf.clone();
        bits::insert(&mut fast, bit, width, value).unwrap();
        reference::insert(&mut slow, bit, width, value).unwrap();
        prop_assert_eq!(&fast, &slow);

        // Bits outside the field are untouched.
        let m = mask_bytes(buf.len(), bit, width);
        for i in 0..buf.len() {
            prop_assert_eq!((fast[i] ^ buf[i]) & !m[i], 0, "byte {} outside the field changed", i);
        }
        // Reading the field back gives the value, masked to the width, by both engines.
        let want = value & bits::low_mask(width);
        prop_assert_eq!(bits::extract(&fast, bit, width).unwrap(), want);
        prop_assert_eq!(reference::extract(&fast, bit, width).unwrap(), want);
    }

    #[test]
    fn fast_extract_matches_reference((buf, bit, width) in buffer_and_field()) {
        prop_assert_eq!(bits::extract(&buf, bit, width), reference::extract(&buf, bit, width));
    }

    #[test]
    fn bad_fields_fail_alike_and_write_nothing(
        buf in prop::collection::vec(any::<u8>(), 0..=20),
        bit in 0u32..200,
        width in 0u32..80,
        value in any::<u64>(),
    ) {
        let mut fast = buf.clone();
        let mut slow = buf.clone();
        let a = bits::insert(&mut fast, bit, width, value);
        let b = reference::insert(&mut slow, bit, width, value);
        prop_assert_eq!(a, b);
        prop_assert_eq!(&fast, &slow);
        if a.is_err() {
            prop_assert_eq!(&fast, &buf);
        }
        prop_assert_eq!(bits::extract(&buf, bit, width), reference::extract(&buf, bit, width));
    }

    #[test]
    fn apply_matches_field_by_field_reference(
        t in any_type(),
        word in prop::array::uniform16(any::<u8>()),
        value in any::<u64>(),
        bank in 0u32..32,
    ) {
        let mut fast = word;
        apply_with_bank(t.number, &mut fast, 0, value, bank).unwrap();

        let mut slow = word;
        for f in t.fields {
            let source = match f.source { Source::Value => value, Source::Bank => bank as u64 };
            let v = if t.value == ValueKind::Clear { 0 } else { ((source as u128) >> f.shift) as u64 };
            reference::insert(&mut slow, f.bit as u32, f.width as u32, v).unwrap();
        }
        prop_assert_eq!(fast, slow);

        let mask = field_mask(t.number).unwrap();
        let (before, after) = (u128::from_le_bytes(word), u128::from_le_bytes(fast));
        prop_assert_eq!((before ^ after) & !mask, 0, "{} touched bits outside its fields", t.name);

        // apply() without a bank leaves the bank fields as they were.
        let mut no_bank = word;
        apply(t.number, &mut no_bank, 0, value).unwrap();
        for f in t.fields.iter().filter(|f| f.source == Source::Bank) {
            prop_assert_eq!(
                bits::extract(&no_bank, f.bit as u32, f.width as u32).unwrap(),
                bits::extract(&word, f.bit as u32, f.width as u32).unwrap()
            );
        }
    }

    #[test]
    fn implicit_addend_reads_back_what_apply_wrote(
        t in any_type(),
        word in prop::array::uniform16(any::<u8>()),
        value in any::<u64>(),
    ) {
        let mut w = word;
        apply(t.number, &mut w, 0, value).unwrap();
        let got = implicit_addend(t.number, &w, 0).unwrap();
        let value_fields = t.fields.iter().filter(|f| f.source == Source::Value);
        let want = match (t.value, t.implicit_addend) {
            _ if t.fields.is_empty() => 0,
            (ValueKind::Clear, _) => 0,
            (_, ImplicitAddend::Raw) => value_fields
                .map(|f| (value >> f.shift) & bits::low_mask(f.width as u32))
                .sum(),
            (_, ImplicitAddend::Shifted) => value_fields
                .filter(|f| f.shift < 64)
                .map(|f| value & (bits::low_mask(f.width as u32) << f.shift))
                .fold(0, |a, b| a | b),
        };
        prop_assert_eq!(got, want, "{}", t.name);
    }

    #[test]
    fn apply_never_panics_and_fails_cleanly(
        r_type in prop_oneof![0u32..130, 0x10000u32..0x10050, any::<u32>()],
        section in prop::collection::vec(any::<u8>(), 0..40),
        offset in prop_oneof![0u64..48, any::<u64>()],
        value in any::<u64>(),
    ) {
        let mut s = section.clone();
        if apply(r_type, &mut s, offset, value).is_err() {
            prop_assert_eq!(&s, &section);
        }
        let _ = implicit_addend(r_type, &section, offset);
        let _ = elfw_reloc::bank(r_type, &section, offset);
        let _ = elfw_reloc::disposition(r_type, elfw_reloc::Target::LinkTime);
    }
}
