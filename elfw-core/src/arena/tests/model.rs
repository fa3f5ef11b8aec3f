//! Property test: random adds (fresh, upgrade, replace, conflicts), one dead-code elimination
//! with a random keep set, then more adds in the output space — all checked against a plain
//! model, a `BTreeMap` from name to what the name should find.

use std::collections::{BTreeMap, BTreeSet};

use bumpalo::Bump;
use proptest::prelude::*;

use super::super::*;
use super::proptest_config;
use crate::arena::index::MergedIndex;
use crate::elf::consts::{STT_FUNC, STT_OBJECT};

const NAMES: [&str; 6] = [
    "main_kernel",
    "helper_fn",
    "__nv_sqrt",
    "my_kernel",
    "$str",
    "g",
];

#[derive(Clone, Debug)]
struct Op {
    name: usize,
    binding: Binding,
    func: bool,
    /// nvlink's 32-bit section index; 0 is an undefined reference.
    section: u32,
    value: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Array {
    Positive,
    Negative,
}

/// What a name should find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Expect {
    binding: Binding,
    section: u32,
    value: u64,
    func: bool,
    array: Array,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Inserted { shadowed: bool },
    Upgraded,
    ReplacedWeak,
    Bound,
    KeptStrong,
    ExistingWeak,
    Duplicate,
}

#[derive(Default, Debug)]
struct Model {
    names: BTreeMap<&'static str, Expect>,
    distinct: u32,
    emptied: usize,
}

impl Model {
    /// The resolution table of seed 02 (see `add.rs`), applied to the model.
    fn apply(&mut self, op: &Op) -> Outcome {
        let name = NAMES[op.name];
        let fresh = Expect {
            binding: op.binding,
            section: op.section,
            value: op.value,
            func: op.func,
            array: if op.binding == Binding::Global {
                Array::Negative
            } else {
                Array::Positive
            },
        };
        let Some(old) = self.names.get(name).copied() else {
            self.names.insert(name, fresh);
            self.distinct += 1;
            return Outcome::Inserted { shadowed: false };
        };
        let outcome = if op.binding == Binding::Local || old.binding == Binding::Local {
            Outcome::Inserted { shadowed: true }
        } else if op.section == 0 {
            Outcome::Bound
        } else if old.section == 0 {
            if old.array == Array::Positive && op.binding == Binding::Global {
                Outcome::ReplacedWeak
            } else {
                Outcome::Upgraded
            }
        } else {
            match (old.binding, op.binding) {
                (Binding::Global, Binding::Global) => Outcome::Duplicate,
                (Binding::Global, _) => Outcome::KeptStrong,
                (_, Binding::Global) => Outcome::ReplacedWeak,
                _ => Outcome::ExistingWeak,
            }
        };
        match outcome {
            Outcome::Inserted { .. } => {
                self.names.insert(name, fresh);
            }
            Outcome::ReplacedWeak => {
                self.names.insert(name, fresh);
                self.emptied += 1;
            }
            Outcome::Upgraded => {
                self.names.insert(
                    name,
                    Expect {
                        array: old.array,
                        ..fresh
                    },
                );
            }
            _ => {}
        }
        outcome
    }
}

fn outcome<S: Space>(r: &Result<Added<S>, ArenaError<S>>) -> Outcome {
    match r {
        Ok(Added::Inserted { shadowed, .. }) => Outcome::Inserted {
            shadowed: shadowed.is_some(),
        },
        Ok(Added::Upgraded(_)) => Outcome::Upgraded,
        Ok(Added::ReplacedWeak { .. }) => Outcome::ReplacedWeak,
        Ok(Added::BoundToExisting(_)) => Outcome::Bound,
        Ok(Added::KeptStrong(_)) => Outcome::KeptStrong,
        Ok(Added::ExistingWeak(_)) => Outcome::ExistingWeak,
        Err(ArenaError::DuplicateGlobal { .. }) => Outcome::Duplicate,
        Err(e) => panic!("unexpected error {e:?}"),
    }
}

