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
//! one, `None` for an opcode never seen guarded. Register fields a form does not use are checked
//! too (they must hold a value seen in the examples, or equal the slot field they always equaled),
//! a slot that was empty (`RZ`/`PT`) in every example of its form must stay empty, and the
//! modifier bits 72-104 outside the slot fields must hold the values they held in every example
//! of the form, so that an operand or modifier never seen yields `None` rather than a silent gap.
//!
//! # Where the table comes from
//! The table (`forms.rs`) was learned from NVIDIA's `nvdisasm` text of sm_100/sm_120 images
//! (102,136 distinct instruction bodies: the M1 data sets, the sm_100/sm_103/sm_110/sm_120/sm_121
//! corpus images and every sm_100/sm_120 image of the fresh programs), with the register sets
//! given by the model's text rules (`notes/m1/m5/defuse.py`). Learning rules that keep unseen
//! forms from decoding wrong: a slot's width must be the width the text gives that operand in every
//! example (no pair learned from `R4, R5` in one example); an unused field that always named the
//! same register as a slot must keep doing so; the body bits that select a form are chosen
//! greedily, with a two-bit look-ahead, until every example under a key is explained by one slot
//! list, counting examples of forms no slot list explains against every key they fall under.
//!
//! Figures (right / wrong / `None`):
//! - held-out, the session-16 split (learned from 45,178 bodies, checked on 18,770 bodies of fresh
//!   programs): 18,203 / **0** / 567 (the session-16 table: 17,538 / 15 / 1,217). `None`: opcodes,
//!   guards or values never seen in the smaller training set (DFMA, LD, DSETP, LDG `.128`, ...).
//! - held-out by program (12 of the fresh programs left out: learned from 99,794 bodies, checked on
//!   5,637): 5,595 / **0** / 42 (ISETP 13, SHF 13, TEX 4, FFMA 3, F2F 2, ...); two other program
//!   splits: 6,396 / **0** / 42 and 6,594 / **0** / 6.
//! - learned from sm_100 only, checked on the 42,217 sm_120 bodies: 33,650 / **0** / 8,567
//!   (opcodes sm_100 never used: IADD 7,615, ...); without the modifier-bit check 309 were wrong
//!   (`MOV.64`, `ISETP.U64`, `UISETP.U64`: a width modifier never seen set).
//! - the committed held-out goldens (`tests/data/sass/heldout_*.txt`: images compiled with options
//!   the learning never saw): 3,953 / **0** / 5 of 3,958 (DFMA 4, DSETP 1).
//! - all data, learned from all of it: 102,126 / **0** / 10 of 102,136 (TEX 6, UGETNEXTWORKID 4).
//!
//! `TEX` (opcode 0xf60) is not read from the table but by a hand-written rule (`texture_def_use`):
//! the table had too few texture bodies and took the 3D fetch with a register second destination
//! for the 2D one; the rule was checked on the data flow around every form it accepts
//! (`tests/data/sass/heldout_tex_forms.*`) and declines every other body.
//!
//! A wrong def/use would be a silent race in a rewritten function, so the scoreboard pass must
//! still treat `None` as "leave the function alone", and a self-check gate stays advisable. The
//! `sass_defuse` test checks committed nvdisasm-derived goldens (0 wrong required).
//!
//! # Status
//! The scoreboard pass that uses it is [`scoreboard`] (model v12), run by the linker on the
//! triggered functions of gated links (`link/rescore.rs`).

mod async_store;
pub(crate) mod barrier;
mod bulk;
mod carry;
mod elect;
mod forms;
pub mod scoreboard;

use forms::{
    Check, Role, Slot, CONSTRAINTS, FORMS, NAMES, PREDICATE_GUARD, SIGNATURES, UNIFORM_GUARD,
};

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

impl std::fmt::Display for Reg {
    /// The register file's name and the number, e.g. `R12`, `Ur4`, `P0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}{}", self.kind, self.num)
    }
}

/// Registers of one file numbered `nums`, for the decoders' unit tests.
#[cfg(test)]
fn regs(kind: RegKind, nums: &[u8]) -> Vec<Reg> {
    nums.iter().map(|&num| Reg { kind, num }).collect()
}

/// Registers as a comma-separated list (`R2,R3,Ur4`), for reports and research tools.
pub fn reg_list(regs: &[Reg]) -> String {
    regs.iter()
        .map(Reg::to_string)
        .collect::<Vec<_>>()
        .join(",")
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
    if u64::from(opcode) == async_store::STAS {
        // Hand-written (`async_store.rs`): not in the learned names.
        return Some("STAS");
    }
    NAMES
        .binary_search_by_key(&opcode, |&(o, _)| o)
        .ok()
        .map(|j| NAMES[j].1)
}

