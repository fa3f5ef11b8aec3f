//! The scoreboard pass nvlink's finalizer runs again on some sm_100+ functions of a final link
//! (problem M1 of the project notes): a port of the notes' model v12 (`notes/m1/m11`) plus the
//! rules of v13 (`notes/s17-m1pass.md`: a load consumed in its block joins a scoreboard whose
//! producers are first needed where it is, whichever scoreboard that is) and v14
//! (`notes/s18-m1model.md`: first needs of pending producers seen from the instruction being
//! allocated; a tie with a scoreboard-5 producer only after the free scoreboards; a join where
//! every candidate is needed later goes to the scoreboard expected to be released first).
//!
//! # When
//! A function is *triggered* when its first instruction is `LDC R1, c[0x0][0x37c]` carrying a
//! write scoreboard, no other instruction reads or writes `R1`, and it has no `CALL` (but a
//! `CALL.REL.NOINC` into its own section: `-ewp` kernels after an `-r` link). The
//! finalizer then drops that load's scoreboard (nothing waits for it) and allocates the
//! scoreboards again: which of the six scoreboards each producer (a write or read scoreboard of
//! an instruction) takes, and the wait mask of every instruction. Stall counts, yield and reuse
//! bits stay as ptxas wrote them. (The link applies it only in final links without `-g` and
//! without `-G` inputs; see the caller.)
//!
//! # How (the model)
//! * Hazards come from register def/use ([`super::def_use`]): a write scoreboard is waited
//!   before an instruction that reads, writes or is guarded by one of its registers; a read
//!   scoreboard before one that overwrites a register it reads (a uniform register used inside
//!   a memory address is read at issue and does not count, except for `SYNCS`). A phase check
//!   (`SYNCS.PHASECHK`, `mbarrier.try_wait`) waits the write scoreboard of every pending
//!   arrival (`SYNCS.ARRIVE`); an input wait on such a write is not kept as structural; `SYNCS`
//!   and `UBLKCP` wait for a pending `FENCE.VIEW.ASYNC` (its write scoreboard). (These
//!   `SYNCS` rules were read off nvlink's output for `cp.async.bulk` kernels; their opcodes are
//!   not validated yet, so today they decide nothing.) `FENCE.VIEW.ASYNC` waits for a pending
//!   `MEMBAR`'s read scoreboard. A load's destination does not wait for the read scoreboard of
//!   an earlier atomic without destination. `DEPBAR.LE SB0, 0x0` waits for scoreboard 0 by its
//!   operand (no wait-mask bit). `CALL`/`RET`, `WARPSYNC.COLLECTIVE`,
//!   `ENDCOLLECTIVE` wait for everything; `EXIT` waits for uniform-register loads and for the
//!   read scoreboards of texture and surface instructions.
//! * *Structural* waits are waits of the input that no hazard explains (loop-carried waits,
//!   waits ptxas placed early); they are kept, on whatever scoreboard the producer gets.
//! * Allocation visits the blocks in reverse post-order (fall-through first). Escaping loads
//!   (not consumed in their block) and `ATOM`/`RED` without destination, texture and surface
//!   loads take scoreboard 5; other loads one whose producers are needed at the same point
//!   (a *tie*), else the lowest free of 2-4, else 5, else the best fit by first need;
//!   everything else a tie, the lowest free of 0-4, 5 (not in blocks holding an escaping
//!   load), the best fit. First needs of the pending producers are seen from the instruction
//!   being allocated; a tie with a scoreboard holding a scoreboard-5 producer comes after the
//!   free scoreboards; when every candidate of a join is first needed after the producer's own
//!   need, the join goes by latency class (memory-operation reads, constant loads, the rest,
//!   memory loads) and then by the earliest issue (loads: by first need; notes
//!   `s18-m1model.md`). A guarded `EXIT` ends a block. No tie is taken by a producer nothing
//!   waits for, none with a scoreboard holding an escaping load of another block, and a read
//!   scoreboard ties only with producers under the same guard (two loads under different
//!   guards before `if (i >= n) return;` keep their own read scoreboards; an `LDCU` after the
//!   exit does not join the loads' scoreboard 5: notes `s18-tma.md`).
//!   A scoreboard that the merge block right after the producer's block still sees pending
//!   from another path is avoided when another is free.
//! * Notes `s19-m1sb.md`: a scoreboard a `DEPBAR` names keeps the producers the input put on it
//!   (`UTMACMDFLUSH`'s read) and is nobody else's; the read scoreboard of an atomic without
//!   destination joins one holding only such reads that nothing waits for, before the free
//!   ones; a constant or special-register load that finds every scoreboard busy, some first
//!   needed before its own need and some after, joins the one needed first after it.
//! * Waits are placed by a data-flow pass over the control-flow graph (all paths), plus the
//!   loop-entry flush (an edge into a loop waits scoreboards whose producers come from outside
//!   and have had the stall cycles to finish) and the structural waits.
//! * A producer whose scoreboard, around a back edge, still holds a later producer it did not
//!   join at allocation waits that scoreboard at itself.
//!
//! The pass gives up (returns `None`, the caller keeps the input's words) on anything outside
//! what the model was validated on: an instruction the decoder does not know, an opcode outside
//! the validated list, indirect branches, branch targets outside the function, functions too
//! large for the quadratic parts.

use super::{def_use, mnemonic, Reg, RegKind, BODY_HI};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Number of scoreboards.
const SBS: usize = 6;
/// "No scoreboard" in the write/read fields.
const NO_SB: u64 = 7;
/// First need of a producer nothing waits for.
const NEVER: usize = 1_000_000_000;
/// Largest function the pass handles (the need and live-range searches are quadratic: a
/// hostile 4,095-instruction function of 2,047 loops takes about 2 s in a release build).
const MAX_INSNS: usize = 4096;
/// Search steps the first needs seen from each allocation point may take in one function
/// before the pass gives up (the largest function the pass ran on in the notes' fresh links and
/// data sets took about 41,000).
const NEED_BUDGET: usize = 50_000_000;
/// `LDC R1, c[0x0][0x37c]`: the stack-pointer load that opens a function.
const LDC_R1: (u64, u64) = (0x0000_df00_ff01_7b82, 0x800);

/// Opcodes (low 12 bits) of the instructions seen in the functions on which the model was
/// checked against nvlink (every triggered function of the 70 links in the notes, and `HFMA2`
/// 0x231, `HMNMX2` 0x240 and `UIMAD` 0x8a5 of the fresh program p75: `half_axpy`, `half_minmax`
/// and `quantize_e4m3` exact on sm_100 and sm_120; the grid-barrier and fence opcodes of p02's
/// `reset_residual` and `tile_scan`, exact on both once their fence placeholders are gone, see
/// [`super::super::fence_pads`]; `I2F` 0x312, `PREEXIT` 0x82d and `ACQBULK` 0x82e of
/// programmatic dependent launch and conversion kernels, notes `s18-tma.md`; `UGETNEXTWORKID`
/// 0x3ca and `ELECT` 0x82f of `clusterlaunchcontrol.try_cancel` kernels, exact on sm_100 and
/// sm_120, notes `s19-m1ugnw.md`; `FFMA` with an immediate 0x423, a kernel computing
/// `x * 2 + 1`, corpus `sm100a_ffma_immediate_rescored`; `I2F.U32.RP` 0x306, `IMAD.HI` 0x227,
/// `VIMNMX` 0x848, `FENCE` 0x3c6, `UTMASTG` 0x3b5, `UTMACMDFLUSH` 0x9b7 and `DEPBAR` 0x91a of
/// fresh p58's `tma_store`, `LDG` 0x381, `ATOMG` 0x3a9, `PRMT` 0x416, `NANOSLEEP` 0x95d and
/// `ST` 0x985 of fresh p59's `scoped`, each exact on sm_100 and sm_120, notes `s19-m1sb.md`;
/// `STAS` 0xdbd (`st.async`) of a cluster kernel pushing into a peer CTA, exact on sm_100 and
/// sm_120, corpus `sm100/sm120_lto_st_async_fence_relocatable_then_final`, notes
/// `s20-dlto105.md`): a function with any other opcode is left alone.
const VALIDATED: &[u16] = &[
    0x202, 0x207, 0x208, 0x20b, 0x20c, 0x20f, 0x210, 0x211, 0x212, 0x216, 0x217, 0x219, 0x220,
    0x221, 0x223, 0x224, 0x225, 0x227, 0x228, 0x229, 0x230, 0x231, 0x235, 0x23c, 0x23e, 0x240,
    0x245, 0x248, 0x287, 0x28c, 0x290, 0x291, 0x297, 0x299, 0x2a4, 0x2a5, 0x2bd, 0x2bf, 0x2ca,
    0x300, 0x301, 0x305, 0x306, 0x308, 0x309, 0x310, 0x312, 0x348, 0x352, 0x353, 0x381, 0x388,
    0x389, 0x38b, 0x3a1, 0x3a9, 0x3b5, 0x3c4, 0x3c6, 0x3ca, 0x402, 0x416, 0x419, 0x421, 0x423,
    0x424, 0x430, 0x431, 0x482, 0x4a4, 0x547, 0x589, 0x5ab, 0x607, 0x7ac, 0x802, 0x805, 0x806,
    0x807, 0x80b, 0x80c, 0x810, 0x812, 0x816, 0x819, 0x81c, 0x820, 0x824, 0x825, 0x82d, 0x82e,
    0x82f, 0x831, 0x835, 0x836, 0x83b, 0x846, 0x848, 0x882, 0x886, 0x887, 0x88c, 0x890, 0x892,
    0x897, 0x899, 0x8a5, 0x918, 0x919, 0x91a, 0x91b, 0x941, 0x945, 0x946, 0x947, 0x948, 0x94d,
    0x95c, 0x95d, 0x980, 0x981, 0x984, 0x985, 0x986, 0x988, 0x98a, 0x98f, 0x992, 0x9a3, 0x9a8,
    0x9ab, 0x9b7, 0x9c3, 0xb1d, 0xb82, 0xc02, 0xc07, 0xc0c, 0xc10, 0xc11, 0xc12, 0xc17, 0xc19,
    0xc20, 0xc23, 0xc24, 0xc25, 0xc35, 0xc36, 0xc48, 0xc82, 0xd00, 0xd09, 0xdbd, 0xe23, 0xe24,
    0xf60, 0xf66, 0xf89,
];