fn add<'a, S: Space>(
    arena: &mut Arena<'a, S>,
    bump: &'a Bump,
    model: &mut Model,
    op: &Op,
) -> Result<(), TestCaseError> {
    let sym_type = if op.func { STT_FUNC } else { STT_OBJECT };
    let new = NewSymbol {
        name: NAMES[op.name],
        sym_type,
        binding: op.binding,
        other: 0,
        section: SymSection::from_raw(op.section),
        value: op.value,
        size: 0,
        func_ordinal: None,
    };
    let before = arena.find_symbol(new.name);
    let r = arena.add_symbol(bump, &new);
    let want = model.apply(op);
    prop_assert_eq!(outcome(&r), want, "{:?}", op);
    match r {
        Ok(Added::ReplacedWeak { old, .. }) => {
            prop_assert_eq!(Some(old), before);
            prop_assert!(arena.symbol(old).is_emptied());
            prop_assert!(arena.symbol(old).section.is_undef());
        }
        Ok(
            a @ (Added::Upgraded(_)
            | Added::BoundToExisting(_)
            | Added::KeptStrong(_)
            | Added::ExistingWeak(_)),
        ) => {
            prop_assert_eq!(Some(a.index()), before);
        }
        Err(_) => prop_assert_eq!(arena.find_symbol(new.name), before),
        _ => {}
    }
    Ok(())
}

/// Every name in the model resolves to a live record with that name and the expected fields;
/// the arrays hold what the binding rules put there.
fn check<S: Space>(arena: &Arena<'_, S>, model: &Model) -> Result<(), TestCaseError> {
    for (&name, want) in &model.names {
        let idx = arena.find_symbol(name);
        prop_assert!(idx.is_some(), "{} not found", name);
        let idx = idx.unwrap_or_else(|| unreachable!());
        let s = arena.symbol(idx);
        prop_assert_eq!(s.name, Some(name));
        prop_assert!(!s.is_emptied());
        prop_assert_eq!(s.binding(), want.binding, "{}", name);
        prop_assert_eq!(s.section.to_raw(), want.section, "{}", name);
        prop_assert_eq!(arena.raw_section_of(idx), want.section, "{}", name);
        prop_assert_eq!(s.value, want.value, "{}", name);
        prop_assert_eq!(s.is_function(), want.func, "{}", name);
        let array = match idx.kind() {
            SymKind::Local(_) => Array::Positive,
            SymKind::Global(_) => Array::Negative,
        };
        prop_assert_eq!(array, want.array, "{}", name);
        if s.is_function() {
            let node = s.func_ordinal.and_then(|o| arena.callgraph_node(o));
            prop_assert_eq!(node, Some(idx), "{} has no callgraph node", name);
        }
    }
    prop_assert_eq!(arena.distinct_names(), model.distinct);
    prop_assert!(arena.locals().all(|(_, s)| s.binding() != Binding::Global));
    prop_assert!(arena
        .globals()
        .all(|(_, s)| s.is_emptied() || s.binding() != Binding::Local));
    Ok(())
}

fn op() -> impl Strategy<Value = Op> {
    let binding = prop_oneof![
        1 => Just(Binding::Local),
        3 => Just(Binding::Global),
        3 => Just(Binding::Weak),
    ];
    let section = prop_oneof![
        3 => Just(0u32),
        3 => Just(1u32),
        1 => Just(0xFEFF),
        1 => Just(0xFF00),
        1 => Just(0xFFF1),
        1 => Just(0xFFF2),
        1 => Just(0x1_0000),
        1 => 1..0x2_0000u32,
    ];
    (
        0..NAMES.len(),
        binding,
        any::<bool>(),
        section,
        any::<u64>(),
    )
        .prop_map(|(name, binding, func, section, value)| Op {
            name,
            binding,
            func,
            section,
            value,
        })
}

/// One record of the merged arena, kept for comparison after compaction.
type Snapshot<'a> = (SymIdx<Merged>, Option<&'a str>, u8, u32, u64);

fn snapshot<'a>(arena: &Arena<'a, Merged>) -> Vec<Snapshot<'a>> {
    let locals = arena.locals().map(|(i, s)| (SymIdx::from(i), s));
    let globals = arena.globals().map(|(i, s)| (SymIdx::from(i), s));
    locals
        .chain(globals)
        .map(|(i, s)| (i, s.name, s.info, s.section.to_raw(), s.value))
        .collect()
}

