//! Arena tests. Expected values come from the seeds (walkthrough indices, the extended-index
//! condition, the data-copy algorithm), not from the arena's own output.

mod model;
mod xindex;

use bumpalo::Bump;
use proptest::test_runner::{Config, FileFailurePersistence};

use super::*;
use crate::elf::consts::{
    SHF_ALLOC, SHF_EXECINSTR, SHT_PROGBITS, STT_FUNC, STT_NOTYPE, STT_OBJECT,
};

/// Proptest configuration writing regressions to the workspace's `proptest-regressions/`.
pub(super) fn proptest_config(file: &'static str, cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(file))),
        ..Config::default()
    }
}

/// A section for tests: `SectionIdx` values are minted only by an arena, so test symbols
/// point at section numbers built here.
pub(super) fn section(raw: u32) -> SymSection {
    SymSection::from_raw(raw)
}

pub(super) fn sym<'n>(
    name: &'n str,
    binding: Binding,
    sym_type: u8,
    section: SymSection,
    value: u64,
) -> NewSymbol<'n> {
    NewSymbol {
        name,
        sym_type,
        binding,
        other: 0,
        section,
        value,
        size: 0,
        func_ordinal: None,
    }
}

fn idx_of(added: Result<Added, ArenaError>) -> SymIdx {
    match added {
        Ok(a) => a.index(),
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn arena_index_layout() {
    use core::mem::size_of;
    assert_eq!(size_of::<Option<SymIdx>>(), 4);
    assert_eq!(size_of::<Option<LocalIdx>>(), 4);
    assert_eq!(size_of::<Option<GlobalIdx<Output>>>(), 4);
    assert_eq!(size_of::<Option<SectionIdx>>(), 4);
    assert_eq!(size_of::<Option<DataNodeIdx>>(), 4);
    assert_eq!(size_of::<Option<FuncOrdinal>>(), 4);
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Arena<'static, Merged>>();
    send_sync::<Arena<'static, Output>>();

    let l = LocalIdx::<Merged>::from_slot(7).unwrap();
    let g = GlobalIdx::<Merged>::from_slot(7).unwrap();
    assert_eq!(SymIdx::from(l).kind(), SymKind::Local(l));
    assert_eq!(SymIdx::from(g).kind(), SymKind::Global(g));
    assert_eq!(SymIdx::from(l).to_string(), "7");
    assert_eq!(SymIdx::from(g).to_string(), "-7");
    assert_eq!(SymIdx::from(g).signed(), -7);
    assert!(LocalIdx::<Merged>::from_slot(0).is_none());
    assert!(GlobalIdx::<Merged>::from_slot(i32::MAX as u32).is_some());
    assert!(GlobalIdx::<Merged>::from_slot(i32::MAX as u32 + 1).is_none());
}

/// Seed 02's walkthrough (steps 2–8): main_kernel, helper_fn, __nv_sqrt.
#[test]
fn arena_seed_walkthrough() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let text = section(1);

    // Step 2: strong global function → -1, name counter 1, ordinal 1.
    let main = a.add_symbol(
        &bump,
        &sym("main_kernel", Binding::Global, STT_FUNC, text, 0),
    );
    let main = idx_of(main);
    assert_eq!(main.to_string(), "-1");
    assert_eq!(a.distinct_names(), 1);
    assert_eq!(a.symbol(main).info, 0x12);
    assert_eq!(
        a.symbol(main).func_ordinal.map(|o| o.to_string()),
        Some("1".into())
    );

    // Step 3: an undefined reference to main_kernel changes nothing.
    let r = a.add_symbol(
        &bump,
        &sym(
            "main_kernel",
            Binding::Global,
            STT_NOTYPE,
            SymSection::Undef,
            0,
        ),
    );
    assert_eq!(r, Ok(Added::BoundToExisting(main)));
    assert_eq!(a.global_count(), 1);

    // Step 4: weak function → positive array, counter 2, ordinal 2.
    let helper_weak =
        idx_of(a.add_symbol(&bump, &sym("helper_fn", Binding::Weak, STT_FUNC, text, 0)));
    assert!(helper_weak.as_local().is_some());
    assert_eq!(a.symbol(helper_weak).info, 0x22);
    assert_eq!(a.distinct_names(), 2);
    assert_eq!(
        a.symbol(helper_weak).func_ordinal.map(|o| o.to_string()),
        Some("2".into())
    );

    // Step 5: undefined __nv_sqrt → placeholder at -2, st_info 0x10, counter 3.
    let sqrt = idx_of(a.add_symbol(
        &bump,
        &sym(
            "__nv_sqrt",
            Binding::Global,
            STT_NOTYPE,
            SymSection::Undef,
            0,
        ),
    ));
    assert_eq!(sqrt.to_string(), "-2");
    assert_eq!(a.symbol(sqrt).info, 0x10);
    assert_eq!(a.distinct_names(), 3);

    // Step 6: the definition upgrades -2 in place.
    let r = a.add_symbol(
        &bump,
        &sym("__nv_sqrt", Binding::Global, STT_FUNC, text, 0x80),
    );
    assert_eq!(r, Ok(Added::Upgraded(sqrt)));
    assert_eq!(a.symbol(sqrt).info, 0x12);
    assert_eq!(a.symbol(sqrt).section, text);
    assert_eq!(a.symbol(sqrt).value, 0x80);
    assert_eq!(a.distinct_names(), 3);
    assert_eq!(a.find_symbol("__nv_sqrt"), Some(sqrt));

    // Step 7: strong helper_fn replaces the weak one: old record emptied, new at -3.
    let r = a.add_symbol(
        &bump,
        &sym("helper_fn", Binding::Global, STT_FUNC, text, 0xc0),
    );
    let Ok(Added::ReplacedWeak { old, new }) = r else {
        panic!("{r:?}")
    };
    assert_eq!(old, helper_weak);
    assert_eq!(SymIdx::from(new).to_string(), "-3");
    assert_eq!(a.find_symbol("helper_fn"), Some(new.into()));
    assert!(a.symbol(helper_weak).is_emptied());
    assert_eq!(a.symbol(helper_weak).section, SymSection::Undef);
    assert_eq!(a.distinct_names(), 3);

    // Step 8: the negative array in order.
    let names: Vec<_> = a.globals().map(|(_, s)| s.name.unwrap()).collect();
    assert_eq!(names, ["main_kernel", "__nv_sqrt", "helper_fn"]);
    // The emptied weak's callgraph node is gone; main_kernel keeps ordinal 1.
    let first = a.callgraph_nodes().next().map(|(o, s)| (o.to_string(), s));
    assert_eq!(first, Some(("1".into(), main)));
    assert!(a.callgraph_nodes().all(|(_, s)| s != helper_weak));
}

/// Seed 02 matrix: strong against strong is an error value and leaves the arena unchanged;
/// weak against strong keeps the strong; weak against weak is the caller's choice.
#[test]
fn arena_resolution_matrix_conflicts() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let text = section(3);
    let g = idx_of(a.add_symbol(&bump, &sym("k", Binding::Global, STT_OBJECT, text, 1)));
    let r = a.add_symbol(&bump, &sym("k", Binding::Global, STT_OBJECT, text, 2));
    assert_eq!(r, Err(ArenaError::DuplicateGlobal { existing: g }));
    assert_eq!(
        r.unwrap_err().to_string(),
        "adding global symbols of same name (existing symbol -1)"
    );
    assert_eq!(a.symbol(g).value, 1);
    assert_eq!(a.global_count(), 1);

    let r = a.add_symbol(&bump, &sym("k", Binding::Weak, STT_OBJECT, text, 3));
    assert_eq!(r, Ok(Added::KeptStrong(g)));
    assert_eq!(a.local_count(), 0);

    let w = idx_of(a.add_symbol(&bump, &sym("w", Binding::Weak, STT_OBJECT, text, 1)));
    let r = a.add_symbol(&bump, &sym("w", Binding::Weak, STT_OBJECT, text, 2));
    assert_eq!(r, Ok(Added::ExistingWeak(w)));
    assert_eq!(a.symbol(w).value, 1);
    // The caller picks the incoming copy.
    a.redefine(w, &sym("w", Binding::Weak, STT_OBJECT, section(4), 2))
        .unwrap();
    assert_eq!(a.symbol(w).value, 2);
    assert_eq!(a.symbol(w).section, section(4));
    assert_eq!(a.symbol(w).binding(), Binding::Weak);

    // A weak definition fills an undefined global in place, staying in the negative array.
    let u = idx_of(a.add_symbol(
        &bump,
        &sym("u", Binding::Global, STT_NOTYPE, SymSection::Undef, 0),
    ));
    let r = a.add_symbol(&bump, &sym("u", Binding::Weak, STT_OBJECT, text, 9));
    assert_eq!(r, Ok(Added::Upgraded(u)));
    assert_eq!(a.symbol(u).binding(), Binding::Weak);
    assert!(u.as_global().is_some());

    // A local with a taken name gets its own record and the name.
    let l = a.add_symbol(&bump, &sym("k", Binding::Local, STT_OBJECT, text, 5));
    let Ok(Added::Inserted { index, shadowed }) = l else {
        panic!("{l:?}")
    };
    assert_eq!(shadowed, Some(g));
    assert_eq!(a.find_symbol("k"), Some(index));
    assert_eq!(a.distinct_names(), 3);
}