/// Validated opcodes seen only without a scoreboard (`UGETNEXTWORKID`, `ELECT`): with one the
/// function is left alone.
const NO_SCOREBOARD: [u16; 2] = [0x3ca, 0x82f];

/// `SYNCS.PHASECHK` (`mbarrier.try_wait`).
const SYNCS_TRYWAIT: u16 = 0x5a7;
/// `SYNCS.ARRIVE` (`mbarrier.arrive`).
const SYNCS_ARRIVE: u16 = 0x9a7;
/// `SYNCS.EXCH` (`mbarrier.init`).
const SYNCS_EXCH: u16 = 0x5b2;
/// `FENCE` (`fence.proxy.async`, `FENCE.VIEW.ASYNC.S`).
const FENCE: u16 = 0x3c6;
/// `UBLKCP` (`cp.async.bulk`).
const UBLKCP: u16 = 0x3ba;
/// `DEPBAR`.
const DEPBAR: u16 = 0x91a;
/// `MEMBAR`.
const MEMBAR: u16 = 0x992;
/// `DEPBAR.LE SB0, 0x0`, unguarded: the only `DEPBAR` form the pass handles.
const DEPBAR_SB0_ZERO: u64 = 0x0000_8000_0000_791a;
/// `UTMACMDFLUSH`.
const UTMACMDFLUSH: u16 = 0x9b7;

/// A producer: instruction index times two, plus one for its write scoreboard (zero: read).
type Producer = u32;

fn producer(i: usize, write: bool) -> Producer {
    (i as u32) << 1 | u32::from(write)
}
fn site(p: Producer) -> usize {
    (p >> 1) as usize
}
fn is_write(p: Producer) -> bool {
    p & 1 == 1
}

/// First needs of producers seen from instructions: (producer, instruction) -> need.
type NeedsHere = BTreeMap<(Producer, usize), usize>;

/// The producers pending on each scoreboard.
type Pending = [BTreeSet<Producer>; SBS];

/// One instruction with what the pass needs of it.
struct Insn {
    name: &'static str,
    /// The opcode (low 12 bits).
    op: u16,
    defs: Vec<Reg>,
    uses: Vec<Reg>,
    /// `uses` without the uniform registers of a memory address (read at issue).
    read_late: Vec<Reg>,
    guard: Option<Reg>,
    /// `WARPSYNC.COLLECTIVE`.
    collective: bool,
    stall: usize,
    write_sb: u64,
    read_sb: u64,
    wait: u64,
}

impl Insn {
    fn is(&self, name: &str) -> bool {
        self.name == name
    }
    /// `LDG`, `LD`, `LDL`, `ATOM`, `ATOMG`, texture and surface loads (the model's long loads).
    fn memory_load(&self) -> bool {
        let n = self.name;
        n.starts_with("LDG")
            || n == "LD"
            || n.starts_with("ATOMG")
            || n == "ATOM"
            || n.starts_with("LDL")
            || self.texture()
    }
    fn texture(&self) -> bool {
        let n = self.name;
        n.starts_with("TLD") || n.starts_with("TEX") || n.starts_with("SULD")
    }
    /// An atomic or reduction without destination register.
    fn atomic_no_dest(&self) -> bool {
        let n = self.name;
        (n.starts_with("ATOMG") || n == "ATOM" || n.starts_with("RED")) && self.defs.is_empty()
    }
    /// A load with a destination that is not a texture/surface load.
    fn plain_load(&self) -> bool {
        self.memory_load() && !self.defs.is_empty() && !self.texture()
    }
    fn defines_uniform(&self) -> bool {
        self.defs.iter().any(|r| r.kind == RegKind::Ur)
    }
    /// A producer that always takes scoreboard 5 when it writes: `ATOM`/`RED` without
    /// destination, texture and surface loads (escaping loads are the other kind).
    fn sb5_writer(&self) -> bool {
        ((self.defs.is_empty() || self.texture()) && self.memory_load())
            || (self.defs.is_empty() && self.name.starts_with("RED"))
    }
    /// A memory, shuffle or texture instruction (its read scoreboard is released once it has
    /// read its registers).
    fn memory_op(&self) -> bool {
        const PREFIXES: [&str; 16] = [
            "LD", "ST", "ATOM", "RED", "TEX", "TLD", "TMML", "TXQ", "SU", "SHFL", "MATCH", "REDUX",
            "CCTL", "UBLKCP", "UTMA", "UBLK",
        ];
        PREFIXES.iter().any(|p| self.name.starts_with(p))
    }
    /// A constant or special-register load.
    fn short_load(&self) -> bool {
        ["LDC", "LDCU", "S2R", "S2UR", "CS2R"].contains(&self.name)
    }
}

fn meet(a: &[Reg], b: &[Reg]) -> bool {
    a.iter().any(|r| b.contains(r))
}

/// The function as the pass sees it.
struct Function {
    ins: Vec<Insn>,
    succ: Vec<Vec<usize>>,
    /// Predecessors, one entry per edge (a conditional branch to the next instruction counts twice).
    pred: Vec<Vec<usize>>,
    /// Loop header -> body (natural loops of the back edges, merged per header).
    loops: BTreeMap<usize, Vec<bool>>,
    /// Stall cycles before each instruction (prefix sums).
    cum: Vec<usize>,
    /// Scoreboards a `DEPBAR` names (bit mask): kept for the producers the input put there.
    depbar: u64,
}

fn words(code: &[u8]) -> Option<Vec<(u64, u64)>> {
    if code.len() % 16 != 0 {
        return None;
    }
    code.chunks_exact(16)
        .map(|c| {
            Some((
                u64::from_le_bytes(c.get(..8)?.try_into().ok()?),
                u64::from_le_bytes(c.get(8..)?.try_into().ok()?),
            ))
        })
        .collect()
}

/// Whether `code` (a function's code, or just its start) opens with `LDC R1, c[0x0][0x37c]`
/// carrying a write scoreboard: the first condition of [`triggered`], which needs only the
/// first instruction.
pub fn opens_with_trigger(code: &[u8]) -> bool {
    let (Some(lo), Some(hi)) = (code.get(..8), code.get(8..16)) else {
        return false;
    };
    let lo = u64::from_le_bytes(lo.try_into().unwrap_or_default());
    let hi = u64::from_le_bytes(hi.try_into().unwrap_or_default());
    lo == LDC_R1.0 && hi & BODY_HI == LDC_R1.1 && hi >> 46 & 7 != NO_SB
}

/// Whether the function opens with `LDC R1, c[0x0][0x37c]` carrying a write scoreboard, no
/// other instruction touches `R1`, and there is no `CALL` but a `CALL.REL.NOINC` (an `-ewp`
/// kernel's call into the internal function its own section holds, as nvlink's `-r` image of
/// it has them) (the functions nvlink re-allocates).
/// Instructions the decoder does not know make it `false`.
pub fn triggered(code: &[u8]) -> bool {
    if !opens_with_trigger(code) {
        return false;
    }
    let Some(w) = words(code) else {
        return false;
    };
    let r1 = Reg {
        kind: RegKind::R,
        num: 1,
    };
    let n = w.len();
    w.iter().enumerate().skip(1).all(|(i, &(lo, hi))| {
        let Some(du) = def_use(lo, hi) else {
            return false;
        };
        let inside = lo & 0xfff == 0x944 && matches!(branch_target(lo, hi, i, n), Some(Some(_)));
        (mnemonic(lo) != Some("CALL") || inside) && !du.defs.contains(&r1) && !du.uses.contains(&r1)
    })
}

