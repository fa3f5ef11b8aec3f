//! The name table against nvlink 13.5.37's own (extracted from the binary with `strings`), and
//! against the names cuobjdump prints for the relocations of real objects.

use elfw_reloc::{lookup, name, number, table, Family};

const NVLINK_NAMES: &str = include_str!("fixtures/nvlink-13.5.37-r_cuda-names.txt");

#[test]
fn r_cuda_names_match_nvlink_name_table() {
    let names: Vec<&str> = NVLINK_NAMES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        // nvlink's own table spells two names with a trailing space ("R_CUDA_UNIFIED_8_0 ",
        // "R_CUDA_UNIFIED_8_8 "); the strings used in its other messages have none.
        .map(str::trim_end)
        .collect();
    assert_eq!(
        names.len(),
        117,
        "nvlink 13.5 has R_CUDA_NONE ..= R_CUDA_NONE_LAST"
    );
    for (i, n) in names.iter().enumerate() {
        assert_eq!(name(i as u32), Some(*n), "r_type {i}");
        assert_eq!(number(n), Some(i as u32));
    }
    assert_eq!(name(117), None);
}

#[test]
fn numbers_seen_in_cuobjdump_listings() {
    // Pairs read from `cuobjdump -elf` of nvcc/ptxas 13.5 objects (sm_75, sm_90) and the
    // observations in shared/NVLINK-OBSERVED.md.
    for (n, s) in [
        (0x2, "R_CUDA_64"),
        (0x6, "R_CUDA_TEX_HEADER_INDEX"),
        (0x34, "R_CUDA_SURF_HEADER_INDEX"),
        (0x38, "R_CUDA_ABS32_LO_32"),
        (0x39, "R_CUDA_ABS32_HI_32"),
        (0x3a, "R_CUDA_ABS47_34"),
        (0x41, "R_CUDA_BINDLESSOFF14_40"),
        (0x49, "R_CUDA_UNUSED_CLEAR64"),
        (0x4b, "R_CUDA_ABS55_16_34"),
        (0x72, "R_CUDA_ABS56_16_34"),
    ] {
        assert_eq!(name(n), Some(s));
    }
}

#[test]
fn mercury_numbering_is_index_plus_0x10000() {
    assert_eq!(name(0x10000), Some("R_MERCURY_NONE"));
    assert_eq!(name(0x10002), Some("R_MERCURY_ABS64"));
    assert_eq!(name(0x1003f), Some("R_MERCURY_UNIFIED32_HI"));
    assert_eq!(name(0x10040), Some("R_MERCURY_NONE_LAST"));
    assert_eq!(name(0x10041), None);
    assert_eq!(name(0xffff), None);
    assert_eq!(name(u32::MAX), None);
    for (i, t) in table::MERCURY.iter().enumerate() {
        assert_eq!(t.number, 0x10000 + i as u32);
        assert_eq!(t.family, Family::Mercury);
        assert_eq!(lookup(t.number), Some(t));
    }
}

#[test]
fn fields_fit_a_128_bit_word_and_do_not_overlap() {
    for t in table::CUDA.iter().chain(table::MERCURY.iter()) {
        let mut used: u128 = 0;
        for f in t.fields {
            assert!(f.width >= 1 && f.width <= 64, "{}", t.name);
            assert!(f.end() <= 128, "{}", t.name);
            let m = (u128::MAX >> (128 - f.width as u32)) << f.bit;
            assert_eq!(used & m, 0, "{} has overlapping fields", t.name);
            used |= m;
        }
    }
}
