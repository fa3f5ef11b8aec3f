//! Register def/use of Blackwell (sm_100/sm_120) SASS instructions, decoded from the binary
//! encoding, for the M1 scoreboard pass ([`scoreboard`], see below).
//!
//! # Why
//! On sm_100+ final links nvlink re-runs ptxas's scoreboard pass on some functions (the first
//! instruction is `LDC R1, c[0x0][0x37c]` with a write scoreboard, no other instruction touches
//! `R1`, no `CALL`; only in final links without `-g` and without `-G` inputs, i.e. when
//! [`super::fence_pads::exit_fence_mode`] is none). elfw copies the input control words, so such
//! functions differ in their control words only. The model that reproduces nvlink there (v12, a
//! Python study in the project notes, `notes/m1/m11`) derives every wait from register def/use:
//! an instruction's defined and used registers decide where a pending scoreboard must be waited.
//! This module gives that def/use, from the instruction words alone.
//!
//! # How
//! Every instruction is looked up by its opcode (low 12 bits). For each opcode a few body bits
//! (modifiers such as `.64`/`.128`, `.WIDE`, `.F64`, operand forms) select a *form*; a form lists
//! the operand slots: role (defined, used, used in an address, `desc`), kind (`R`, `UR`, `P`, `UP`), the bit position of
//! the register number in the 128-bit word, and how many consecutive registers the operand
//! covers (pairs, quads), plus registers that are always used (for example `PR`). `RZ`/`URZ`
//! (255) and `PT`/`UPT` (7) name no register. The guard is bits 12-14 (bit 15 negates) of every
//! instruction: a uniform predicate for the opcodes seen with one, a predicate for those seen with
//! one, `None` for an opcode never seen guarded. Register fields that held
//! one value in every instruction of a form seen are checked too, so that an operand never seen
//! filled in yields `None` rather than a silent gap.
//!
//! The table (`forms.rs`) was learned from NVIDIA's `nvdisasm` text of sm_100/sm_120 images
//! (57,524 distinct instruction bodies: the M1 data sets, the sm_100/sm_120 corpus images and
//! fresh programs), with the register sets given by the model's text rules
//! (`notes/m1/m5/defuse.py`). On a held-out set (18,770 bodies of fresh programs, table learned
//! without them) 17,538 decoded right, 1,217 decoded to `None` and 15 were wrong (operand
//! widths or fields learned from too few examples: FMUL, DFMA, FFMA, ATOMG); learned from
//! everything, every body of the data decodes right or to `None` (986). Before the scoreboard
//! pass relies on it, the slot lists of the opcodes it meets need a check beyond learning (a
//! wrong def/use there is a race). The `sass_defuse` test checks committed nvdisasm-derived
//! goldens. An instruction whose opcode or form was never seen decodes to `None`: the caller
//! must then leave the function's control words alone (a guessed def/use would be a silent race).
//!
//! # Status
//! The scoreboard pass that uses it is [`scoreboard`] (model v12), run by the linker on the
//! triggered functions of gated links (`link/rescore.rs`).

mod forms;
pub mod scoreboard;

use forms::{Role, Slot, CONSTRAINTS, FORMS, NAMES, PREDICATE_GUARD, SIGNATURES, UNIFORM_GUARD};

/// A register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegKind {
    /// A general-purpose register `Rn`.
    R,
    /// A uniform register `URn`.
    Ur,
    /// A predicate `Pn`.
    P,
    /// A uniform predicate `UPn`.
    Up,
}

/// One register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reg {
    /// Its file.
    pub kind: RegKind,
    /// Its number.
    pub num: u8,
}

/// The registers an instruction defines and uses (each sorted, without duplicates).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefUse {
    /// Registers written.
    pub defs: Vec<Reg>,
    /// Registers read, guard excluded.
    pub uses: Vec<Reg>,
    /// The guard predicate (`@P0`/`@!UP1`), when it is not `PT`.
    pub guard: Option<Reg>,
    /// Registers read inside a `[...]` address operand (not `desc[...]`; also in `uses`). A read
    /// scoreboard's WAR hazard ignores the uniform ones (M1 rule `rnoura`).
    pub address: Vec<Reg>,
    /// The uniform pair of a `desc[URx]` operand (also in `uses`).
    pub desc: Vec<Reg>,
}

/// The number that names no register in a field of `kind`.
fn zero(kind: RegKind) -> u32 {
    match kind {
        RegKind::R | RegKind::Ur => 255,
        RegKind::P | RegKind::Up => 7,
    }
}

fn field_bits(kind: RegKind) -> u8 {
    match kind {
        RegKind::R | RegKind::Ur => 8,
        RegKind::P | RegKind::Up => 3,
    }
}