/// The branch target of a `BRA` (instruction index; `Some(None)` = the end of the function),
/// `None` when it is not on an instruction of the function.
fn branch_target(lo: u64, hi: u64, i: usize, n: usize) -> Option<Option<usize>> {
    let w = lo as u128 | (hi as u128) << 64;
    let v = ((w >> 16) & 0xff) | ((w >> 34) & ((1 << 48) - 1)) << 8;
    let disp = ((v << 72) as i128 >> 72) * 4;
    let to = (i as i128 + 1) * 16 + disp;
    if to < 0 || to % 16 != 0 || to > n as i128 * 16 {
        return None;
    }
    let k = (to / 16) as usize;
    Some((k < n).then_some(k))
}

impl Function {
    /// `extra`: opcodes accepted beyond [`VALIDATED`] (the `-r` pass's calls and returns).
    fn new(w: &[(u64, u64)], extra: &[u16]) -> Option<Function> {
        let n = w.len();
        let mut ins = Vec::with_capacity(n);
        let mut succ = Vec::with_capacity(n);
        let mut depbar = 0;
        for (i, &(lo, hi)) in w.iter().enumerate() {
            let op = (lo & 0xfff) as u16;
            if VALIDATED.binary_search(&op).is_err() && !extra.contains(&op) {
                return None;
            }
            // `BAR.ARV` (opcode 0xb1d, validated for `BAR.SYNC`) decodes, but the pass is not
            // exact on the one function seen with it (fresh p106 `ws_local`: nvlink shares one
            // read scoreboard among the `STS.128` between the barriers; notes `s21-barv.md`).
            if super::barrier::is_arrive(lo, hi) {
                return None;
            }
            if op == DEPBAR {
                if lo != DEPBAR_SB0_ZERO {
                    return None;
                }
                depbar |= 1;
            }
            let name = mnemonic(lo)?;
            let du = def_use(lo, hi)?;
            let guarded = lo >> 12 & 0xf != 7;
            let ctl = hi >> 41;
            // `SYNCS` reads its address registers through its read scoreboard too.
            let syncs = matches!(op, SYNCS_TRYWAIT | SYNCS_ARRIVE | SYNCS_EXCH);
            // The uniform pair of a `desc[URx]` operand is read at issue too (fresh p110's
            // `child_mul`: `LDCU.128 UR4` right after `LDG.E.128 R4, desc[UR4][R2.64]` waits
            // for nothing in nvlink's words; notes `s21-imad.md`).
            let read_late = du
                .uses
                .iter()
                .filter(|r| {
                    syncs
                        || !(r.kind == RegKind::Ur
                            && (du.address.contains(r) || du.desc.contains(r)))
                })
                .copied()
                .collect();
            let mut s = match op {
                // EXIT, RET: the end of the path unless guarded.
                0x94d | 0x950 => {
                    if guarded {
                        vec![i + 1]
                    } else {
                        vec![]
                    }
                }
                // BRA: predicate operand (bits 87-89, 90 negates), .DIV (bit 33), .ANY (bit 84).
                0x947 => {
                    let pred = hi >> 23 & 7;
                    let neg = hi >> 26 & 1;
                    if pred == 7 && neg == 1 {
                        return None;
                    }
                    let cond = guarded || pred != 7 || lo >> 33 & 1 == 1 || hi >> 20 & 1 == 1;
                    let t = branch_target(lo, hi, i, n)?;
                    let mut s: Vec<usize> = t.into_iter().collect();
                    if cond || t.is_none() {
                        s.push(i + 1);
                    }
                    s
                }
                // BRA.U with a uniform predicate operand (bits 24-26).
                0x547 => {
                    if lo >> 24 & 7 == 7 {
                        return None;
                    }
                    let t = branch_target(lo, hi, i, n)?;
                    let mut s: Vec<usize> = t.into_iter().collect();
                    s.push(i + 1);
                    s
                }
                _ => vec![i + 1],
            };
            s.retain(|&j| j < n);
            succ.push(s);
            // Scoreboard 6 does not exist (7 is "none"): not code ptxas wrote.
            let (write_sb, read_sb) = (ctl >> 5 & 7, ctl >> 8 & 7);
            if write_sb == SBS as u64 || read_sb == SBS as u64 {
                return None;
            }
            // Validated only as pure consumers (no scoreboard in any example): which latency
            // class nvlink would give them as producers is not known.
            if NO_SCOREBOARD.contains(&op) && (write_sb != NO_SB || read_sb != NO_SB) {
                return None;
            }
            ins.push(Insn {
                name,
                op,
                defs: du.defs,
                uses: du.uses,
                read_late,
                guard: du.guard,
                collective: (op == 0x348 || op == 0x948) && hi >> 22 & 1 == 1,
                stall: (ctl & 0xf) as usize,
                write_sb,
                read_sb,
                wait: ctl >> 11 & 0x3f,
            });
        }
        let mut pred = vec![Vec::new(); n];
        for (i, s) in succ.iter().enumerate() {
            for &j in s {
                pred[j].push(i);
            }
        }
        let mut loops: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
        for (i, s) in succ.iter().enumerate() {
            for &h in s {
                if h > i {
                    continue;
                }
                let body = loops.entry(h).or_insert_with(|| vec![false; n]);
                body[h] = true;
                let mut stack = vec![i];
                while let Some(j) = stack.pop() {
                    if body[j] {
                        continue;
                    }
                    body[j] = true;
                    stack.extend_from_slice(&pred[j]);
                }
            }
        }
        let mut cum = Vec::with_capacity(n + 1);
        cum.push(0);
        for x in &ins {
            cum.push(cum.last().copied().unwrap_or(0) + x.stall);
        }
        Some(Function {
            ins,
            succ,
            pred,
            loops,
            cum,
            depbar,
        })
    }

    fn n(&self) -> usize {
        self.ins.len()
    }

    /// Scoreboards instruction `i` waits for by its operands (`DEPBAR.LE SB0, 0x0`): released
    /// there without a wait-mask bit.
    fn released(&self, i: usize) -> u64 {
        if self.ins[i].op == DEPBAR {
            self.depbar
        } else {
            0
        }
    }

    fn release(&self, i: usize, st: &mut Pending) {
        let r = self.released(i);
        for (b, qs) in st.iter_mut().enumerate() {
            if r >> b & 1 == 1 {
                qs.clear();
            }
        }
    }

    /// Whether instruction `i` must wait for producer `p`. `full` adds the rules of the wait
    /// placement (collectives, `EXIT`); the first-need search runs without them.
    fn hazard(&self, p: Producer, i: usize, full: bool) -> bool {
        let (j, x) = (&self.ins[site(p)], &self.ins[i]);
        if full {
            // (A call waits for everything but is nobody's first need: an `-ewp` kernel's
            // constant load pending at its `CALL` does not join the stack-pointer load there.)
            if x.is("CALL") || x.is("RET") {
                return true;
            }
            if x.collective || x.is("ENDCOLLECTIVE") {
                return true;
            }
            if x.is("EXIT") {
                if !is_write(p) && ["SUST", "SULD", "TEX", "TLD", "TLD4"].contains(&j.name) {
                    return true;
                }
                if is_write(p) && j.defines_uniform() {
                    return true;
                }
            }
        }
        // A phase check waits for the arrivals still pending (on any barrier).
        if x.op == SYNCS_TRYWAIT && j.op == SYNCS_ARRIVE && is_write(p) {
            return true;
        }
        // Barrier operations and bulk copies wait for a pending proxy fence.
        if j.op == FENCE
            && is_write(p)
            && matches!(x.op, SYNCS_TRYWAIT | SYNCS_ARRIVE | SYNCS_EXCH | UBLKCP)
        {
            return true;
        }
        // A proxy fence waits for a pending memory barrier.
        if x.op == FENCE && j.op == MEMBAR && !is_write(p) {
            return true;
        }
        // A load's destination is written after an earlier atomic without destination has read
        // its registers: no wait for that read scoreboard (fresh p59 `scoped` on sm_120: ptxas
        // and nvlink both leave it out).
        if !is_write(p) && j.atomic_no_dest() && x.plain_load() {
            return false;
        }
        if is_write(p) {
            meet(&j.defs, &x.uses)
                || meet(&j.defs, &x.defs)
                || x.guard.is_some_and(|g| j.defs.contains(&g))
        } else {
            meet(&j.read_late, &x.defs)
        }
    }

    /// The loop-entry flush at `i`: scoreboards all of whose producers come from outside a loop
    /// entered from `i` and have had the stall cycles to finish (at a latch: none is needed in
    /// the loop). Returns (mask, mask of the latch headers' bits).
    fn flush(
        &self,
        i: usize,
        st: &Pending,
        memo: &mut BTreeMap<(Producer, usize), bool>,
    ) -> (u64, u64) {
        let mut need = 0;
        let mut keep = 0;
        for &h in &self.succ[i] {
            let Some(body) = self.loops.get(&h) else {
                continue;
            };
            let latch = body[i];
            for (b, qs) in st.iter().enumerate() {
                if qs.is_empty() || qs.iter().any(|&q| site(q) == i) {
                    continue;
                }
                let ok = qs.iter().all(|&q| {
                    let j = site(q);
                    if body[j] || j >= i || self.cum[i] - self.cum[j] < self.flush_after(q) {
                        return false;
                    }
                    // (The stack-pointer load of the `-r` pass is flushed at loop entries
                    // only.)
                    if latch && q == producer(0, true) {
                        return false;
                    }
                    if latch {
                        let used = *memo.entry((q, h)).or_insert_with(|| {
                            (0..self.n()).any(|x| body[x] && self.hazard(q, x, true))
                        });
                        if used {
                            return false;
                        }
                    }
                    true
                });
                if ok {
                    need |= 1 << b;
                    if latch {
                        keep |= 1 << b;
                    }
                }
            }
        }
        (need, keep)
    }