#[test]
fn arena_callgraph_complete_refuses_functions() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let f = idx_of(a.add_symbol(&bump, &sym("f", Binding::Global, STT_FUNC, section(1), 0)));
    assert_eq!(a.function_count(), 1);
    a.mark_callgraph_complete();
    let r = a.add_symbol(&bump, &sym("g", Binding::Global, STT_FUNC, section(1), 0));
    assert_eq!(r, Err(ArenaError::FunctionAfterCallgraph));
    assert_eq!(
        r.unwrap_err().to_string(),
        "adding function after callgraph completed"
    );
    assert_eq!(a.find_symbol("g"), None);
    // Data is still accepted, and the existing node stays.
    assert!(a
        .add_symbol(&bump, &sym("d", Binding::Global, STT_OBJECT, section(1), 0))
        .is_ok());
    assert_eq!(a.callgraph_nodes().map(|(_, s)| s).collect::<Vec<_>>(), [f]);
    let text = NewSection {
        name: ".text.g",
        sh_type: SHT_PROGBITS,
        type_ext: 0,
        flags: SHF_ALLOC | SHF_EXECINSTR,
        info: 0,
        link: 0,
        addralign: 128,
        entsize: 0,
    };
    assert_eq!(
        a.add_section(&bump, &text),
        Err(ArenaError::FunctionSectionAfterCallgraph)
    );
}

