//! Extended section indices: round trip of every section number in `0..=0x2_0000` for local and
//! global symbols, before and after remapping (seed 01, "Section Index Resolution" and phase 8).

use bumpalo::Bump;
use proptest::prelude::*;

use super::super::*;
use super::{proptest_config, section, sym};
use crate::elf::consts::STT_OBJECT;

/// Seed 01, phase 8, written out independently of the arena: `st_shndx` holds the number when
/// it is `<= 0xFEFF` or `SHN_COMMON` (0xFFF2), and `SHN_XINDEX` (0xFFFF) otherwise.
fn expected_shndx(raw: u32) -> u16 {
    if raw <= 0xFEFF || raw == 0xFFF2 {
        raw as u16
    } else {
        0xFFFF
    }
}

const EDGES: [u32; 8] = [
    0xFEFE, 0xFEFF, 0xFF00, 0xFFF1, 0xFFF2, 0xFFFE, 0xFFFF, 0x1_0000,
];

fn raw_section() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => proptest::sample::select(&EDGES[..]),
        1 => 0..=0x2_0000u32,
    ]
}

/// Adds one symbol per `(section number, global?)` and checks the three readers.
fn build<'a>(
    bump: &'a Bump,
    entries: &[(u32, bool)],
) -> Result<(Arena<'a>, Vec<SymIdx>), TestCaseError> {
    let mut arena = Arena::new();
    let mut idxs = Vec::with_capacity(entries.len());
    for (i, &(raw, global)) in entries.iter().enumerate() {
        let binding = if global {
            Binding::Global
        } else {
            Binding::Local
        };
        let name = bump.alloc_str(&format!("s{i}"));
        let added = arena.add_symbol(bump, &sym(name, binding, STT_OBJECT, section(raw), 0));
        prop_assert!(
            matches!(added, Ok(Added::Inserted { shadowed: None, .. })),
            "{:?}",
            added
        );
        let idx = added.map(Added::index).unwrap_or_else(|_| unreachable!());
        prop_assert_eq!(idx.as_global().is_some(), global);
        idxs.push(idx);
    }
    for (&idx, &(raw, _)) in idxs.iter().zip(entries) {
        prop_assert_eq!(
            arena.raw_shndx(idx),
            expected_shndx(raw),
            "section {:#x}",
            raw
        );
        prop_assert_eq!(arena.raw_section_of(idx), raw, "section {:#x}", raw);
        prop_assert_eq!(arena.section_of(idx).to_raw(), raw, "section {:#x}", raw);
        prop_assert_eq!(arena.symbol(idx).section.to_raw(), raw);
    }
    Ok((arena, idxs))
}

/// Deletes the entries `keep` rejects, then checks kept symbols directly and through tier 3
/// (remap, then the side arrays), and deleted ones yield the deleted-symbol error.
fn eliminate_and_check(
    arena: Arena<'_>,
    idxs: &[SymIdx],
    entries: &[(u32, bool)],
    keep: &[bool],
) -> Result<(), TestCaseError> {
    let kept: std::collections::BTreeSet<SymIdx> = idxs
        .iter()
        .zip(keep)
        .filter(|(_, &k)| k)
        .map(|(&i, _)| i)
        .collect();
    let remap = DceRemap {
        symbols: arena.remap_symbols(|i, _| kept.contains(&i)),
        sections: None,
    };
    let out = arena.eliminate(&remap);
    prop_assert!(out.is_ok());
    let out = out.unwrap_or_else(|_| unreachable!());
    for (&idx, &(raw, _)) in idxs.iter().zip(entries) {
        match remap.symbols.get(idx) {
            Ok(new) => {
                prop_assert!(kept.contains(&idx));
                prop_assert_eq!(
                    out.raw_shndx(new),
                    expected_shndx(raw),
                    "section {:#x}",
                    raw
                );
                prop_assert_eq!(out.raw_section_of(new), raw, "section {:#x}", raw);
                prop_assert_eq!(
                    out.section_of_merged(&remap.symbols, idx)
                        .map(|s| s.to_raw()),
                    Ok(raw)
                );
            }
            Err(e) => {
                prop_assert!(!kept.contains(&idx));
                prop_assert_eq!(e, ArenaError::DeletedSymbol { old: idx });
                prop_assert_eq!(
                    out.section_of_merged(&remap.symbols, idx),
                    Err(ArenaError::DeletedSymbol { old: idx })
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config(
        "../proptest-regressions/elfw-core-arena-xindex.txt",
        512,
    ))]

    #[test]
    fn arena_xindex_round_trip(
        entries in proptest::collection::vec((raw_section(), any::<bool>(), any::<bool>()), 1..64),
    ) {
        let bump = Bump::new();
        let pairs: Vec<(u32, bool)> =
            entries.iter().map(|&(raw, global, _)| (raw, global)).collect();
        let keep: Vec<bool> = entries.iter().map(|&(_, _, keep)| keep).collect();
        let (arena, idxs) = build(&bump, &pairs)?;
        eliminate_and_check(arena, &idxs, &pairs, &keep)?;
    }
}

/// Every section number of the range, for both signs, kept or deleted in a fixed pattern.
#[test]
fn arena_xindex_exhaustive() {
    let bump = Bump::new();
    let entries: Vec<(u32, bool)> = (0..=0x2_0000u32)
        .flat_map(|raw| [(raw, false), (raw, true)])
        .collect();
    let keep: Vec<bool> = (0..entries.len()).map(|i| i % 3 != 1).collect();
    let (arena, idxs) = build(&bump, &entries).unwrap();
    eliminate_and_check(arena, &idxs, &entries, &keep).unwrap();
}

/// Moving a symbol between a direct and an extended section keeps the readers right.
#[test]
fn arena_xindex_set_section() {
    let bump = Bump::new();
    let mut arena = Arena::new();
    let g = arena
        .add_symbol(&bump, &sym("g", Binding::Global, STT_OBJECT, section(5), 0))
        .unwrap()
        .index();
    for raw in [0x1_2345, 0xFFF2, 0xFF00, 7, 0xFFF1] {
        arena.set_section(g, section(raw));
        assert_eq!(arena.raw_shndx(g), expected_shndx(raw));
        assert_eq!(arena.section_of(g).to_raw(), raw);
    }
    assert_eq!(arena.section_of(g), SymSection::Abs);
}