    /// Stall cycles after which a producer counts as finished for the loop-entry flush.
    fn flush_after(&self, p: Producer) -> usize {
        let n = self.ins[site(p)].name;
        if !is_write(p) {
            return if ["DADD", "DFMA", "DMUL"].contains(&n) {
                0
            } else {
                14
            };
        }
        match n {
            // The stack-pointer load (`-r` pass): flushed at loop entries 32 and 51 cycles
            // after it, not at one 5 cycles after (notes `s19-weak100r.md`); taken as
            // `LDCU`'s.
            "LDC" if site(p) == 0 => 20,
            "LDCU" | "S2UR" => 20,
            "LDC" => 72,
            "S2R" | "SHFL" => 30,
            "DADD" | "DFMA" | "DMUL" | "I2F" | "F2I" | "F2F" => 0,
            _ => NEVER,
        }
    }

    /// Producers of the input, per instruction, that an input wait no hazard explains waits for.
    fn structural(&self) -> BTreeMap<usize, BTreeSet<Producer>> {
        let n = self.n();
        let mut pin: Vec<Option<Pending>> = vec![None; n];
        let mut res: BTreeMap<usize, BTreeSet<Producer>> = BTreeMap::new();
        if n == 0 {
            return res;
        }
        pin[0] = Some(Default::default());
        let mut work = vec![0];
        while let Some(i) = work.pop() {
            let Some(mut st) = pin[i].clone() else {
                continue;
            };
            self.release(i, &mut st);
            let x = &self.ins[i];
            for (b, qs) in st.iter_mut().enumerate() {
                if x.wait >> b & 1 == 1 {
                    if !qs.is_empty() && !qs.iter().any(|&q| self.hazard(q, i, true)) {
                        // An arrival's write is waited by the phase checks (a hazard), not kept.
                        res.entry(i).or_default().extend(
                            qs.iter().copied().filter(|&q| {
                                !(is_write(q) && self.ins[site(q)].op == SYNCS_ARRIVE)
                            }),
                        );
                    }
                    qs.clear();
                }
            }
            if x.write_sb != NO_SB {
                st[x.write_sb as usize].insert(producer(i, true));
            }
            if x.read_sb != NO_SB {
                st[x.read_sb as usize].insert(producer(i, false));
            }
            self.flow(i, &st, &mut pin, &mut work);
        }
        res
    }

    /// Merges `st` into the successors' entry states, queueing those that changed.
    fn flow(&self, i: usize, st: &Pending, pin: &mut [Option<Pending>], work: &mut Vec<usize>) {
        for &j in &self.succ[i] {
            match &mut pin[j] {
                None => {
                    pin[j] = Some(st.clone());
                    work.push(j);
                }
                Some(old) => {
                    let mut changed = false;
                    for (o, s) in old.iter_mut().zip(st.iter()) {
                        for &q in s {
                            changed |= o.insert(q);
                        }
                    }
                    if changed {
                        work.push(j);
                    }
                }
            }
        }
    }

    /// First need of each producer: the layout position of the first hazard on any path
    /// (positions at or before the producer count one function length later).
    fn first_needs(&self, prods: &[Producer]) -> BTreeMap<Producer, usize> {
        let n = self.n();
        let mut need = BTreeMap::new();
        let mut seen = vec![false; n];
        for &p in prods {
            let i0 = site(p);
            seen.iter_mut().for_each(|s| *s = false);
            let mut stack = self.succ[i0].clone();
            let mut best = NEVER;
            while let Some(j) = stack.pop() {
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                if self.hazard(p, j, false) {
                    best = best.min(if j > i0 { j } else { j + n });
                    continue;
                }
                stack.extend_from_slice(&self.succ[j]);
            }
            need.insert(p, best);
        }
        need
    }

    /// Where `p` is pending: its instruction and what is reachable without a hazard on it.
    fn live_range(&self, p: Producer) -> Vec<bool> {
        let mut r = vec![false; self.n()];
        r[site(p)] = true;
        let mut todo = self.succ[site(p)].clone();
        while let Some(j) = todo.pop() {
            if r[j] || self.hazard(p, j, true) {
                continue;
            }
            r[j] = true;
            todo.extend_from_slice(&self.succ[j]);
        }
        r
    }

    /// Basic blocks: the block of each instruction.
    fn blocks(&self) -> Vec<usize> {
        let n = self.n();
        let mut lead = vec![false; n + 1];
        lead[0] = true;
        for (i, s) in self.succ.iter().enumerate() {
            // A guarded `EXIT` ends its block too (a load consumed after it escapes), and so
            // does a `CALL` (`-r` pass: a load consumed after the call takes scoreboard 5).
            if s.as_slice() != [i + 1] || self.ins[i].is("EXIT") || self.ins[i].is("CALL") {
                lead[i + 1] = true;
                for &j in s {
                    if j != i + 1 {
                        lead[j] = true;
                    }
                }
            }
        }
        let mut bid = vec![0; n];
        let mut b = 0usize;
        for i in 0..n {
            if lead[i] && i > 0 {
                b += 1;
            }
            bid[i] = b;
        }
        bid
    }

    /// Instructions in reverse post-order of the blocks (fall-through successor visited
    /// first), then the unreachable blocks in layout order.
    fn reverse_post_order(&self, bid: &[usize]) -> Vec<usize> {
        let n = self.n();
        let nb = bid.last().map_or(0, |&b| b + 1);
        let mut start = vec![usize::MAX; nb];
        let mut end = vec![0; nb];
        for i in 0..n {
            if start[bid[i]] == usize::MAX {
                start[bid[i]] = i;
            }
            end[bid[i]] = i;
        }
        let next = |b: usize| -> Vec<usize> {
            let e = end[b];
            let mut s = self.succ[e].clone();
            s.sort_by_key(|&j| (j != e + 1, j));
            s.into_iter().map(|j| bid[j]).collect()
        };
        let mut seen = vec![false; nb];
        let mut post = Vec::with_capacity(nb);
        if nb > 0 {
            seen[0] = true;
            let mut stack = vec![(0usize, next(0), 0usize)];
            while let Some(top) = stack.last_mut() {
                let (b, ref list, ref mut k) = *top;
                if let Some(&c) = list.get(*k) {
                    *k += 1;
                    if !seen[c] {
                        seen[c] = true;
                        let l = next(c);
                        stack.push((c, l, 0));
                    }
                } else {
                    post.push(b);
                    stack.pop();
                }
            }
        }
        let mut order = Vec::with_capacity(n);
        for &b in post
            .iter()
            .rev()
            .chain((0..nb).filter(|&b| !seen[b]).collect::<Vec<_>>().iter())
        {
            order.extend(start[b]..=end[b]);
        }
        order
    }
}

/// The allocation state of one scoreboard: pending producers, and whether it is blocked (waited
/// at this instruction for no hazard: not free for the instruction's own producers).
#[derive(Clone, Default)]
struct Slot {
    pending: BTreeSet<Producer>,
    blocked: bool,
}

impl Slot {
    fn empty(&self) -> bool {
        self.pending.is_empty() && !self.blocked
    }
}

struct Allocation<'f> {
    f: &'f Function,
    need: BTreeMap<Producer, usize>,
    bid: Vec<usize>,
    block_end: Vec<usize>,
    escaping: BTreeSet<usize>,
    reserved: BTreeSet<usize>,
    /// Structural waits as found in the input (with the dropped producer).
    structural: BTreeMap<usize, BTreeSet<Producer>>,
    out_states: Vec<Option<Pending>>,
    /// Per producer: its scoreboard and the producers it joined there.
    joined: BTreeMap<Producer, (usize, BTreeSet<Producer>)>,
    assign: BTreeMap<Producer, usize>,
    /// Producers that keep the input's scoreboard (one a `DEPBAR` names).
    fixed: BTreeMap<Producer, usize>,
    /// First needs seen from an instruction (producer, instruction), and what is left of the
    /// search budget (the pass gives up when it runs out).
    need_here: RefCell<(NeedsHere, usize)>,
}