/// Non-function symbols keep the caller's ordinal; functions take the counter.
#[test]
fn arena_ordinals() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let mut data = sym("d", Binding::Local, STT_OBJECT, section(1), 0);
    let given = FuncOrdinal::from_slot(42);
    data.func_ordinal = given;
    let d = idx_of(a.add_symbol(&bump, &data));
    assert_eq!(a.symbol(d).func_ordinal, given);
    assert_eq!(a.function_count(), 0);
    let f = idx_of(a.add_symbol(&bump, &sym("f", Binding::Local, STT_FUNC, section(1), 0)));
    let ord = a.symbol(f).func_ordinal.unwrap();
    assert_eq!(ord.to_string(), "1");
    assert_eq!(a.callgraph_node(ord), Some(f));
}

/// Seed 04 "Copy Algorithm": offsets round up to each node's alignment, the section's
/// alignment is the maximum, nodes link in append order, no bytes are copied.
#[test]
fn arena_data_nodes_follow_copy_algorithm() {
    let bump = Bump::new();
    let input = [7u8; 10];
    let mut a = Arena::new();
    let s = a
        .add_section(
            &bump,
            &NewSection {
                name: ".nv.global.init",
                sh_type: SHT_PROGBITS,
                type_ext: 0,
                flags: SHF_ALLOC,
                info: 0,
                link: 0,
                addralign: 4,
                entsize: 0,
            },
        )
        .unwrap();
    assert_eq!(a.find_section(".nv.global.init"), Some(s));
    let n1 = a.append_data(
        s,
        NewDataNode {
            source: None,
            alignment: 4,
            data: NodeData::Bytes(&input),
        },
    );
    let n2 = a.append_data(
        s,
        NewDataNode {
            source: None,
            alignment: 8,
            data: NodeData::Zeroed(8),
        },
    );
    let n3 = a.append_data(
        s,
        NewDataNode {
            source: None,
            alignment: 0,
            data: NodeData::Bytes(&input[..3]),
        },
    );
    let (n1, n2, n3) = (
        n1.unwrap().unwrap(),
        n2.unwrap().unwrap(),
        n3.unwrap().unwrap(),
    );
    let sec = a.section(s);
    assert_eq!((sec.size, sec.addralign), (27, 8));
    let nodes: Vec<_> = a
        .data_nodes(s)
        .map(|(i, n)| (i, n.offset, n.size))
        .collect();
    assert_eq!(nodes, [(n1, 0, 10), (n2, 16, 8), (n3, 24, 3)]);
    let NodeData::Bytes(b) = a.get_data_node(n1).unwrap().data else {
        panic!()
    };
    assert!(
        core::ptr::eq(b.as_ptr(), input.as_ptr()),
        "bytes are borrowed, not copied"
    );

    a.relink_data_nodes(s, &[n2, n1, n3]);
    let order: Vec<_> = a.data_nodes(s).map(|(i, _)| i).collect();
    assert_eq!(order, [n2, n1, n3]);
}