/// The def/use of the instruction `(lo, hi)` (the two 64-bit words; control bits are ignored),
/// or `None` when its opcode or form is not in the table.
pub fn def_use(lo: u64, hi: u64) -> Option<DefUse> {
    if lo & 0xfff == TEX {
        // The table keys `TEX` by too few bits: it took `TEX R6, R4, R4, UR4, 3D` for the 2D
        // form (coordinates R4, R5 only), a silent gap. Texture fetches use the rule below alone.
        return texture_def_use(lo, hi);
    }
    // The table reads the bulk copy's first operand as a destination and its pairs as single
    // registers, and never learned `UGETNEXTWORKID`: hand-written rules (`bulk.rs`).
    if lo & 0xfff == async_store::STAS {
        return async_store::async_store_def_use(lo, hi);
    }
    if barrier::is_arrive(lo, hi) {
        return barrier::arrive_def_use(lo, hi);
    }
    if lo & 0xfff == elect::ELECT {
        return elect::elect_def_use(lo, hi);
    }
    match lo & 0xfff {
        bulk::UBLKCP => return bulk::bulk_copy_def_use(lo, hi),
        bulk::SYNCS_EXCH => return bulk::barrier_exchange_def_use(lo, hi),
        bulk::UGETNEXTWORKID => return bulk::next_work_id_def_use(lo, hi),
        _ => {}
    }
    if lo & 0xfff == I2F && (hi & BODY_HI == I2F_U64 || hi & BODY_HI == I2F_S64) {
        return convert_u64_def_use(lo);
    }
    // Carries and 128-bit compare-and-swap of `__int128` code (`carry.rs`): only where the
    // table declines.
    table_def_use(lo, hi).or_else(|| carry::carry_def_use(lo, hi))
}

/// The opcode of `I2F` with a register source.
const I2F: u64 = 0x312;
/// Instruction body bits of the high word (the control word is above them).
pub(crate) const BODY_HI: u64 = (1 << 41) - 1;
/// The high body of `I2F.U64` (F32 destination, 64-bit unsigned source, round to nearest).
const I2F_U64: u64 = 0x30_1000;
/// The high body of `I2F.S64` (the same with a signed source: bit 10).
const I2F_S64: u64 = 0x30_1400;

/// The def/use of `I2F.U64 Rd, Rs` and `I2F.S64 Rd, Rs` (hand-written: the learned data never
/// held `I2F.U64`, and its one `I2F.S64` example, `I2F.S64 R0, R4`, tied an unused field to the
/// destination by coincidence, so `I2F.S64 R11, R4` did not decode): `Rd` (lo bits 16-23) is
/// defined, the 64-bit source `Rs`, `Rs+1` (lo bits 32-39) is used, as in the `I2F.U64.RP`
/// form the table knows (same operand layout; the high body differs in the rounding bits).
/// Unused fields must be zero as in those forms.
fn convert_u64_def_use(lo: u64) -> Option<DefUse> {
    if lo & 0xffff_ff00_ff00_0000 != 0 {
        return None;
    }
    let (rd, rs) = (((lo >> 16) & 0xff) as u8, ((lo >> 32) & 0xff) as u8);
    if rd == 255 || rs == 255 || rs % 2 == 1 {
        return None;
    }
    let r = |num: u8| Reg {
        kind: RegKind::R,
        num,
    };
    let guard = ((lo >> 12) & 7) as u8;
    Some(DefUse {
        defs: vec![r(rd)],
        uses: vec![r(rs), r(rs + 1)],
        guard: (guard != 7).then_some(Reg {
            kind: RegKind::P,
            num: guard,
        }),
        address: Vec::new(),
        desc: Vec::new(),
    })
}

/// The opcode of `TEX` (texture fetch through a bindless handle in a uniform register).
const TEX: u64 = 0xf60;