impl Allocation<'_> {
    fn need_of(&self, p: Producer) -> usize {
        self.need.get(&p).copied().unwrap_or(NEVER)
    }

    /// The first need of pending producer `q` seen from instruction `i`: the first hazard on a
    /// path from `i` (positions at or before `i` count one function length later); a producer
    /// nothing after `i` waits for keeps its own first need. `None`: out of search budget.
    fn need_from(&self, q: Producer, i: usize) -> Option<usize> {
        let f = self.f;
        if site(q) == i {
            return Some(self.need_of(q));
        }
        let mut memo = self.need_here.borrow_mut();
        if let Some(&m) = memo.0.get(&(q, i)) {
            return Some(m);
        }
        let n = f.n();
        let mut seen = vec![false; n];
        let mut stack = f.succ[i].clone();
        let mut best = NEVER;
        while let Some(j) = stack.pop() {
            if seen[j] {
                continue;
            }
            seen[j] = true;
            memo.1 = memo.1.checked_sub(1)?;
            if f.hazard(q, j, false) {
                best = best.min(if j > i { j } else { j + n });
                continue;
            }
            stack.extend_from_slice(&f.succ[j]);
        }
        let m = if best == NEVER { self.need_of(q) } else { best };
        memo.0.insert((q, i), m);
        Some(m)
    }

    /// A producer of scoreboard 5 by rule: an escaping load, `ATOM`/`RED` without destination,
    /// a texture or surface load.
    fn sb5_producer(&self, q: Producer) -> bool {
        is_write(q) && (self.escaping.contains(&site(q)) || self.f.ins[site(q)].sb5_writer())
    }

    /// How long a pending producer may take: 0 the read scoreboard of a memory instruction,
    /// 1 a constant or special-register load, 2 anything else (arithmetic, FP64, conversions,
    /// and the read scoreboards of those), 3 a memory load, atomic or texture write.
    fn latency_class(&self, q: Producer) -> u8 {
        let x = &self.f.ins[site(q)];
        if !is_write(q) {
            return if x.memory_op() { 0 } else { 2 };
        }
        if self.escaping.contains(&site(q))
            || x.memory_load()
            || (x.defs.is_empty() && x.memory_op())
        {
            3
        } else if x.short_load() {
            1
        } else {
            2
        }
    }

    /// Ordering key of a busy scoreboard when a producer must join one whose producers are all
    /// first needed after its own need: the scoreboard expected to be released first (lowest
    /// latency class of its slowest producers, then the earliest last issue of that class).
    fn release_key(&self, q: &BTreeSet<Producer>) -> (u8, usize) {
        let c = q.iter().map(|&p| self.latency_class(p)).max().unwrap_or(0);
        let last = q
            .iter()
            .filter(|&&p| self.latency_class(p) == c)
            .map(|&p| site(p))
            .max()
            .unwrap_or(0);
        (c, last)
    }

    /// A one-block loop: the block's last instruction branches to its first.
    fn self_loop(&self, i: usize) -> bool {
        let b = self.bid[i];
        let start = (0..=i).find(|&j| self.bid[j] == b).unwrap_or(i);
        let end = self.block_end[b];
        self.f.succ[end].contains(&start)
    }

    /// An `ATOM`/`RED` without destination that only its own next iteration waits for, alone,
    /// in a one-block loop: an in-block load, not a scoreboard-5 producer.
    fn local_atomic(&self, p: Producer) -> bool {
        let i = site(p);
        let f = self.f;
        if !is_write(p) || !f.ins[i].atomic_no_dest() {
            return false;
        }
        let Some(own) = self.structural.get(&i) else {
            return false;
        };
        own.contains(&p)
            && !self
                .structural
                .iter()
                .any(|(&j, v)| j != i && v.contains(&p))
            && !own
                .iter()
                .any(|&q| q != p && is_write(q) && f.ins[site(q)].atomic_no_dest())
            && self.self_loop(i)
    }

    /// The scoreboard of producer `p` in state `st` at its instruction; records the producers
    /// it joins there (for the reuse wait). `None`: no rule applies (the pass gives up).
    fn choose(&mut self, p: Producer, st: &[Slot; SBS]) -> Option<usize> {
        if let Some(&b) = self.fixed.get(&p) {
            self.joined.insert(p, (b, st[b].pending.clone()));
            return Some(b);
        }
        let mut masked = st.clone();
        for (b, slot) in masked.iter_mut().enumerate() {
            if self.f.depbar >> b & 1 == 1 {
                slot.blocked = true;
            }
        }
        let st = &masked;
        let free_all: Vec<usize> = (0..SBS).filter(|&x| st[x].empty()).collect();
        if self.local_atomic(p) {
            if let Some(&x) = free_all.iter().find(|&&x| (2..=4).contains(&x)) {
                return Some(x);
            }
        }
        let b = self.choose_model(p, st, free_all)?;
        if self.f.depbar >> b & 1 == 1 {
            return None;
        }
        let joined = st[b].pending.clone();
        self.joined.insert(p, (b, joined));
        Some(b)
    }

    /// The allocation rules proper; `free` lists the empty scoreboards. A busy scoreboard's key
    /// is the earliest first need of its producers: a *tie* has the producer's own first need.
    fn choose_model(&self, p: Producer, st: &[Slot; SBS], mut free: Vec<usize>) -> Option<usize> {
        let f = self.f;
        let n = f.n();
        let i = site(p);
        let x = &f.ins[i];
        let np = self.need_of(p);
        let own = |b: usize| st[b].pending.iter().any(|&q| site(q) == i);
        // A busy scoreboard's key: the earliest first need of its producers seen from here.
        let mut busy: BTreeMap<usize, usize> = BTreeMap::new();
        for b in (0..SBS).filter(|&b| !st[b].empty() && !st[b].blocked) {
            let mut m = NEVER;
            for &q in &st[b].pending {
                m = m.min(self.need_from(q, i)?);
            }
            busy.insert(b, m);
        }
        // Merge blocks right after this block: scoreboards pending there from paths already
        // allocated are avoided.
        let end = self.block_end[self.bid[i]];
        let mut bad = [false; SBS];
        let mut range: Option<Vec<bool>> = None;
        for &m in &f.succ[end] {
            if m >= n || f.pred[m].len() < 2 {
                continue;
            }
            let r = range.get_or_insert_with(|| f.live_range(p));
            if !r[m] {
                continue;
            }
            for &j in &f.pred[m] {
                if let Some(Some(s)) = self.out_states.get(j) {
                    if self.bid[j] != self.bid[i] {
                        for (b, qs) in s.iter().enumerate() {
                            if !qs.is_empty() {
                                bad[b] = true;
                            }
                        }
                    }
                }
            }
        }
        let kept: Vec<usize> = free.iter().copied().filter(|&b| !bad[b]).collect();
        if !kept.is_empty() {
            free = kept;
        }
        // No tie for a producer nothing waits for; none with an escaping load of another
        // block; a read scoreboard ties only with producers under the same guard.
        let tie_ok = |b: usize| {
            st[b].pending.iter().all(|&q| {
                let y = &f.ins[site(q)];
                let foreign_escape = is_write(q)
                    && self.escaping.contains(&site(q))
                    && self.bid[site(q)] != self.bid[i];
                !foreign_escape && (is_write(p) || y.guard == x.guard)
            })
        };
        let tie: Vec<usize> = busy
            .iter()
            .filter(|&(&b, &m)| m == np && np != NEVER && !own(b) && tie_ok(b))
            .map(|(&b, _)| b)
            .collect();
        // A tie is taken first unless its scoreboard holds a scoreboard-5 producer (then only
        // after the free scoreboards).
        let early_tie = tie
            .iter()
            .copied()
            .find(|&b| !st[b].pending.iter().any(|&q| self.sb5_producer(q)));
        let reserved = self.reserved.contains(&self.bid[i]);
        // The fit among `cands` (a load consumed in its block): the smallest first need at or
        // after its own, else the largest. When every one comes after its own, the lowest
        // latency class first.
        let fit = |cands: &[usize]| -> Option<usize> {
            let c: Vec<usize> = cands
                .iter()
                .copied()
                .filter(|&b| busy.contains_key(&b) && !own(b))
                .collect();
            if !c.is_empty() && c.iter().all(|b| busy[b] > np) {
                return c
                    .into_iter()
                    .min_by_key(|&b| (self.release_key(&st[b].pending).0, busy[&b], b));
            }
            let ge: Vec<usize> = c.iter().copied().filter(|b| busy[b] >= np).collect();
            if !ge.is_empty() {
                return ge.into_iter().min_by_key(|&b| (busy[&b], b));
            }
            c.into_iter()
                .max_by_key(|&b| (busy[&b], std::cmp::Reverse(b)))
        };
        // The best fit: the largest first need at or before its own; when every one comes
        // after, the scoreboard expected to be released first.
        let best_fit = || -> Option<usize> {
            let c: Vec<usize> = (0..SBS)
                .filter(|&b| busy.contains_key(&b) && !own(b))
                .collect();
            let le: Vec<usize> = c.iter().copied().filter(|b| busy[b] <= np).collect();
            let later: Vec<usize> = c
                .iter()
                .copied()
                .filter(|b| busy[b] > np && busy[b] != NEVER)
                .collect();
            if is_write(p) && x.short_load() && !le.is_empty() && !later.is_empty() {
                return later.into_iter().min_by_key(|&b| (busy[&b], b));
            }
            if !le.is_empty() {
                return le
                    .into_iter()
                    .max_by_key(|&b| (busy[&b], std::cmp::Reverse(b)));
            }
            c.into_iter()
                .min_by_key(|&b| (self.release_key(&st[b].pending), b))
        };
        let write = is_write(p);
        // An escaping load joins scoreboard 5 (busy or not).
        if write && self.escaping.contains(&i) {
            return Some(5);
        }
        // So do ATOM/RED without destination and texture/surface loads.
        if write
            && (((x.defs.is_empty() || x.texture()) && x.memory_load())
                || (x.defs.is_empty() && x.name.starts_with("RED")))
        {
            return Some(5);
        }
        let is_free = |b: usize| free.contains(&b);
        // A load consumed in its block: a tie (model v13; v14: not with a scoreboard-5
        // producer), the lowest free of 2-4, a tie with a scoreboard-5 producer, 5 (unless the
        // block is reserved for an escaping load), the fit among 2-5.
        if write && x.memory_load() {
            if let Some(b) = early_tie {
                return Some(b);
            }
            if let Some(b) = (2..=4).find(|&b| is_free(b)) {
                return Some(b);
            }
            if let Some(&b) = tie.first() {
                return Some(b);
            }
            if is_free(5) && !reserved {
                return Some(5);
            }
            if let Some(b) = fit(&[2, 3, 4, 5]) {
                return Some(b);
            }
            return if is_free(5) { Some(5) } else { best_fit() };
        }
        // The read scoreboard of an atomic without destination joins one holding only such
        // reads that nothing waits for (fresh p59 `scoped`; a `SHFL` read does not join an
        // `LDG` read that way: p02 `tile_scan`).
        if !write && x.atomic_no_dest() {
            let idle = busy.iter().find(|&(&b, &m)| {
                m == NEVER
                    && !own(b)
                    && tie_ok(b)
                    && st[b]
                        .pending
                        .iter()
                        .all(|&q| !is_write(q) && f.ins[site(q)].atomic_no_dest())
            });
            if let Some((&b, _)) = idle {
                return Some(b);
            }
        }
        // Anything else: a tie (not with a scoreboard-5 producer), the lowest free of 0-4, a
        // tie with a scoreboard-5 producer, 5, the best fit.
        if let Some(b) = early_tie {
            return Some(b);
        }
        if let Some(b) = (0..=4).find(|&b| is_free(b)) {
            return Some(b);
        }
        if let Some(&b) = tie.first() {
            return Some(b);
        }
        if is_free(5) && !(reserved && write) {
            return Some(5);
        }
        Some(best_fit().unwrap_or_else(|| free.first().copied().unwrap_or(0)))
    }
}