/// A section name shared with a symbol is interned once; the section map keeps the first.
#[test]
fn arena_names_interned_once() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let new = NewSection {
        name: ".nv.constant3",
        sh_type: SHT_PROGBITS,
        type_ext: 0,
        flags: SHF_ALLOC,
        info: 0,
        link: 0,
        addralign: 4,
        entsize: 0,
    };
    let s1 = a.add_section(&bump, &new).unwrap();
    let s2 = a.add_section(&bump, &new).unwrap();
    assert_ne!(s1, s2);
    assert_eq!(a.find_section(".nv.constant3"), Some(s1));
    let sym_idx = idx_of(a.add_symbol(
        &bump,
        &sym(".nv.constant3", Binding::Local, 3, SymSection::Index(s1), 0),
    ));
    let a_name = a.section(s1).name;
    let b_name = a.section(s2).name;
    let c_name = a.symbol_name(sym_idx).unwrap();
    assert!(core::ptr::eq(a_name, b_name) && core::ptr::eq(a_name, c_name));
}

/// Compaction with a section remap: kept sections renumbered, node lists carried, a kept
/// symbol in a deleted section refused.
#[test]
fn arena_eliminate_sections() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let mk = |name| NewSection {
        name,
        sh_type: SHT_PROGBITS,
        type_ext: 0,
        flags: SHF_ALLOC,
        info: 0,
        link: 0,
        addralign: 1,
        entsize: 0,
    };
    let s1 = a.add_section(&bump, &mk(".a")).unwrap();
    let s2 = a.add_section(&bump, &mk(".b")).unwrap();
    let s3 = a.add_section(&bump, &mk(".c")).unwrap();
    let x = idx_of(a.add_symbol(
        &bump,
        &sym("x", Binding::Global, STT_OBJECT, SymSection::Index(s3), 0),
    ));
    let y = idx_of(a.add_symbol(
        &bump,
        &sym("y", Binding::Global, STT_OBJECT, SymSection::Index(s2), 0),
    ));
    a.append_data(
        s3,
        NewDataNode {
            source: Some(x),
            alignment: 1,
            data: NodeData::Zeroed(4),
        },
    )
    .unwrap();
    a.append_data(
        s3,
        NewDataNode {
            source: Some(y),
            alignment: 1,
            data: NodeData::Zeroed(2),
        },
    )
    .unwrap();

    let remap = DceRemap {
        symbols: a.remap_symbols(|i, _| i == x),
        sections: Some(a.remap_sections(|i, _| i != s2)),
    };
    let sections = remap.sections.as_ref().unwrap();
    assert_eq!(sections.get(s1).map(|s| s.to_string()), Some("1".into()));
    assert_eq!(sections.get(s2), None);
    assert_eq!(sections.get(s3).map(|s| s.to_string()), Some("2".into()));

    let out = a.clone().eliminate(&remap).unwrap();
    let new_x = remap.symbols.get(x).unwrap();
    let new_s3 = sections.get(s3).unwrap();
    assert_eq!(out.section_of(new_x), SymSection::Index(new_s3));
    assert_eq!(out.find_section(".c"), Some(new_s3));
    assert_eq!(out.find_section(".b"), None);
    assert_eq!(out.find_symbol("y"), None);
    let nodes: Vec<_> = out
        .data_nodes(new_s3)
        .map(|(_, n)| (n.source, n.size))
        .collect();
    assert_eq!(
        nodes,
        [(Some(new_x), 4), (None, 2)],
        "deleted y's bytes stay without a source"
    );
    assert_eq!(
        out.section_of_merged(&remap.symbols, y),
        Err(ArenaError::DeletedSymbol { old: y })
    );

    // Keeping y while deleting its section is refused.
    let bad = DceRemap {
        symbols: a.remap_symbols(|_, _| true),
        sections: remap.sections.clone(),
    };
    assert_eq!(
        a.eliminate(&bad).err(),
        Some(ArenaError::DeletedSection {
            symbol: y,
            section: s2
        })
    );
}

#[test]
fn arena_remap_from_other_arena_is_refused() {
    let bump = Bump::new();
    let mut a = Arena::new();
    let b = Arena::new();
    a.add_symbol(&bump, &sym("x", Binding::Global, STT_OBJECT, section(1), 0))
        .unwrap();
    let remap = DceRemap {
        symbols: b.remap_symbols(|_, _| true),
        sections: None,
    };
    assert_eq!(a.eliminate(&remap).err(), Some(ArenaError::RemapMismatch));
}