/// The remap of one sign is a bijection from the kept old slots onto `1..=n`, in order.
fn check_bijection<I: MergedIndex>(
    remap: &Remap<I>,
    old_len: usize,
    new_slot: impl Fn(I::Output) -> u32,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(remap.old_len(), old_len);
    let news: Vec<u32> = remap
        .iter()
        .filter_map(|(_, new)| new.map(&new_slot))
        .collect();
    let want: Vec<u32> = (1..=remap.kept() as u32).collect();
    prop_assert_eq!(news, want);
    Ok(())
}

fn run(
    before: &[Op],
    keep: &BTreeSet<usize>,
    keep_emptied: bool,
    after: &[Op],
) -> Result<(), TestCaseError> {
    let bump = Bump::new();
    let mut model = Model::default();
    let mut arena = Arena::new();
    for op in before {
        add(&mut arena, &bump, &mut model, op)?;
        check(&arena, &model)?;
    }
    let emptied = arena.locals().filter(|(_, s)| s.is_emptied()).count()
        + arena.globals().filter(|(_, s)| s.is_emptied()).count();
    prop_assert_eq!(emptied, model.emptied);

    // Dead-code elimination keeps the records whose name is in `keep`.
    let kept_name = |name: Option<&str>| match name {
        Some(n) => keep.iter().any(|&k| NAMES[k] == n),
        None => keep_emptied,
    };
    let remap = DceRemap {
        symbols: arena.remap_symbols(|_, s| kept_name(s.name)),
        sections: None,
    };
    check_bijection(&remap.symbols.locals, arena.local_count(), |l| l.slot())?;
    check_bijection(&remap.symbols.globals, arena.global_count(), |g| g.slot())?;
    let old = snapshot(&arena);
    let out = arena.eliminate(&remap);
    prop_assert!(out.is_ok(), "{:?}", out.as_ref().err());
    let mut out = out.unwrap_or_else(|_| unreachable!());
    prop_assert_eq!(out.local_count(), remap.symbols.locals.kept());
    prop_assert_eq!(out.global_count(), remap.symbols.globals.kept());

    let mut kept_in_order = Vec::new();
    for &(idx, name, info, section, value) in &old {
        match remap.symbols.get(idx) {
            Ok(new) => {
                prop_assert!(kept_name(name));
                let s = out.symbol(new);
                prop_assert_eq!(
                    (s.name, s.info, s.section.to_raw(), s.value),
                    (name, info, section, value)
                );
                prop_assert_eq!(
                    out.section_of_merged(&remap.symbols, idx)
                        .map(|s| s.to_raw()),
                    Ok(section)
                );
                kept_in_order.push((idx.kind(), name));
            }
            Err(e) => {
                prop_assert!(!kept_name(name));
                prop_assert_eq!(e, ArenaError::DeletedSymbol { old: idx });
                prop_assert_eq!(
                    out.section_of_merged(&remap.symbols, idx),
                    Err(ArenaError::DeletedSymbol { old: idx })
                );
            }
        }
    }
    // Output arrays keep the old order.
    let out_names: Vec<_> = out
        .locals()
        .map(|(_, s)| s.name)
        .chain(out.globals().map(|(_, s)| s.name))
        .collect();
    let want_names: Vec<_> = kept_in_order.iter().map(|&(_, n)| n).collect();
    prop_assert_eq!(out_names, want_names);

    model.names.retain(|name, _| kept_name(Some(name)));
    check(&out, &model)?;
    for (i, name) in NAMES.iter().enumerate() {
        if !keep.contains(&i) {
            prop_assert_eq!(out.find_symbol(name), None, "{} survived", name);
        }
    }

    for op in after {
        add(&mut out, &bump, &mut model, op)?;
        check(&out, &model)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config("../proptest-regressions/elfw-core-arena-model.txt", 512))]

    #[test]
    fn arena_model_add_upgrade_replace_delete(
        before in proptest::collection::vec(op(), 0..40),
        keep in proptest::collection::btree_set(0..NAMES.len(), 0..=NAMES.len()),
        keep_emptied in any::<bool>(),
        after in proptest::collection::vec(op(), 0..20),
    ) {
        run(&before, &keep, keep_emptied, &after)?;
    }
}