/// The pass's result per instruction: write scoreboard, read scoreboard, wait mask.
type Words = Vec<(u64, u64, u64)>;

fn run(f: &Function, first: FirstLoad) -> Option<Words> {
    let n = f.n();
    let dropped = producer(0, true);
    let structural = f.structural();
    let kept: BTreeMap<usize, BTreeSet<Producer>> = structural
        .iter()
        .map(|(&i, v)| (i, v.iter().copied().filter(|&q| q != dropped).collect()))
        .collect();
    let mut prods = Vec::new();
    for (i, x) in f.ins.iter().enumerate() {
        if x.read_sb != NO_SB {
            prods.push(producer(i, false));
        }
        let write = if i == 0 {
            first == FirstLoad::Scoreboarded
        } else {
            x.write_sb != NO_SB
        };
        if write {
            prods.push(producer(i, true));
        }
    }
    let need = f.first_needs(&prods);
    // A scoreboard a `DEPBAR` names stays with the producers the input put on it (only the
    // read scoreboard of `UTMACMDFLUSH` was seen there) and is nobody else's.
    let mut fixed = BTreeMap::new();
    if f.depbar != 0 {
        for (i, x) in f.ins.iter().enumerate() {
            for (write, sb) in [(true, x.write_sb), (false, x.read_sb)] {
                if sb == NO_SB || f.depbar >> sb & 1 == 0 || (i == 0 && write) {
                    continue;
                }
                if write || x.op != UTMACMDFLUSH {
                    return None;
                }
                fixed.insert(producer(i, write), sb as usize);
            }
        }
    }
    let bid = f.blocks();
    let nb = bid.last().map_or(0, |&b| b + 1);
    let mut block_end = vec![0; nb];
    for (i, &b) in bid.iter().enumerate() {
        block_end[b] = i;
    }
    // Scoreboard-5 producers: loads not consumed in their block (their block and the block of
    // their first need reserve SB5 for them), ATOM/RED without destination.
    let mut escaping = BTreeSet::new();
    let mut reserved = BTreeSet::new();
    for &p in &prods {
        if !is_write(p) {
            continue;
        }
        let j = site(p);
        let x = &f.ins[j];
        if x.plain_load() {
            let mut k = j + 1;
            let mut escapes = true;
            while k < n && bid[k] == bid[j] {
                // (A `CALL` waits for it but does not consume it: `-r` pass.)
                if f.hazard(p, k, true) && !f.ins[k].is("CALL") {
                    escapes = false;
                    break;
                }
                k += 1;
            }
            if escapes {
                escaping.insert(j);
                reserved.insert(bid[j]);
            }
        }
        if x.atomic_no_dest() {
            reserved.insert(bid[j]);
        }
    }
    for &j in &escaping {
        let nj = need.get(&producer(j, true)).copied().unwrap_or(NEVER);
        if nj < n {
            reserved.insert(bid[nj]);
        }
    }
    let mut a = Allocation {
        f,
        need,
        bid,
        block_end,
        escaping,
        reserved,
        structural,
        out_states: vec![None; n],
        joined: BTreeMap::new(),
        assign: BTreeMap::new(),
        fixed,
        need_here: RefCell::new((BTreeMap::new(), NEED_BUDGET)),
    };
    let mut memo = BTreeMap::new();
    for i in f.reverse_post_order(&a.bid) {
        let x = &f.ins[i];
        let mut st: Pending = Default::default();
        for &j in &f.pred[i] {
            if let Some(s) = &a.out_states[j] {
                for b in 0..SBS {
                    st[b].extend(s[b].iter().copied());
                }
            }
        }
        f.release(i, &mut st);
        let mut w = 0u64;
        let mut wh = 0u64;
        let waits_here = kept.get(&i);
        for (b, qs) in st.iter().enumerate() {
            if qs
                .iter()
                .any(|&q| f.hazard(q, i, true) || waits_here.is_some_and(|s| s.contains(&q)))
            {
                w |= 1 << b;
            }
            if qs.iter().any(|&q| f.hazard(q, i, true)) {
                wh |= 1 << b;
            }
        }
        for (b, qs) in st.iter_mut().enumerate() {
            if w >> b & 1 == 0 {
                continue;
            }
            if x.collective {
                qs.retain(|&q| !(is_write(q) && f.ins[site(q)].defines_uniform()));
            } else {
                qs.clear();
            }
        }
        if !x.collective {
            let (fw, _) = f.flush(i, &st, &mut memo);
            let fw = fw & !w;
            let latch = f.succ[i]
                .iter()
                .any(|h| f.loops.get(h).is_some_and(|body| body[i]));
            w |= fw;
            for (b, qs) in st.iter_mut().enumerate() {
                if w >> b & 1 == 1 && !(latch && fw >> b & 1 == 1) {
                    qs.clear();
                }
            }
        }
        let blocked = w & !wh;
        let mut slots: [Slot; SBS] = Default::default();
        for (b, qs) in st.into_iter().enumerate() {
            if blocked >> b & 1 == 1 {
                slots[b].blocked = true;
            } else {
                slots[b].pending = qs;
            }
        }
        for write in [false, true] {
            let p = producer(i, write);
            if !a.need.contains_key(&p) {
                continue;
            }
            let b = a.choose(p, &slots)?;
            a.assign.insert(p, b);
            slots[b].pending.insert(p);
        }
        a.out_states[i] = Some(slots.map(|s| s.pending));
    }
    let (waits, pin) = place_waits(f, &a.assign, &kept);
    // A producer whose scoreboard, around a back edge, holds a later producer it did not join
    // waits that scoreboard at itself.
    let mut extra: BTreeMap<usize, BTreeSet<Producer>> = BTreeMap::new();
    for (&p, &b) in &a.assign {
        let Some((jb, joined)) = a.joined.get(&p) else {
            continue;
        };
        if *jb != b {
            continue;
        }
        let i = site(p);
        if let Some(Some(s)) = pin.get(i) {
            for &q in &s[b] {
                if !joined.contains(&q) && site(q) > i {
                    extra.entry(i).or_default().insert(q);
                }
            }
        }
    }
    let waits = if extra.is_empty() {
        waits
    } else {
        let mut s = kept.clone();
        for (i, v) in extra {
            s.entry(i).or_default().extend(v);
        }
        place_waits(f, &a.assign, &s).0
    };
    Some(
        (0..n)
            .map(|i| {
                (
                    a.assign
                        .get(&producer(i, true))
                        .map_or(NO_SB, |&b| b as u64),
                    a.assign
                        .get(&producer(i, false))
                        .map_or(NO_SB, |&b| b as u64),
                    waits[i],
                )
            })
            .collect(),
    )
}