/// The def/use of a `TEX` instruction (hand-written; the learned table saw too few `TEX` bodies
/// to tell the coordinate count of each dimension apart, and decoded the 3D fetch with a register
/// `Rd2` as if it were 2D).
///
/// `TEX[.LL] Rd2, Rd, Ra, Rb, URh, dim, mask` (nvdisasm order; `Rd2` and `mask` are hi bits 0-7
/// and 8-11, `Rd`/`Ra`/`Rb`/`URh` lo bits 16/24/32/40, `dim` lo bits 61-63, `.LL` lo bit 59):
/// - `Ra` holds the coordinates, array index first: 2D 2, 3D 3, CUBE 3, ARRAY_1D 2, ARRAY_2D 3
///   registers (dim 1, 2, 3, 4, 5; 1D and ARRAY_CUBE were never seen and give `None`);
/// - `Rb` holds the level of `.LL` (one register) and is `RZ` without `.LL`;
/// - with `Rd2 = RZ` the `mask` components land in `Rd` onward (masks 0x1, 0x3 only); with a
///   register `Rd2` and mask 0xf, `Rd` takes x/y (two registers) and `Rd2` z/w (two);
/// - `URh` is the handle (the model's text rule names `URh` alone, as the table does for the
///   `TEX` forms it knows, although ptxas also sets `URh+1`: a 64-bit handle).
///
/// Evidence (nvdisasm of sm_100/sm_120 images, data flow around each fetch): the registers the
/// kernel fills right before the fetch are exactly these (`tex2DLayeredLod`: index, x, y in
/// `R4..R6`, level in `R9`; `tex3D<float4>`: x, y, z in `R4..R6`, the result stored with
/// `STG.128 R4` from `Rd = R4`, `Rd2 = R6`; `tex2DLayered<float2>` mask 0x3: `STG.64 R4`).
/// Every other body bit must hold the value it held in all examples, so an unseen modifier
/// (gather, offsets, depth compare, ...) stays `None`.
fn texture_def_use(lo: u64, hi: u64) -> Option<DefUse> {
    let hi = hi & BODY_HI;
    let ll = (lo >> 59) & 1 == 1;
    let fixed_lo = (lo & 0x17ff_0000_0000_0fff) == (0x00ff_0000_0000_0000 | TEX);
    let fixed_hi = hi >> 12 == if ll { 0x89e0 } else { 0x81e0 };
    if !fixed_lo || !fixed_hi {
        return None;
    }
    let coords = match lo >> 61 {
        1 | 4 => 2,
        2 | 3 | 5 => 3,
        _ => return None,
    };
    let field = |shift: u32| ((lo >> shift) & 0xff) as u8;
    let (rd, ra, rb, urh) = (field(16), field(24), field(32), field(40));
    let (rd2, mask) = ((hi & 0xff) as u8, (hi >> 8) & 0xf);
    const NONE: u8 = 255;
    if rd == NONE || ra == NONE || urh == NONE || (rb == NONE) == ll {
        return None;
    }
    let r = |num: u8| Reg {
        kind: RegKind::R,
        num,
    };
    let run = |first: u8, count: u8| -> Option<Vec<Reg>> {
        (0..count)
            .map(|j| first.checked_add(j).filter(|&n| n != NONE).map(r))
            .collect()
    };
    let mut defs = match (rd2, mask) {
        (NONE, 0x1) => run(rd, 1)?,
        (NONE, 0x3) => run(rd, 2)?,
        (_, 0xf) => [run(rd, 2)?, run(rd2, 2)?].concat(),
        _ => return None,
    };
    let mut uses = run(ra, coords)?;
    if ll {
        uses.push(r(rb));
    }
    uses.push(Reg {
        kind: RegKind::Ur,
        num: urh,
    });
    let guard = ((lo >> 12) & 7) as u16;
    let guard = if guard == 7 {
        None
    } else {
        PREDICATE_GUARD.binary_search(&(TEX as u16)).ok()?;
        Some(Reg {
            kind: RegKind::P,
            num: guard as u8,
        })
    };
    defs.sort_unstable();
    defs.dedup();
    uses.sort_unstable();
    uses.dedup();
    Some(DefUse {
        defs,
        uses,
        guard,
        address: Vec::new(),
        desc: Vec::new(),
    })
}

/// The def/use of the learned table ([`def_use`] without the hand-written forms).
fn table_def_use(lo: u64, hi: u64) -> Option<DefUse> {
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
    let holds = |check: &Check| match *check {
        Check::OneOf(pos, bits, values) => values.iter().any(|&v| field(pos, bits) == v as u32),
        Check::Same(pos, bits, other) => field(pos, bits) == field(other, bits),
        Check::Bits(mask, value) => hi & mask == value,
    };
    if !CONSTRAINTS.get(cons as usize)?.iter().all(holds) {
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
    fn texture_coordinates_by_dimension() {
        // TEX.LL R6, R4, R4, R7, UR4, 3D (sm_100; the table read it as 2D: R6 missing).
        let du = def_use(0x48ff_0407_0404_7f60, 0x0000_0000_089e_0f06).expect("known form");
        assert_eq!(du.defs, vec![r(4), r(5), r(6), r(7)]);
        let ur4 = Reg {
            kind: RegKind::Ur,
            num: 4,
        };
        assert_eq!(du.uses, vec![r(4), r(5), r(6), r(7), ur4]);
        // TEX.LL RZ, R0, R4, R11, UR4, ARRAY_2D, 0x1: index, x, y and the level.
        let du = def_use(0xa8ff_040b_0400_7f60, 0x0000_0000_089e_01ff).expect("known form");
        assert_eq!(du.defs, vec![r(0)]);
        assert_eq!(du.uses, vec![r(4), r(5), r(6), r(11), ur4]);
        // @!P1 TEX R12, R10, R10, UR4, 2D (sm_120, control bits set).
        let du = def_use(0x20ff_04ff_0a0a_9f60, 0x0002_4800_081e_0f0c).expect("known form");
        assert_eq!(du.defs, vec![r(10), r(11), r(12), r(13)]);
        assert_eq!(du.uses, vec![r(10), r(11), ur4]);
        assert_eq!(
            du.guard,
            Some(Reg {
                kind: RegKind::P,
                num: 1
            })
        );
        // Never seen: the bound-texture form (index 0x0 instead of 0xff), 1D, mask 0x7.
        assert_eq!(def_use(0x2000_0406_0405_7f60, 0x0000_0000_099e_01ff), None);
        assert_eq!(def_use(0x00ff_04ff_0405_7f60, 0x0000_0000_081e_01ff), None);
        assert_eq!(def_use(0x20ff_04ff_0405_7f60, 0x0000_0000_081e_07ff), None);
    }

    #[test]
    fn unknown_opcode_is_none() {
        assert_eq!(def_use(0x0fff, 0), None);
    }
}