/// The nvdisasm name of the instruction's opcode (low 12 bits of `lo`; `"IMAD"`, `"LDG"`, ...,
/// without modifiers), or `None` for an opcode never seen. In all data every opcode had one name.
pub fn mnemonic(lo: u64) -> Option<&'static str> {
    let opcode = (lo & 0xfff) as u16;
    NAMES
        .binary_search_by_key(&opcode, |&(o, _)| o)
        .ok()
        .map(|j| NAMES[j].1)
}

/// The def/use of the instruction `(lo, hi)` (the two 64-bit words; control bits are ignored),
/// or `None` when its opcode or form is not in the table.
pub fn def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let word = lo as u128 | (hi as u128) << 64;
    let opcode = (lo & 0xfff) as u16;
    let at = FORMS.binary_search_by_key(&opcode, |f| f.opcode).ok()?;
    let op = &FORMS[at];
    let key = op
        .bits
        .iter()
        .enumerate()
        .fold(0u32, |k, (j, &b)| k | (((word >> b) & 1) as u32) << j);
    let (_, sig, cons) = op.keys[op.keys.binary_search_by_key(&key, |&(k, _, _)| k).ok()?];
    let field = |pos: u8, bits: u8| ((word >> pos) as u32) & ((1 << bits) - 1);
    if CONSTRAINTS
        .get(cons as usize)?
        .iter()
        .any(|&(pos, bits, v)| field(pos, bits) != v as u32)
    {
        return None;
    }
    let mut out = DefUse::default();
    let guard = field(12, 3);
    if guard != 7 {
        let kind = if UNIFORM_GUARD.binary_search(&opcode).is_ok() {
            RegKind::Up
        } else if PREDICATE_GUARD.binary_search(&opcode).is_ok() {
            RegKind::P
        } else {
            // Never seen guarded: whether by P or UP is unknown.
            return None;
        };
        out.guard = Some(Reg {
            kind,
            num: guard as u8,
        });
    }
    for slot in SIGNATURES.get(sig as usize)?.iter() {
        let Slot {
            role,
            kind,
            pos,
            width,
        } = *slot;
        let first = if pos == forms::FIXED {
            width as u32
        } else {
            let v = field(pos, field_bits(kind));
            if v == zero(kind) {
                continue;
            }
            v
        };
        let count = if pos == forms::FIXED { 1 } else { width as u32 };
        for n in first..first + count {
            let reg = Reg {
                kind,
                num: u8::try_from(n).ok()?,
            };
            match role {
                Role::Def => out.defs.push(reg),
                Role::Use => out.uses.push(reg),
                Role::Addr => out.address.push(reg),
                Role::Desc => out.desc.push(reg),
            }
        }
    }
    out.defs.sort_unstable();
    out.defs.dedup();
    for v in [&mut out.uses, &mut out.address, &mut out.desc] {
        v.sort_unstable();
        v.dedup();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: u8) -> Reg {
        Reg {
            kind: RegKind::R,
            num,
        }
    }

    #[test]
    fn first_ldc_r1_defines_r1_only() {
        // LDC R1, c[0x0][0x37c] (nvdisasm), control bits set.
        let du = def_use(0x0000_df00_ff01_7b82, 0x000e_2200_0000_0800).expect("known form");
        assert_eq!(du.defs, vec![r(1)]);
        assert!(du.uses.is_empty());
        assert_eq!(du.guard, None);
        assert_eq!(mnemonic(0x0000_df00_ff01_7b82), Some("LDC"));
    }

    #[test]
    fn guarded_mov() {
        // @P0 MOV R8, R4 (the MOV of the golden files with guard P0 put in).
        let du = def_use(0x0000_0004_0008_0202, 0x0000_0000_0000_0f00).expect("known form");
        assert_eq!(du.defs, vec![r(8)]);
        assert_eq!(du.uses, vec![r(4)]);
        assert_eq!(
            du.guard,
            Some(Reg {
                kind: RegKind::P,
                num: 0
            })
        );
    }

    #[test]
    fn uniform_in_address() {
        // @!P0 STS.64 [UR4+0x800], R10 (cudadevrt memcpy_3d_device: the rnoura case).
        let du = def_use(0x0008_000a_ff00_8988, 0x0000_0000_0800_0a04).expect("known form");
        let ur4 = Reg {
            kind: RegKind::Ur,
            num: 4,
        };
        assert!(du.defs.is_empty());
        assert_eq!(du.uses, vec![r(10), r(11), ur4]);
        assert_eq!(du.address, vec![ur4]);
        assert!(du.desc.is_empty());
    }

    #[test]
    fn unknown_opcode_is_none() {
        assert_eq!(def_use(0x0fff, 0), None);
    }
}