/// Wait masks for an allocation (hazards on every path, the loop-entry flush, the structural
/// waits), and each instruction's entry state.
fn place_waits(
    f: &Function,
    assign: &BTreeMap<Producer, usize>,
    structural: &BTreeMap<usize, BTreeSet<Producer>>,
) -> (Vec<u64>, Vec<Option<Pending>>) {
    let n = f.n();
    let mut pin: Vec<Option<Pending>> = vec![None; n];
    let mut waits: Vec<u64> = f.ins.iter().map(|x| x.wait).collect();
    if n == 0 {
        return (waits, pin);
    }
    pin[0] = Some(Default::default());
    let mut work = vec![0];
    let mut memo = BTreeMap::new();
    while let Some(i) = work.pop() {
        let Some(mut st) = pin[i].clone() else {
            continue;
        };
        f.release(i, &mut st);
        let x = &f.ins[i];
        let mut need = 0u64;
        for (b, qs) in st.iter().enumerate() {
            if qs.iter().any(|&q| f.hazard(q, i, true)) {
                need |= 1 << b;
            }
        }
        let mut keep = 0u64;
        if !x.collective {
            let (fw, fk) = f.flush(i, &st, &mut memo);
            need |= fw;
            keep |= fk;
        }
        if let Some(s) = structural.get(&i) {
            for (b, qs) in st.iter().enumerate() {
                if qs.iter().any(|q| s.contains(q)) {
                    need |= 1 << b;
                }
            }
        }
        waits[i] = need;
        for (b, qs) in st.iter_mut().enumerate() {
            if need >> b & 1 == 0 {
                continue;
            }
            if x.collective {
                qs.retain(|&q| !(is_write(q) && f.ins[site(q)].defines_uniform()));
                continue;
            }
            if keep >> b & 1 == 1 {
                continue;
            }
            qs.clear();
        }
        for write in [true, false] {
            let p = producer(i, write);
            if let Some(&b) = assign.get(&p) {
                st[b].insert(p);
            }
        }
        f.flow(i, &st, &mut pin, &mut work);
    }
    (waits, pin)
}

/// What the pass does with the stack-pointer load that opens the function.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FirstLoad {
    /// Its write scoreboard goes (final links, [`reallocate`]).
    Dropped,
    /// It takes a write scoreboard like any other load (`-r` links, [`reallocate_relocatable`]).
    Scoreboarded,
}

/// The function's code with nvlink's scoreboards and wait masks, for a triggered function
/// (see the module documentation); `None` when it is not triggered or the pass gives up.
/// Only the write/read scoreboard and wait fields of the control words change.
pub fn reallocate(code: &[u8]) -> Option<Vec<u8>> {
    if !triggered(code) {
        return None;
    }
    rewrite(code, CALLS_INSIDE, FirstLoad::Dropped)
}

/// `CALL.REL.NOINC` and `RET`: accepted beyond [`VALIDATED`] (an `-ewp` kernel's call into
/// the internal function its own section holds, and that function's return; checked against
/// nvlink on 71 `-ewp` objects' `-r` links and the final links of their `-r` images).
const CALLS_INSIDE: &[u16] = &[0x944, 0x950];

/// What the relocatable pass accepts beyond [`VALIDATED`]: [`CALLS_INSIDE`], and `FFMA` with a
/// constant-bank operand (0x823), exact in the `-ewp` kernels of `-r` and `-g` links it was
/// checked on (notes `s19-sweepfix.md`).
const RELOCATABLE_EXTRA: &[u16] = &[0x823, 0x944, 0x950];

/// Whether `code` (a function's code, or just its start) opens with `LDC R1, c[0x0][0x37c]`
/// without a write scoreboard: the first condition of [`triggered_relocatable`].
pub fn opens_without_scoreboard(code: &[u8]) -> bool {
    let (Some(lo), Some(hi)) = (code.get(..8), code.get(8..16)) else {
        return false;
    };
    let lo = u64::from_le_bytes(lo.try_into().unwrap_or_default());
    let hi = u64::from_le_bytes(hi.try_into().unwrap_or_default());
    lo == LDC_R1.0 && hi & BODY_HI == LDC_R1.1 && hi >> 46 & 7 == NO_SB
}

/// Whether the function is one nvlink's `-r` link re-allocates (observed on sm_100 and sm_120
/// with `nvcc -ewp` objects, whose kernels ptxas compiles as whole programs; notes
/// `s19-weak100r.md`): it opens with `LDC R1, c[0x0][0x37c]` *without* a write scoreboard, no
/// other instruction reads or writes `R1`, and its code is not straight-line: it has a `CALL`
/// (which waits for everything), a branch other than the closing `BRA` to itself, or a guarded
/// `EXIT`. (Straight-line kernels keep ptxas's words: 14 of 14 in the survey, as ptxas's `-dc`
/// code for them has no scoreboard on the load either.)
pub fn triggered_relocatable(code: &[u8]) -> bool {
    let Some(w) = words(code) else {
        return false;
    };
    if !opens_without_scoreboard(code) {
        return false;
    }
    let r1 = Reg {
        kind: RegKind::R,
        num: 1,
    };
    let untouched = w.iter().skip(1).all(|&(lo, hi)| {
        def_use(lo, hi).is_some_and(|du| !du.defs.contains(&r1) && !du.uses.contains(&r1))
    });
    let n = w.len();
    let branching = w.iter().enumerate().any(|(i, &(lo, hi))| match lo & 0xfff {
        0x343 | 0x943 | 0x944 => true,
        0x947 | 0x547 => branch_target(lo, hi, i, n) != Some(Some(i)),
        0x94d => lo >> 12 & 0xf != 7,
        _ => false,
    });
    untouched && branching
}

/// The `-r` counterpart of [`reallocate`]: for a function [`triggered_relocatable`], nvlink gives
/// the stack-pointer load a write scoreboard and allocates the scoreboards again (what ptxas
/// writes for the same code with `-dc`: the load takes scoreboard 0, the other producers move
/// up). `None` when not triggered or the pass gives up.
pub fn reallocate_relocatable(code: &[u8]) -> Option<Vec<u8>> {
    if !triggered_relocatable(code) {
        return None;
    }
    rewrite(code, RELOCATABLE_EXTRA, FirstLoad::Scoreboarded)
}

/// Runs the pass on `code` and writes its scoreboards and wait masks into a copy.
fn rewrite(code: &[u8], extra: &[u16], first: FirstLoad) -> Option<Vec<u8>> {
    let w = words(code)?;
    if w.len() > MAX_INSNS {
        return None;
    }
    let f = Function::new(&w, extra)?;
    let words_out = run(&f, first)?;
    let mut out = code.to_vec();
    for (k, (&(_, hi), (ws, rs, wait))) in w.iter().zip(words_out).enumerate() {
        let field = (0x3f_u64 << 11 | 7 << 8 | 7 << 5) << 41;
        let hi = hi & !field | (wait << 11 | rs << 8 | ws << 5) << 41;
        out.get_mut(k * 16 + 8..k * 16 + 16)?
            .copy_from_slice(&hi.to_le_bytes());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::ElfFile;
    use crate::input::fatbin::Fatbin;

    use crate::corpus_file as corpus;

    fn texts(e: &ElfFile<'_>) -> Vec<(String, Vec<u8>)> {
        (0..e.sections().len() as u32)
            .filter_map(|i| {
                let name = String::from_utf8_lossy(e.section_name(i).ok()?).into_owned();
                let data = e.section_data(i).ok()?;
                name.starts_with(".text.").then(|| (name, data.to_vec()))
            })
            .collect()
    }

    fn controls(code: &[u8]) -> Vec<u64> {
        code.chunks_exact(16)
            .map(|c| u64::from_le_bytes(c[8..].try_into().unwrap()) >> 41)
            .collect()
    }

    /// (functions re-allocated exactly as nvlink did, triggered functions the pass gave up on)
    /// for the functions of `object` in the golden output of `case`; a triggered function the
    /// pass gets wrong fails the test.
    fn check(case: &str, object: &str) -> (usize, usize) {
        let (host, output) = (corpus(case, object), corpus(case, "expected.cubin"));
        // The device code of an `nvcc -dc` object: the cubin in its `__nv_relfatbin`.
        let host = ElfFile::parse(&host).unwrap();
        let fatbin = host
            .section_data(host.section_by_name(b"__nv_relfatbin").unwrap())
            .unwrap();
        let fatbin = Fatbin::parse(fatbin).unwrap();
        let cubin = fatbin.payload(0).unwrap();
        let (input, output) = (
            ElfFile::parse(&cubin).unwrap(),
            ElfFile::parse(&output).unwrap(),
        );
        let want: BTreeMap<String, Vec<u8>> = texts(&output).into_iter().collect();
        let (mut exact, mut left) = (0, 0);
        for (name, code) in texts(&input) {
            let Some(out) = want.get(&name) else {
                continue;
            };
            if !triggered(&code) {
                continue;
            }
            // The fence placeholders go first (as in the link).
            let code = match crate::link::fence_pads::plan(&code) {
                Some(p) => {
                    crate::link::fence_pads::rewrite_code(&code, &p)
                        .unwrap()
                        .bytes
                }
                None => code,
            };
            match reallocate(&code) {
                Some(new) => {
                    assert_eq!(controls(&new), controls(out), "{case} {name}");
                    exact += 1;
                }
                None => left += 1,
            }
        }
        (exact, left)
    }

    /// Model v14's rules, each on a kernel nvlink re-allocates: a constant load joining the
    /// scoreboard released first when all six are busy and needed later (`apply_filter`), first
    /// needs seen from the instruction being allocated (`r6_11`), a tie with an escaping load's
    /// scoreboard only after the free ones (`r5_2`).
    #[test]
    fn joins_and_ties_as_nvlink() {
        assert_eq!(check("sm100_scoreboard_join_all_busy", "filter.o"), (1, 0));
        assert_eq!(
            check("sm100_scoreboard_need_from_here", "branchy.o"),
            (1, 0)
        );
        assert_eq!(check("sm120_scoreboard_tie_escaping", "kernel.o"), (1, 0));
    }

    /// nvlink re-allocates this texture kernel (`gather1d`: `TEX.LL` 2D and `TLD.LZ`); the pass
    /// must reproduce nvlink's words (the decoder reads its `TEX.LL` by the hand-written rule).
    #[test]
    fn texture_kernel_as_nvlink() {
        assert_eq!(check("sm100_scoreboard_tex_gather", "texfn.o"), (1, 0));
    }

    #[test]
    fn sm120_kernel_as_nvlink() {
        assert_eq!(check("sm120_scoreboard_devrt_api", "alloc.o"), (1, 0));
    }

    /// The v13 rule: the second `LDG` joins scoreboard 0 (v12 took 2).
    #[test]
    fn load_joins_a_tie_outside_2_to_4() {
        assert_eq!(check("sm100_scoreboard_load_tie", "axpy.o"), (1, 0));
        assert_eq!(check("sm120_scoreboard_load_tie", "axpy.o"), (1, 0));
    }

    /// Kernels whose fence placeholders nvlink drops before allocating the scoreboards: a
    /// grid barrier (`reset_residual`) and a tile scan (`tile_scan`).
    #[test]
    fn placeholders_go_before_the_allocation() {
        assert_eq!(
            check("sm100_fence_placeholders_rescheduled", "grid.o"),
            (2, 0)
        );
        assert_eq!(
            check("sm120_fence_placeholders_rescheduled", "grid.o"),
            (2, 0)
        );
        // A `BSSY` whose label was on the first placeholder.
        for case in [
            "sm100_fence_placeholders_rescheduled_label",
            "sm120_fence_placeholders_rescheduled_label",
        ] {
            assert_eq!(check(case, "publish.o"), (1, 0));
        }
    }

    /// `clusterlaunchcontrol.try_cancel` (`UGETNEXTWORKID`, in an `ELECT` loop) in kernels whose
    /// fence placeholders go.
    #[test]
    fn work_requests_as_nvlink() {
        for case in [
            "sm100_ugetnextworkid_placeholders",
            "sm120_ugetnextworkid_placeholders",
        ] {
            assert_eq!(check(case, "clc.o"), (2, 0));
        }
    }

    /// Loads before an early return (a guarded `EXIT`) consumed after it escape their block:
    /// scoreboard 5 and their own read scoreboards (the lead model joined them on 2).
    #[test]
    fn loads_across_a_guarded_exit_escape() {
        assert_eq!(check("sm100_scoreboard_guarded_exit", "exits.o"), (2, 0));
        assert_eq!(check("sm120_scoreboard_guarded_exit", "exits.o"), (2, 0));
    }

    /// `ACQBULK`/`PREEXIT` (programmatic dependent launch) and `I2F` from 64-bit integers.
    #[test]
    fn dependent_launch_and_conversions_as_nvlink() {
        for arch in ["sm100", "sm120"] {
            assert_eq!(check(&format!("{arch}_scoreboard_pdl"), "pdl.o"), (2, 0));
            assert_eq!(
                check(&format!("{arch}_scoreboard_i2f_u64"), "cvt.o"),
                (4, 0)
            );
        }
    }

    /// Fresh p58's `tma_store` (`UTMACMDFLUSH` keeps scoreboard 0, which `DEPBAR.LE SB0, 0x0`
    /// names; `FENCE` after `MEMBAR`), p59's `scoped` (read scoreboards of atomics without
    /// destination) and p04's `apply_filter` on sm_120 (a constant load joins the scoreboard
    /// needed first after it).
    #[test]
    fn depbar_atomic_reads_and_later_joins_as_nvlink() {
        for arch in ["sm100", "sm120"] {
            let case = format!("{arch}_scoreboard_tma_store_flush");
            assert_eq!(check(&case, "tma.o"), (1, 0));
            let case = format!("{arch}_scoreboard_atomic_reads");
            assert_eq!(check(&case, "use.o"), (1, 0));
        }
        assert_eq!(
            check("sm120_scoreboard_const_join_after", "filter.o"),
            (1, 0)
        );
    }

    /// `UTMACMDFLUSH` keeps the scoreboard `DEPBAR.LE SB0, 0x0` names; any other producer
    /// there (here a write scoreboard) makes the pass give up.
    #[test]
    fn depbar_scoreboard_is_the_flush_reads_only() {
        // (low word, high word's body, control bits)
        let word = |lo: u64, body: u64, ctl: u64| {
            let mut w = [0u8; 16];
            w[..8].copy_from_slice(&lo.to_le_bytes());
            w[8..].copy_from_slice(&(body | ctl << 41).to_le_bytes());
            w
        };
        let none = 7 << 5 | 7 << 8;
        // LDC R1, c[0x0][0x37c] with write scoreboard 0 and no read scoreboard, as ptxas writes it.
        let ldc = word(LDC_R1.0, LDC_R1.1, 0x711);
        let depbar = word(DEPBAR_SB0_ZERO, 0, 4 | none);
        let exit = word(0x794d, 0x0380_0000, 5 | none);
        // UTMACMDFLUSH with read scoreboard 0, then with write scoreboard 0.
        let flush_read = word(0x79b7, 0, 1 | 7 << 5);
        let flush_write = word(0x79b7, 0, 1 | 7 << 8);
        let code = [ldc, flush_read, depbar, exit].concat();
        let new = reallocate(&code).expect("allocated");
        assert_eq!(controls(&new)[1] >> 8 & 7, 0);
        let code = [ldc, flush_write, depbar, exit].concat();
        assert!(triggered(&code));
        assert_eq!(reallocate(&code), None);
    }

    /// A kernel with a `CALL` (here into libcudadevrt) is not triggered.
    #[test]
    fn callers_are_left_alone() {
        assert_eq!(check("sm100_dynamic_parallelism", "dp.o"), (0, 0));
        assert_eq!(check("sm120_scoreboard_devrt_api", "query.o"), (0, 0));
    }

    fn ldc_r1(write_sb: u64) -> [u8; 16] {
        let hi = LDC_R1.1 | (0x71 | write_sb << 5) << 41;
        let mut w = [0; 16];
        w[..8].copy_from_slice(&LDC_R1.0.to_le_bytes());
        w[8..].copy_from_slice(&hi.to_le_bytes());
        w
    }

    fn exit() -> [u8; 16] {
        let mut w = [0; 16];
        w[..8].copy_from_slice(&0x794du64.to_le_bytes());
        w[8..].copy_from_slice(&(0x0380_0000u64 | 0xf << 41).to_le_bytes());
        w
    }

    #[test]
    fn the_stack_pointer_load_loses_its_scoreboard() {
        let code = [ldc_r1(0), exit()].concat();
        assert!(triggered(&code));
        let new = reallocate(&code).expect("triggered");
        assert_eq!(controls(&new)[0] >> 5 & 7, NO_SB);
        // Without a write scoreboard there is nothing to do.
        assert!(!triggered(&[ldc_r1(7), exit()].concat()));
    }

    /// A control word naming scoreboard 6 (there are six, 0-5; 7 is "none") is not ptxas's:
    /// the pass gives up instead of indexing past its scoreboards (found by the link fuzzer).
    #[test]
    fn scoreboard_six_is_declined() {
        let mut exit6 = exit();
        let hi = u64::from_le_bytes(exit6[8..].try_into().unwrap()) | 6 << 46;
        exit6[8..].copy_from_slice(&hi.to_le_bytes());
        for code in [[ldc_r1(6), exit()].concat(), [ldc_r1(0), exit6].concat()] {
            assert_eq!(reallocate(&code), None);
        }
    }

    /// The opcode list is searched by bisection.
    #[test]
    fn validated_opcodes_sorted() {
        assert!(VALIDATED.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn unknown_instructions_keep_the_input() {
        let mut odd = exit();
        odd[..8].copy_from_slice(&0x7fffu64.to_le_bytes());
        let code = [ldc_r1(0), odd, exit()].concat();
        assert!(!triggered(&code));
        assert_eq!(reallocate(&code), None);
        assert_eq!(reallocate(&code[..20]), None);
        assert_eq!(reallocate(&[]), None);
    }
}
