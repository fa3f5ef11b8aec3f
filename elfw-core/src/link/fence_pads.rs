//! sm_100+: what nvlink's finalizer changes in the code of a function: the fence placeholders
//! of relocatable compiles go, and the `EXIT`s of code not compiled with `-G` get the `-G` exit
//! fence.
//!
//! A relocatable compile (`nvcc -dc`) cannot see what surrounds a fence at run time, so before
//! every memory fence it leaves four never-executed shared loads (`@!PT LDS RZ, [RZ]`) and, before
//! a GPU- or system-scope `MEMBAR`, an extra `MEMBAR.ALL.CTA`. When nvlink finalizes a kernel that
//! calls nothing, it knows there is nothing in flight and drops them, as whole-program `ptxas`
//! does (observed on sm_100 and sm_120, 62 kernels: every memory fence, cluster barrier and
//! `__threadfence*` of a kernel without calls).
//!
//! `ptxas -g` puts `MEMBAR.SC.VC; ERRBAR; CGAERRBAR` before every `EXIT` and marks the object
//! with `EIATTR_GEN_ERRBAR_AT_EXIT`. A link with such an input, or under `-g`, gives every other
//! `EXIT` the same fence, under the `EXIT`'s guard (observed on sm_100, sm_103, sm_110, sm_120,
//! sm_121, final and `-r` links; never on sm_90 and older). Without `-g`, in a final link, a
//! kernel that calls nothing keeps only `ERRBAR; CGAERRBAR`, and `-G` kernels that call nothing
//! lose their `MEMBAR.SC.VC` too; under `-g` or `-r` nothing is dropped (placeholders neither).
//!
//! The code after each dropped or added instruction moves, so everything holding an offset into
//! the function follows: branch targets (a `BRX`'s displacement names the function's start),
//! the jump tables of its `BRX`s in `.nv.constant2.<f>` and their
//! `EIATTR_INDIRECT_BRANCH_TARGETS`, the instruction-offset lists of `.nv.info.<f>`,
//! relocation offsets and addends naming a place in it (return addresses), the symbol size (and
//! with it the `.debug_frame` range), the `.debug_frame` location steps, the trailing `NOP`
//! padding, the line-table rows and register ranges ([`super::lines`]) and the function's
//! capsule, whose expansion counts say how many SASS instructions each Mercury instruction
//! became (a fenced `EXIT` becomes stored in it), with the instructions its relocations patch
//! (constant-bank offsets of stored `LDC`s).
//!
//! A kernel whose first `LDC R1` carries a write barrier, touches `R1` nowhere else and calls
//! nothing is one whose scoreboards nvlink allocates again ([`super::sass::scoreboard`], run by
//! `rescore` on the code as rewritten here): it loses every placeholder, whatever else
//! it holds (observed: grid barriers, `fence.proxy.async`, bulk copies, `mbarrier` operations;
//! its `MEMBAR.ALL.CTA` of `fence.proxy.async` stays, and so does the one before a GPU- or
//! system-scope `MEMBAR` when the kernel holds an `mbarrier` operation anywhere), and the
//! scoreboards are allocated on the code without them (p02 `reset_residual`: the wait of the `MEMBAR.ALL.GPU` on the dropped
//! `MEMBAR.ALL.CTA` is gone from nvlink's words too).
//!
//! The rewrite is only done where it was seen to be exact; everywhere else the function is left
//! as it is: other kernels with an instruction outside the opcodes of [`PLAIN_OPCODES`]
//! (asynchronous copies and `mbarrier` operations keep some of the placeholders), re-scheduled
//! ones with `cp.async` (not seen), placeholders in code with line tables, inputs with
//! `.debug_ranges`. (Inputs of another SM of the same family, sm_100 into sm_103, lose the
//! placeholders the same way.)

use rustc_hash::FxHashMap;

use super::merc::MercWorld;
use super::sass::BODY_HI;
use super::state::{SecId, State, SymSection};
use super::{InputObject, LinkOptions};
use crate::arena::SymIdx;
use crate::mercury::MercKind;

/// One kernel whose placeholders went: its code section and the capsule that now describes it.
#[derive(Clone, Debug)]
pub struct Rewritten {
    /// The kernel's `.text.<f>`.
    pub text: SecId,
    /// The function's symbol.
    pub sym: SymIdx,
    /// Its new `.nv.capmerc.text.<f>` bytes.
    pub capsule: Vec<u8>,
    /// Per old instruction, the new offset where it (with any fence put before it) starts, or
    /// where the next kept one does when it was dropped, then the new size: where a
    /// line-table row or a register range bound at that old offset goes.
    pub rows: Vec<u64>,
}

impl Rewritten {
    /// Where a line-table address (an old offset into the function, or its old end) goes.
    pub fn row_address(&self, old: u64) -> Option<u64> {
        if old % 16 != 0 {
            return None;
        }
        self.rows.get(usize::try_from(old / 16).ok()?).copied()
    }
}

/// Opcodes (`lo & 0xfff`) of kernels in which nvlink was seen to drop the placeholders and
/// nothing else: arithmetic, plain loads and stores, atomics, shuffles, votes, textures and
/// surfaces, block and cluster barriers, fences and branches. `CALL` and `RET` are not among
/// them, nor are asynchronous copies or `mbarrier` operations. `STAS` (`st.async` into a peer
/// CTA, 0xdbd) is: a kernel of every `STAS` width followed by a `__threadfence` lost its
/// placeholders and its `MEMBAR.ALL.CTA` on sm_100 and sm_120 (corpus
/// `sm100/sm120_st_async_widths_fence`).
pub const PLAIN_OPCODES: &[u16] = &[
    0x202, 0x207, 0x208, 0x20b, 0x20c, 0x20f, 0x210, 0x211, 0x212, 0x216, 0x219, 0x220, 0x221,
    0x223, 0x224, 0x225, 0x227, 0x228, 0x229, 0x22a, 0x22b, 0x230, 0x231, 0x235, 0x23e, 0x240,
    0x245, 0x248, 0x254, 0x25a, 0x25e, 0x28c, 0x290, 0x291, 0x2a4, 0x2bd, 0x2bf, 0x2ca, 0x2cc,
    0x300, 0x301, 0x302, 0x304, 0x305, 0x306, 0x308, 0x309, 0x310, 0x311, 0x312, 0x31d, 0x348,
    0x352, 0x353, 0x355, 0x356, 0x387, 0x388, 0x389, 0x38a, 0x38b, 0x3a1, 0x3a9, 0x3c4, 0x402,
    0x407, 0x421, 0x423, 0x424, 0x429, 0x42a, 0x42b, 0x430, 0x431, 0x446, 0x4a4, 0x547, 0x589,
    0x5ab, 0x607, 0x7ac, 0x802, 0x803, 0x805, 0x806, 0x807, 0x808, 0x809, 0x80b, 0x80c, 0x810,
    0x811, 0x812, 0x816, 0x819, 0x81c, 0x820, 0x823, 0x824, 0x825, 0x827, 0x828, 0x82b, 0x831,
    0x835, 0x836, 0x848, 0x882, 0x886, 0x887, 0x88c, 0x890, 0x891, 0x892, 0x896, 0x897, 0x899,
    0x89c, 0x8a5, 0x8cb, 0x908, 0x918, 0x919, 0x91b, 0x941, 0x942, 0x945, 0x946, 0x947, 0x948,
    0x94d, 0x95c, 0x980, 0x981, 0x983, 0x984, 0x985, 0x986, 0x988, 0x989, 0x98a, 0x98c, 0x98f,
    0x992, 0x9a3, 0x9a8, 0x9ab, 0x9c3, 0x9c7, 0xb1d, 0xb82, 0xc02, 0xc0c, 0xc10, 0xc11, 0xc12,
    0xc20, 0xc23, 0xc24, 0xc27, 0xc28, 0xc35, 0xc36, 0xc45, 0xc48, 0xc82, 0xd00, 0xd06, 0xd08,
    0xd09, 0xd12, 0xdbd, 0xdc7, 0xe21, 0xe23, 0xe24, 0xf60, 0xf63, 0xf66, 0xf89, 0xf8c, 0xf99,
    0xf9d,
];

/// `@!PT LDS RZ, [RZ]` with its control word (no barrier, no wait): the placeholder.
const PAD: (u64, u64) = (0x0000_0000_ffff_f984, 0x000f_e200_0000_0800);
/// `LDC R1, c[0x0][0x37c]` (the kernel's stack pointer), control bits aside.
const LDC_R1: (u64, u64) = (0x0000_df00_ff01_7b82, 0x800);
const OP_MEMBAR: u64 = 0x992;
/// `FENCE.VIEW.ASYNC` (the proxy fence of `fence.proxy.async`).
const OP_FENCE_VIEW_ASYNC: u64 = 0x3c6;
/// `LDGSTS` and `LDGDEPBAR` (`cp.async`): kernels holding them keep some placeholders when
/// not re-scheduled, and were not seen re-scheduled.
const KEEPS_PADS: [u64; 2] = [0xfae, 0x9af];
/// `SYNCS.PHASECHK`, `SYNCS.EXCH`, `SYNCS.ARRIVE` (`mbarrier.try_wait`, `mbarrier.init`,
/// `mbarrier.arrive`).
const MBARRIER_OPS: [u64; 3] = [0x5a7, 0x5b2, 0x9a7];
const OP_NOP: u64 = 0x918;
const OP_EXIT: u64 = 0x94d;
/// `BRX` (a branch to a register plus the displacement: the function's start, the register
/// holding an entry of a jump table in the function's `.nv.constant2.<f>`).
const OP_BRX: u64 = 0x949;
/// `CALL.REL` with an immediate (a call inside the section: an `-ewp` kernel's internal
/// function).
const OP_CALL_REL: u64 = 0x944;
/// `RET` (`.REL`: a displacement to the function's start, as a `BRX`'s).
const OP_RET: u64 = 0x950;
/// `MOV` with a 32-bit immediate.
const OP_MOV: u64 = 0x802;
/// `EIATTR_INDIRECT_BRANCH_TARGETS`: per `BRX`, its offset, a zero word, the number of targets
/// and the targets.
const INDIRECT_BRANCH_TARGETS: u8 = 0x34;
/// `SUST` (surface store).
const OP_SUST: u64 = 0xf9d;
/// `EIATTR_EXIT_INSTR_OFFSETS`.
const EXIT_INSTR_OFFSETS: u8 = 0x1c;
/// `.nv.info` attributes that are plain lists of instruction offsets.
const OFFSET_LISTS: &[u8] = &[
    0x1c, 0x1d, 0x25, 0x27, 0x28, 0x2d, 0x31, 0x46, 0x47, 0x57, 0x59, 0x65,
];
/// `.nv.info` attributes that are lists of entries led by an instruction offset, and the words
/// of an entry: `EIATTR_ATOM16_EMUL_INSTR_REG_MAP` (offset, register),
/// `EIATTR_MBARRIER_INSTR_OFFSETS` (offset, register, immediate, kind and stride) and
/// `EIATTR_UNUSED_LOAD_BYTE_OFFSET` (offset, byte mask; a CUB select kernel, `-g` on sm_100).
/// Only the offsets move (observed).
const OFFSET_ENTRY_LISTS: &[(u8, usize)] = &[(0x2e, 2), (0x39, 4), (0x44, 2)];
/// `.nv.info` attributes that hold instruction offsets in some other form: a kernel with one is
/// left alone.
const OTHER_OFFSETS: &[u8] = &[0x3a, 0x40, 0x6a, 0x6c];

/// One SASS instruction: low and high 64-bit words.
type Insn = (u64, u64);

/// The stall count of an instruction's control bits.
fn stall(i: Insn) -> u64 {
    i.1 >> 41 & 0xf
}

fn control(i: Insn) -> u64 {
    i.1 >> 41
}
fn wait_mask(i: Insn) -> u64 {
    control(i) >> 11 & 0x3f
}
fn write_barrier(i: Insn) -> u64 {
    control(i) >> 5 & 7
}
fn read_barrier(i: Insn) -> u64 {
    control(i) >> 8 & 7
}
fn opcode(i: Insn) -> u64 {
    i.0 & 0xfff
}
/// The guard predicate field (bits 12..16).
fn guard(i: Insn) -> u64 {
    i.0 >> 12 & 0xf
}
fn is_membar(i: Insn) -> bool {
    opcode(i) == OP_MEMBAR
}
/// `MEMBAR.ALL.CTA` under any guard.
fn is_membar_all_cta(i: Insn) -> bool {
    i.0 & !0xf000 == 0x0992 && i.1 & BODY_HI == 0x8000
}
/// The scope of a `MEMBAR` (0 CTA, 2 GPU, 3 system).
fn membar_scope(i: Insn) -> u64 {
    i.1 >> 12 & 7
}

/// The branch displacement of a branching instruction (bytes from the next instruction).
fn branch(i: Insn) -> Option<i64> {
    match opcode(i) {
        // (`RET.REL` names the function's start: bit 85 clear; `RET.ABS` sets it.)
        OP_RET if i.1 >> 21 & 1 == 1 => None,
        0x947 | 0x547 | 0x348 | 0x948 | OP_BRX | OP_CALL_REL | OP_RET => {
            let w = i.0 as u128 | (i.1 as u128) << 64;
            let v = ((w >> 16) & 0xff) | ((w >> 34) & ((1 << 48) - 1)) << 8;
            Some(((v << 72) as i128 >> 72) as i64 * 4)
        }
        0x945 => Some((i.0 >> 32) as u32 as i32 as i64),
        _ => None,
    }
}

fn set_branch(i: &mut Insn, rel: i64) {
    if opcode(*i) == 0x945 {
        i.0 = (i.0 & 0xffff_ffff) | ((rel as u32 as u64) << 32);
        return;
    }
    let v = ((rel / 4) as u128) & ((1 << 56) - 1);
    let mut w = i.0 as u128 | (i.1 as u128) << 64;
    w &= !(0xff << 16);
    w &= !(((1u128 << 48) - 1) << 34);
    w |= (v & 0xff) << 16 | (v >> 8) << 34;
    i.0 = w as u64;
    i.1 = (w >> 64) as u64;
}

/// What goes from one kernel: which instructions, and which wait bits of the instructions that
/// waited on a dropped `MEMBAR.ALL.CTA`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Per instruction: dropped.
    pub dropped: Vec<bool>,
    /// (instruction, scoreboard) whose wait bit is cleared.
    pub unwait: Vec<(usize, u64)>,
    /// (instruction, instructions put right before it), by instruction: the exit fences.
    pub inserted: Vec<(usize, Vec<(u64, u64)>)>,
    /// Dropped `MEMBAR.SC.VC`s of exit fences that were there already (a branch to one lands
    /// on what follows it).
    pub trimmed: Vec<usize>,
}

fn decode(code: &[u8]) -> Option<Vec<Insn>> {
    if code.len() % 16 != 0 {
        return None;
    }
    Some(
        code.chunks_exact(16)
            .map(|c| {
                (
                    u64::from_le_bytes(c[..8].try_into().unwrap_or_default()),
                    u64::from_le_bytes(c[8..].try_into().unwrap_or_default()),
                )
            })
            .collect(),
    )
}

/// The placeholders nvlink drops from a kernel's SASS, or `None` when there are none or the
/// kernel is not one where the rule was seen to hold (see the module documentation).
pub fn plan(code: &[u8]) -> Option<Plan> {
    let ins = decode(code)?;
    let first = *ins.first()?;
    if first.0 != LDC_R1.0 || first.1 & BODY_HI != LDC_R1.1 {
        return None;
    }
    // A kernel whose stack-pointer load carries a write barrier loses them only when the
    // finalizer allocates its scoreboards again (it is triggered, see
    // [`super::sass::scoreboard`]): the pass runs on the code without them.
    let rescheduled = write_barrier(first) != 7;
    if rescheduled && !super::sass::scoreboard::triggered(code) {
        return None;
    }
    // There every placeholder goes, whatever else the kernel holds (observed: asynchronous
    // bulk copies, tensor-memory copies, `mbarrier` operations, `NANOSLEEP`), but kernels with
    // `cp.async` were not seen.
    let known = |i: Insn| {
        if rescheduled {
            !KEEPS_PADS.contains(&opcode(i))
        } else {
            PLAIN_OPCODES.binary_search(&(opcode(i) as u16)).is_ok()
        }
    };
    if !ins.iter().all(|&i| known(i)) {
        return None;
    }
    // In a re-scheduled kernel holding `mbarrier` operations, the `MEMBAR.ALL.CTA` before a
    // GPU- or system-scope `MEMBAR` stays (only its placeholders go), wherever the operations
    // are (observed on sm_100 and sm_120: `mbarrier.init` alone, even after the fence, keeps
    // it; `clusterlaunchcontrol.try_cancel` without them does not).
    let mbarrier = rescheduled && ins.iter().any(|&i| MBARRIER_OPS.contains(&opcode(i)));
    let mut dropped = vec![false; ins.len()];
    let mut unwait = Vec::new();
    for (k, &i) in ins.iter().enumerate() {
        if !is_membar(i) {
            continue;
        }
        let mut start = k;
        if is_membar_all_cta(i) {
            // In a re-scheduled kernel, a `MEMBAR.ALL.CTA` of `fence.proxy.async` (a
            // `FENCE.VIEW.ASYNC` follows) loses the placeholders before it and stays.
            let proxy = ins
                .get(k + 1)
                .is_some_and(|&n| opcode(n) == OP_FENCE_VIEW_ASYNC);
            if !rescheduled || !proxy {
                continue;
            }
        } else if membar_scope(i) != 0 && k > 0 && is_membar_all_cta(ins[k - 1]) && mbarrier {
            start = k - 1;
        } else if membar_scope(i) != 0 && k > 0 && is_membar_all_cta(ins[k - 1]) {
            let cta = ins[k - 1];
            if guard(cta) != guard(i) || write_barrier(cta) != 7 {
                return None;
            }
            let sb = read_barrier(cta);
            if sb != 7 {
                // The fence waited on it and no longer does. (Later waits on that board stay,
                // e.g. `CCTL.IVALL`'s wait on every board: observed.)
                if wait_mask(i) >> sb & 1 == 0 {
                    return None;
                }
                unwait.push((k, sb));
            }
            dropped[k - 1] = true;
            start = k - 1;
        } else if membar_scope(i) != 0 {
            continue;
        }
        while start > 0 && ins[start - 1] == PAD {
            start -= 1;
            dropped[start] = true;
        }
    }
    dropped.iter().any(|&d| d).then_some(Plan {
        dropped,
        unwait,
        inserted: Vec::new(),
        trimmed: Vec::new(),
    })
}

/// Whether and how the finalizer fences the `EXIT`s of code not compiled with `-G`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitFence {
    /// No input asks for it and no `-g`: nothing.
    Off,
    /// Some input carries `EIATTR_GEN_ERRBAR_AT_EXIT` (a `-G` object), no `-g`: the fence
    /// goes in, and a kernel without calls loses its `MEMBAR.SC.VC` as dead.
    Trimmed,
    /// `-g`: the whole fence everywhere, and no placeholder drop.
    Full,
}

/// `EIATTR_GEN_ERRBAR_AT_EXIT`: what `ptxas -g` writes into an object's `.nv.info`.
const GEN_ERRBAR_AT_EXIT: u8 = 0x53;

/// The mode of a link: `-g`, or an input whose `.nv.info` carries `EIATTR_GEN_ERRBAR_AT_EXIT`
/// (observed: that record alone turns it on, the `e_flags` debug bit does not; a `-G` object
/// whose functions are all dead still does).
pub fn exit_fence_mode(inputs: &[InputObject<'_>], opts: &LinkOptions) -> ExitFence {
    // (`-g -suppress-debug-info`: as without `-g`, observed on sm_100, final and `-r`, with
    // and without `-G` inputs.)
    if opts.debug {
        return ExitFence::Full;
    }
    let asks = |o: &InputObject<'_>| {
        let Some(i) = o.elf.section_by_name(b".nv.info") else {
            return false;
        };
        let Ok(d) = o.elf.section_data(i) else {
            return false;
        };
        crate::nvinfo::records(d)
            .map_while(Result::ok)
            .any(|r| r.attribute == GEN_ERRBAR_AT_EXIT)
    };
    if inputs.iter().any(asks) {
        ExitFence::Trimmed
    } else {
        ExitFence::Off
    }
}

/// `MEMBAR.SC.VC`, `ERRBAR`, `CGAERRBAR` with the control words the finalizer gives them
/// (guard `PT`; the `EXIT`'s guard goes into bits 12..16).
const FENCE: [(u64, u64); 3] = [
    (0x7992, 0x000f_c000_0000_5000),
    (0x79ab, 0x000f_c000_0000_0000),
    (0x75ab, 0x000f_ec00_0000_0000),
];
const OP_CGAERRBAR: u64 = 0x5ab;
/// The control bits (`hi >> 41`) of every instruction of code ptxas did not schedule
/// (`-O0`, `--Ofast-compile=max`): no stall, no barriers, no waits, no reuse. The
/// finalizer does not schedule such a function either: the fence it puts before an `EXIT`
/// keeps that control word on its `CGAERRBAR` too (observed on sm_100 and sm_120, final `-g`
/// links, also of such a function out of a `-r` image, where the object's tool arguments
/// are nvlink's: the finalizer goes by the function, not by the object).
const UNSCHEDULED: u64 = 0x7e0;
/// `CALL.ABS` / `CALL.REL`, with an immediate or a register.
const CALLS: [u64; 4] = [0x343, 0x344, 0x943, 0x944];

/// Exit fences put in, and `MEMBAR.SC.VC`s of fences already there that go.
pub type ExitFences = (Vec<(usize, Vec<(u64, u64)>)>, Vec<usize>);

/// The fences the finalizer puts before the `EXIT`s of one function (`None`: not one where the
/// rule was seen to hold). Every `EXIT` not already fenced (code compiled with `-G` is) gets
/// `MEMBAR.SC.VC; ERRBAR; CGAERRBAR` under its own guard; in [`ExitFence::Trimmed`] links a
/// kernel that calls nothing gets only the last two, and loses the `MEMBAR.SC.VC` of the
/// fences it had (`-G` code, observed). Kernels that may be re-scheduled (their first
/// `LDC R1` carries a write barrier, no calls) or hold an opcode outside [`PLAIN_OPCODES`] are
/// left out there, as is an `EXIT` under `!PT`. In code ptxas did not schedule the
/// `CGAERRBAR` has no stall either (`UNSCHEDULED`).
pub fn exit_fences(code: &[u8], kernel: bool, mode: ExitFence) -> Option<ExitFences> {
    let ins = decode(code)?;
    let calls = ins.iter().any(|&i| CALLS.contains(&opcode(i)));
    let whole = match mode {
        ExitFence::Off => return Some((Vec::new(), Vec::new())),
        ExitFence::Full => true,
        ExitFence::Trimmed => !kernel || calls,
    };
    if mode == ExitFence::Trimmed && kernel && !calls {
        let first = *ins.first()?;
        let ldc_r1 = first.0 == LDC_R1.0 && first.1 & BODY_HI == LDC_R1.1;
        if ldc_r1 && write_barrier(first) != 7 {
            return None;
        }
        if ins
            .iter()
            .any(|&i| PLAIN_OPCODES.binary_search(&(opcode(i) as u16)).is_err())
        {
            return None;
        }
    }
    // (The fence placeholders keep their own control word, at `-O0` too.)
    let unscheduled = ins
        .iter()
        .filter(|&&i| i != PAD)
        .all(|&i| control(i) == UNSCHEDULED);
    let mut out = Vec::new();
    let mut trimmed = Vec::new();
    for (k, &i) in ins.iter().enumerate() {
        if opcode(i) != OP_EXIT {
            continue;
        }
        let g = guard(i);
        if k > 0 && opcode(ins[k - 1]) == OP_CGAERRBAR {
            // Fenced already: in a kernel without calls its `MEMBAR.SC.VC` goes.
            let under = |at: usize, (lo, hi): (u64, u64)| {
                ins[at].0 == (lo & !0xf000) | g << 12 && ins[at].1 & BODY_HI == hi & BODY_HI
            };
            if !whole && k >= 3 && under(k - 3, FENCE[0]) && under(k - 2, FENCE[1]) {
                trimmed.push(k - 3);
            }
            continue;
        }
        stored_exit(g)?;
        let seq = if whole { &FENCE[..] } else { &FENCE[1..] };
        out.push((
            k,
            seq.iter()
                .map(|&(lo, hi)| {
                    let hi = if unscheduled {
                        hi & !(0x7f_ffff << 41) | UNSCHEDULED << 41
                    } else {
                        hi
                    };
                    ((lo & !0xf000) | g << 12, hi)
                })
                .collect(),
        ));
    }
    Some((out, trimmed))
}

/// What the finalizer does to one function's code: the placeholders of kernels go (not under
/// `-g`), and its `EXIT`s get their fences. `None`: nothing, or not a function where the rules
/// were seen to hold.
pub fn plan_function(code: &[u8], kernel: bool, mode: ExitFence) -> Option<Plan> {
    let (inserted, trimmed) = exit_fences(code, kernel, mode)?;
    let drops = if kernel && mode != ExitFence::Full {
        plan(code)
    } else {
        None
    };
    let mut p = match drops {
        Some(p) => p,
        None if inserted.is_empty() && trimmed.is_empty() => return None,
        None => Plan {
            dropped: vec![false; code.len() / 16],
            unwait: Vec::new(),
            inserted: Vec::new(),
            trimmed: Vec::new(),
        },
    };
    for &k in &trimmed {
        *p.dropped.get_mut(k)? = true;
    }
    p.inserted = inserted;
    p.trimmed = trimmed;
    Some(p)
}

/// A kernel's code after the rewrite, with the maps from old instruction index (0..=count) to
/// new one.
#[derive(Clone, Debug)]
pub struct NewCode {
    /// The new section bytes.
    pub bytes: Vec<u8>,
    /// Old instruction index → new index of that instruction, for every index up to and
    /// including the old count (the end). Indices of the trailing padding map past the new
    /// code's last instruction.
    pub index: Vec<usize>,
    /// Old instruction index → new index of the first instruction put before it (its own new
    /// index when nothing was): where a branch to it now lands.
    pub start: Vec<usize>,
    /// Index of the last instruction before the padding (the closing self-branch), old code.
    pub last: usize,
}

/// Drops the planned instructions, puts the planned ones in, moves branch targets, clears the
/// planned wait bits and pads the code with `NOP`s as the finalizer does: to a multiple of 128
/// bytes, at least 128 bytes of them (observed on every kernel here).
pub fn rewrite_code(code: &[u8], plan: &Plan) -> Option<NewCode> {
    let ins = decode(code)?;
    let last = ins.iter().rposition(|&i| opcode(i) != OP_NOP)?;
    let nop = *ins.get(last + 1)?;
    if plan.dropped.len() != ins.len() || plan.dropped[last + 1..].iter().any(|&d| d) {
        return None;
    }
    let mut added = vec![0usize; ins.len()];
    for (k, more) in &plan.inserted {
        if *k > last || plan.dropped[*k] {
            return None;
        }
        added[*k] += more.len();
    }
    let (mut index, mut start) = (Vec::with_capacity(ins.len() + 1), Vec::new());
    let mut n = 0;
    for (&dropped, &more) in plan.dropped.iter().zip(&added) {
        start.push(n);
        if !dropped {
            n += more;
        }
        index.push(n);
        if !dropped {
            n += 1;
        }
    }
    // The end.
    start.push(n);
    index.push(n);
    let mut out: Vec<Insn> = Vec::with_capacity(n);
    for k in 0..=last {
        if plan.dropped[k] {
            continue;
        }
        for (_, more) in plan.inserted.iter().filter(|(at, _)| *at == k) {
            out.extend_from_slice(more);
        }
        let mut i = ins[k];
        if let Some(rel) = branch(i) {
            let target = (k as i64 + 1).checked_add(rel / 16)?;
            // A `BRX` adds a jump table's entry to the function's start (all seen), a
            // `RET.REL` the return address.
            if matches!(opcode(i), OP_BRX | OP_RET) && target != 0 {
                return None;
            }
            let t = usize::try_from(target).ok().filter(|&t| t <= ins.len())?;
            // A target on a dropped placeholder lands on what follows the run (observed: a
            // `BSSY` whose reconvergence label is on the first placeholder, p58 `tma_store`).
            let dropped = plan.dropped.get(t).copied().unwrap_or(false);
            let pad = dropped && ins.get(t) == Some(&PAD);
            if rel % 16 != 0 || (dropped && !pad && !plan.trimmed.contains(&t)) {
                return None;
            }
            let moved = (start[t] as i64 - index[k] as i64 - 1) * 16;
            set_branch(&mut i, moved);
            if branch(i) != Some(moved) {
                return None;
            }
        }
        // The return address a `MOV` puts into a register for the next `CALL.REL` (an `-ewp`
        // kernel's internal function returns with `RET.REL` to the function's start plus
        // it) follows the instruction after the call.
        if opcode(i) == OP_MOV && guard(i) == 7 && i.1 >> 8 & 0xf == 0xf {
            let call = ins[k + 1..=last]
                .iter()
                .position(|&j| opcode(j) == OP_CALL_REL)
                .map(|c| k + 1 + c);
            if let Some(c) = call.filter(|&c| (i.0 >> 32) as usize == (c + 1) * 16) {
                let to = u32::try_from(start[c + 1] * 16).ok()?;
                i.0 = (i.0 & 0xffff_ffff) | u64::from(to) << 32;
            }
        }
        for &(at, sb) in &plan.unwait {
            if at == k {
                i.1 &= !(1u64 << (41 + 11 + sb));
            }
        }
        // A surface store right before a fence put in stalls one cycle, not two (observed:
        // `SUST` before a fenced `EXIT`, `-g` on sm_100; every other instruction seen there,
        // 21 opcodes, keeps its stall).
        let fenced_next = plan.inserted.iter().any(|(at, _)| *at == k + 1);
        if fenced_next && opcode(i) == OP_SUST && stall(i) == 2 {
            i.1 = (i.1 & !(0xf << 41)) | 1 << 41;
        }
        out.push(i);
    }
    let size = (out.len() * 16 + 128).div_ceil(128) * 128;
    while out.len() * 16 < size {
        out.push(nop);
    }
    let bytes = out
        .iter()
        .flat_map(|&(lo, hi)| lo.to_le_bytes().into_iter().chain(hi.to_le_bytes()))
        .collect();
    Some(NewCode {
        bytes,
        index,
        start,
        last,
    })
}

/// One piece of a capsule's instruction stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    /// A stored instruction (16 or 32 bytes, or a 4-byte short record) at this offset.
    Insn(usize, usize),
    /// A 2-byte expansion item at this offset: the next Mercury instruction (type 0x51), or the
    /// closing one (0x50), became `value >> 7` SASS instructions.
    Count(usize),
}

/// One Mercury instruction of a capsule.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Its first SASS instruction.
    first: usize,
    /// How many SASS instructions it became.
    count: usize,
    /// The piece holding its expansion item, if any.
    item: Option<usize>,
    /// Not stored in the capsule (its bitmap bit is set).
    omitted: bool,
    /// The piece where its own pieces start (or would start, when omitted).
    at: usize,
}

/// A capsule's pieces and its Mercury instructions. Grammar (held on all 926 capsules of the
/// corpus and the experiments): after the header and bitmap, `01` starts a 16-byte
/// instruction, `02` a 32-byte one, a byte whose low 7 bits are 0x50 or 0x51 a 2-byte expansion
/// item, anything else a 4-byte record. A stored Mercury instruction is its items then its
/// record, or only an item of type 0x50.
fn capsule_map(cap: &[u8]) -> Option<(usize, Vec<Piece>, Vec<Slot>)> {
    let h = crate::mercury::capsule_header(cap).ok()?;
    let slots = h.slots as usize;
    let bitmap = cap.get(12..12 + slots.div_ceil(8))?;
    let omitted = |i: usize| bitmap[i / 8] >> (i % 8) & 1 == 1;
    let start = 12 + slots.div_ceil(8).div_ceil(4) * 4;
    let mut pieces = Vec::new();
    let mut at = start;
    while at < cap.len() {
        let b = cap[at];
        let len = match b {
            1 => 16,
            2 => 32,
            _ if b & 0x7f == 0x50 || b & 0x7f == 0x51 => 2,
            _ => 4,
        };
        if at + len > cap.len() {
            return None;
        }
        pieces.push(if len == 2 {
            Piece::Count(at)
        } else {
            Piece::Insn(at, len)
        });
        at += len;
    }
    let mut map = Vec::with_capacity(slots);
    let mut p = 0;
    let mut sass = 0;
    for i in 0..slots {
        if omitted(i) {
            map.push(Slot {
                first: sass,
                count: 1,
                item: None,
                omitted: true,
                at: p,
            });
            sass += 1;
            continue;
        }
        let here = p;
        let mut item = None;
        while let Some(Piece::Count(o)) = pieces.get(p) {
            item = Some((p, *o));
            p += 1;
        }
        // An item of type 0x50 before the closing instruction stands for a whole Mercury
        // instruction the capsule does not store (observed: `d0 00` in WMMA `ldmatrix` kernels,
        // sm_100).
        let whole = item.is_some_and(|(_, o)| cap[o] & 0x7f == 0x50);
        if i + 1 < slots && !whole {
            match pieces.get(p) {
                Some(Piece::Insn(..)) => p += 1,
                _ => return None,
            }
        }
        let n = match item {
            Some((_, o)) => (u16::from_le_bytes([cap[o], cap[o + 1]]) >> 7) as usize,
            None => 1,
        };
        map.push(Slot {
            first: sass,
            count: n,
            item: item.map(|(k, _)| k),
            omitted: false,
            at: here,
        });
        sass += n;
    }
    (p == pieces.len()).then_some((start, pieces, map))
}

/// The capsule form of an `EXIT` under the given guard (the field of the SASS instruction:
/// predicate in the low three bits, negation above): stored when the finalizer puts a fence
/// before it. The capsule names the predicate in bits 3–7 (`PT` as 31) and the negation in bit
/// 0 (observed for `PT`, `P0`, `!P0` and `P1`).
fn stored_exit(guard: u64) -> Option<[u8; 16]> {
    let (p, negated) = (guard & 7, guard >> 3 & 1);
    let g = match (p, negated) {
        (7, 0) => 0xf8,
        (7, _) => return None,
        (p, n) => (p << 3 | n) as u8,
    };
    Some([1, 0x11, 0, 0x0a, g, 0, 0, 0, 0, 0, 0, 0xf8, 0, 0, 0, 0])
}

/// The kernel's capsule after the rewrite: the expansion count of each Mercury instruction that
/// lost or gained SASS instructions changes (the item goes when the count becomes 1; an `EXIT`
/// that gains its fence becomes stored, with an item), and the closing instruction's count
/// becomes the new self-branch-and-padding length.
pub fn rewrite_capsule(cap: &[u8], code: &[u8], plan: &Plan, new: &NewCode) -> Option<Vec<u8>> {
    let (start, pieces, map) = capsule_map(cap)?;
    let code = decode(code)?;
    let total: usize = map.iter().map(|m| m.count).sum();
    if total != plan.dropped.len() {
        return None;
    }
    let new_count = new.bytes.len() / 16;
    let mut counts: FxHashMap<usize, usize> = FxHashMap::default();
    // (piece before which, slot, bytes): slots that become stored.
    let mut stored: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for (k, m) in map.iter().enumerate() {
        let range = m.first..m.first + m.count;
        let gone = plan.dropped[range.clone()].iter().filter(|&&d| d).count();
        let added: usize = plan
            .inserted
            .iter()
            .filter(|(at, _)| range.contains(at))
            .map(|(_, more)| more.len())
            .sum();
        if k + 1 == map.len() {
            if gone != 0 || added != 0 || m.first != new.last {
                return None;
            }
            counts.insert(m.item?, new_count - new.index[m.first]);
        } else if gone != 0 || added != 0 {
            let left = (m.count + added)
                .checked_sub(gone)
                .filter(|l| (1..1 << 9).contains(l))?;
            match m.item {
                Some(item) => {
                    counts.insert(item, left);
                }
                None => {
                    // Only an omitted `EXIT` gains instructions without an item.
                    let exit = *code.get(m.first)?;
                    if !m.omitted || m.count != 1 || opcode(exit) != OP_EXIT || left == 1 {
                        return None;
                    }
                    let mut b = ((left as u16) << 7 | 0x51).to_le_bytes().to_vec();
                    b.extend_from_slice(&stored_exit(guard(exit))?);
                    stored.push((m.at, k, b));
                }
            }
        }
    }
    let mut out = cap[..start].to_vec();
    for &(_, slot, _) in &stored {
        out[12 + slot / 8] &= !(1 << (slot % 8));
    }
    for (k, piece) in pieces.iter().enumerate() {
        for (_, _, b) in stored.iter().filter(|s| s.0 == k) {
            out.extend_from_slice(b);
        }
        match *piece {
            Piece::Insn(o, len) => out.extend_from_slice(&cap[o..o + len]),
            Piece::Count(o) => {
                let old = u16::from_le_bytes([cap[o], cap[o + 1]]);
                match counts.get(&k) {
                    None => out.extend_from_slice(&cap[o..o + 2]),
                    Some(&1) if k + 1 != pieces.len() => {}
                    Some(&n) => {
                        let v = u16::try_from(n).ok().filter(|&v| v < 1 << 9)?;
                        out.extend_from_slice(&(v << 7 | (old & 0x7f)).to_le_bytes());
                    }
                }
            }
        }
    }
    if stored.iter().any(|s| s.0 >= pieces.len()) {
        return None;
    }
    Some(out)
}

fn uleb(d: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *d.get(*at)?;
        *at += 1;
        if shift < 64 {
            v |= ((b & 0x7f) as u64) << shift;
        }
        shift += 7;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
}

/// A frame description's call-frame program with its location steps moved: `move_to` maps an
/// old code offset to the new one (`None` when it fell on a dropped instruction). Steps keep
/// their encoding; a program with an operation this does not know is not rewritten.
pub fn rewrite_cfa(
    prog: &[u8],
    code_align: u64,
    move_to: impl Fn(u64) -> Option<u64>,
) -> Option<Vec<u8>> {
    // (A damaged CIE's code alignment of 0 gives no steps to move.)
    if code_align == 0 {
        return None;
    }
    let mut out = prog.to_vec();
    let (mut old, mut new) = (0u64, 0u64);
    let mut at = 0;
    while at < prog.len() {
        let op = prog[at];
        let here = at;
        at += 1;
        let step = |width: usize, at: &mut usize| -> Option<(usize, u64)> {
            let b = prog.get(*at..*at + width)?;
            let mut v = [0u8; 8];
            v[..width].copy_from_slice(b);
            *at += width;
            Some((width, u64::from_le_bytes(v)))
        };
        let adv = match op {
            0x40..=0x7f => Some((0, (op & 0x3f) as u64)),
            0x02 => Some(step(1, &mut at)?),
            0x03 => Some(step(2, &mut at)?),
            0x04 => Some(step(4, &mut at)?),
            0x00 | 0x0a | 0x0b | 0xc0..=0xff => None,
            0x80..=0xbf | 0x06 | 0x07 | 0x08 | 0x0d | 0x0e => {
                // (DW_CFA_offset's register is in the opcode: one operand.)
                uleb(prog, &mut at)?;
                None
            }
            0x05 | 0x09 | 0x0c | 0x14 => {
                uleb(prog, &mut at)?;
                uleb(prog, &mut at)?;
                None
            }
            _ => return None,
        };
        let Some((width, delta)) = adv else {
            continue;
        };
        old = old.checked_add(delta.checked_mul(code_align)?)?;
        let to = move_to(old)?;
        let d = to.checked_sub(new)?;
        if d % code_align != 0 {
            return None;
        }
        let d = d / code_align;
        match width {
            0 => {
                if d > 0x3f {
                    return None;
                }
                out[here] = 0x40 | d as u8;
            }
            w => {
                if w < 8 && d >> (8 * w) != 0 {
                    return None;
                }
                out[here + 1..here + 1 + w].copy_from_slice(&d.to_le_bytes()[..w]);
            }
        }
        new = to;
    }
    Some(out)
}

/// The code alignment factor of the CIE an FDE of a `.debug_frame` block names (its CIE
/// pointer, an offset into the block as the input wrote it); when no CIE sits there, that of
/// every CIE of the block, when they agree. (A `-r` image whose link rebuilt a weak function's
/// frame holds the Mercury CIE, code alignment 1, beside the SASS ones, 4.)
fn fde_code_align(
    block: &[u8],
    entries: &[crate::mercury::FrameEntry],
    fde: &crate::mercury::FrameEntry,
) -> Option<u64> {
    let own = entries
        .iter()
        .find(|c| c.is_cie() && c.length_size == 12 && c.offset as u64 == fde.cie_pointer);
    match own {
        Some(c) => crate::mercury::cie_code_align(block.get(c.offset..c.offset + c.size)?),
        None => code_align(block),
    }
}

/// The code alignment factor of every CIE in a `.debug_frame` block, when they agree.
fn code_align(block: &[u8]) -> Option<u64> {
    let entries = crate::mercury::frame_entries(block).ok()?;
    let mut found = None;
    for e in entries.iter().filter(|e| e.is_cie()) {
        let id_size = if e.length_size == 12 { 8 } else { 4 };
        let mut at = e.offset + e.length_size + id_size;
        let version = *block.get(at)?;
        at += 1;
        if *block.get(at)? != 0 {
            return None;
        }
        at += 1;
        if version >= 4 {
            at += 2;
        }
        let a = uleb(block, &mut at)?;
        if found.is_some_and(|f| f != a) {
            return None;
        }
        found = Some(a);
    }
    found
}

/// Drops the placeholders from every kernel where the rule holds (see the module documentation)
/// and moves what follows them. Returns the rewritten kernels, whose capsules
/// [`patch_capsules`] puts into the Mercury world.
pub fn drop_placeholders(
    st: &mut State<'_>,
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
) -> Vec<Rewritten> {
    let mut done = Vec::new();
    if !opts.target.is_mercury() {
        return done;
    }
    let mode = match exit_fence_mode(inputs, opts) {
        // `-r` keeps the placeholders but fences the exits, whole (observed).
        _ if !opts.relocatable => exit_fence_mode(inputs, opts),
        ExitFence::Off => return done,
        _ => ExitFence::Full,
    };
    let functions: Vec<_> = st
        .functions
        .iter()
        .filter(|f| !f.dead && (f.is_entry || mode != ExitFence::Off))
        .filter_map(|f| Some((f.sym?, f.is_entry)))
        .collect();
    for (sym, kernel) in functions {
        let s = st.sym(sym).record();
        let SymSection::Section(text) = s.section else {
            continue;
        };
        // A function inside another's section (an `-ewp` kernel's internal function) is
        // rewritten with the section's own function.
        if s.value != 0 {
            continue;
        }
        if let Some(r) = rewrite_kernel(st, inputs, text, sym, kernel, mode) {
            done.push(r);
        }
    }
    done
}

fn rewrite_kernel(
    st: &mut State<'_>,
    inputs: &[InputObject<'_>],
    text: SecId,
    sym: SymIdx,
    kernel: bool,
    mode: ExitFence,
) -> Option<Rewritten> {
    let nodes: Vec<_> = st.nodes_of(text).map(|n| n.record()).collect();
    let [node] = nodes.as_slice() else {
        return None;
    };
    let code = node.data?;
    let obj = inputs.get(node.input)?;
    let name = st.sec(text).name();
    let f = name.strip_prefix(".text.")?;
    let plan = plan_function(code, kernel, mode)?;
    // Line tables follow fences put in (observed, `-lineinfo`), not dropped placeholders (not
    // observed); `-G` code is not rewritten.
    let pads = plan.dropped.iter().filter(|&&d| d).count() > plan.trimmed.len();
    let has = |name: &[u8]| obj.elf.section_by_name(name).is_some();
    let lines = has(b".debug_line") || has(b".nv_debug_line_sass") || has(b".debug_info");
    if has(b".debug_ranges") || (pads && lines) {
        return None;
    }
    let new = rewrite_code(code, &plan)?;
    let old_size = code.len() as u64;
    let new_size = new.bytes.len() as u64;
    // Where an old offset into the kernel goes (`None`: a dropped instruction, or not on an
    // instruction boundary).
    let move_to = |off: u64| -> Option<u64> {
        if off == old_size {
            return Some(new_size);
        }
        let k = usize::try_from(off / 16).ok()?;
        if off % 16 != 0 || *plan.dropped.get(k)? || new.start[k] != new.index[k] {
            return None;
        }
        Some(new.index[k] as u64 * 16)
    };
    // A call-frame location or a return address on a fenced `EXIT` goes to its fence
    // (observed for the call-frame step to a kernel's `EXIT`: it stays, the next one grows);
    // one on a trimmed `MEMBAR.SC.VC` to what followed it.
    let move_frame = |off: u64| -> Option<u64> {
        if off == old_size {
            return Some(new_size);
        }
        let k = usize::try_from(off / 16).ok()?;
        if off % 16 != 0 || (*plan.dropped.get(k)? && !plan.trimmed.contains(&k)) {
            return None;
        }
        Some(new.start[k] as u64 * 16)
    };
    // `EXIT_INSTR_OFFSETS` name the `EXIT` itself, after its fence (observed).
    let move_exit = |off: u64| -> Option<u64> {
        let k = usize::try_from(off / 16).ok()?;
        if off % 16 != 0 || *plan.dropped.get(k)? || k > new.last {
            return None;
        }
        Some(new.index[k] as u64 * 16)
    };
    let move_inside = |off: u64| -> Option<u64> {
        let k = usize::try_from(off / 16).ok()?;
        if k > new.last || *plan.dropped.get(k)? {
            return None;
        }
        Some(new.index[k] as u64 * 16 + off % 16)
    };
    // The capsule.
    let cap_name = format!(".nv.capmerc.text.{f}");
    let cap_index = obj.elf.section_by_name(cap_name.as_bytes())?;
    let cap = obj.elf.section_data(cap_index).ok()?;
    let capsule = rewrite_capsule(cap, code, &plan, &new)?;
    // Relocations into the kernel, and those naming a place in it (a call's return address:
    // the function's symbol plus an offset, observed moving with the code).
    let mut relocs = Vec::new();
    let mut addends = Vec::new();
    for (k, r) in st.relocs.iter().enumerate() {
        if r.dropped {
            continue;
        }
        if r.target == text {
            relocs.push((k, move_inside(r.offset)?));
        }
        let names_it = r.sym.is_some_and(|x| {
            let x = st.sym(x);
            x.section() == SymSection::Section(text) && x.value() == 0
        });
        if names_it && r.addend != 0 {
            let to = move_frame(u64::try_from(r.addend).ok()?)?;
            addends.push((k, i64::try_from(to).ok()?));
        }
    }
    // Symbols in the kernel's section.
    let mut syms = Vec::new();
    for (global, table) in [(false, &st.locals), (true, &st.globals)] {
        for (pos, x) in table.iter().enumerate().skip(1) {
            if x.removed() || x.section() != SymSection::Section(text) {
                continue;
            }
            // (A function symbol names its first instruction, fence or not.)
            let value = if x.value() == 0 {
                0
            } else {
                move_to(x.value())?
            };
            // (An `-ewp` kernel's internal functions follow the kernel's code: each ends
            // where the next starts, or at the section's end; a fence belongs to the
            // `EXIT` after it.)
            let size = if x.size() == 0 {
                0
            } else {
                move_frame(x.value().checked_add(x.size())?)?.checked_sub(value)?
            };
            syms.push((global, pos, value, size));
        }
    }
    // The kernel's `.nv.info.<f>` records.
    let info = st.section_of_code(&format!(".nv.info.{f}"), text);
    let mut payloads: Vec<(u8, usize, &[u8])> = Vec::new();
    // The jump tables of its `BRX`s: (old targets, new targets).
    let mut tables: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    if let Some(info) = info {
        let lists = [
            st.section_info.get(&info),
            st.section_info_tail.get(&info),
            st.sass_info_tail.get(&info),
        ];
        for (which, list) in lists.iter().enumerate() {
            for (k, rec) in list.iter().flat_map(|l| l.iter()).enumerate() {
                if rec.dropped {
                    continue;
                }
                if OTHER_OFFSETS.contains(&rec.attr) {
                    return None;
                }
                if rec.attr == INDIRECT_BRANCH_TARGETS {
                    if rec.format != 0x04 {
                        return None;
                    }
                    let p = move_jump_targets(rec.payload, &move_to, &move_frame, &mut tables)?;
                    payloads.push((which as u8, k, st.bump.alloc_slice_copy(&p)));
                    continue;
                }
                let words = match OFFSET_ENTRY_LISTS.iter().find(|(a, _)| *a == rec.attr) {
                    Some(&(_, words)) => words,
                    None if OFFSET_LISTS.contains(&rec.attr) => 1,
                    None => continue,
                };
                if rec.format != 0x04 || rec.payload.len() % (4 * words) != 0 {
                    return None;
                }
                let mut p = Vec::with_capacity(rec.payload.len());
                for (n, c) in rec.payload.chunks_exact(4).enumerate() {
                    let off = u32::from_le_bytes(c.try_into().ok()?) as u64;
                    if n % words != 0 {
                        // The rest of the entry.
                        p.extend_from_slice(c);
                        continue;
                    }
                    let to = if rec.attr == EXIT_INSTR_OFFSETS {
                        move_exit(off)?
                    } else {
                        move_to(off)?
                    };
                    p.extend_from_slice(&u32::try_from(to).ok()?.to_le_bytes());
                }
                payloads.push((which as u8, k, st.bump.alloc_slice_copy(&p)));
            }
        }
    }
    // The jump tables in the function's `.nv.constant2.<f>`: each holds the targets of one
    // `BRX` in the order `EIATTR_INDIRECT_BRANCH_TARGETS` lists them (observed), function
    // offsets, moved like branch targets; the Mercury copy stays.
    let mut bank2 = None;
    if !tables.is_empty() {
        let c2 = st.section_of_code(&format!(".nv.constant2.{f}"), text)?;
        let c2_nodes: Vec<_> = st.nodes_of(c2).map(|n| n.record()).collect();
        let [c2_node] = c2_nodes.as_slice() else {
            return None;
        };
        if st.relocs.iter().any(|r| !r.dropped && r.target == c2) {
            return None;
        }
        let mut b = c2_node.data?.to_vec();
        let old_words: Vec<u32> = b
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        for (old, new) in &tables {
            let n = old.len();
            let at: Vec<usize> = (0..old_words.len().saturating_sub(n - 1))
                .filter(|&p| old_words[p..p + n] == old[..])
                .collect();
            if at.is_empty() {
                return None;
            }
            for p in at {
                for (j, w) in new.iter().enumerate() {
                    b[(p + j) * 4..(p + j) * 4 + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
        bank2 = Some((c2, b));
    }
    // The kernel's `.debug_frame` entries (its own, and those of the internal functions of an
    // `-ewp` kernel, which name the kernel's symbol plus their offset): their location steps
    // and ranges.
    let mut frame: Vec<(SecId, usize, Vec<u8>)> = Vec::new();
    if let Some(df) = st.section_by_name(".debug_frame") {
        let locs: Vec<(u64, i64)> = st
            .relocs
            .iter()
            .filter(|r| r.target == df && !r.dropped && r.sym == Some(sym) && r.r_type == 2)
            .map(|r| (r.offset, r.addend))
            .collect();
        let frame_nodes: Vec<_> = st.nodes_of(df).map(|n| n.record()).collect();
        for (k, n) in frame_nodes.iter().enumerate() {
            let Some(block) = n.data else { continue };
            let entries = crate::mercury::frame_entries(block).ok()?;
            let mut b: Option<Vec<u8>> = None;
            for e in entries.iter().filter(|e| !e.is_cie()) {
                let id_size = if e.length_size == 12 { 8 } else { 4 };
                let loc = e.offset + e.length_size + id_size;
                let Some(&(_, addend)) = locs.iter().find(|l| l.0 == n.offset + loc as u64) else {
                    continue;
                };
                if e.length_size != 12 {
                    return None;
                }
                let start = u64::try_from(addend).ok()?;
                let new_start = move_frame(start)?;
                let prog = loc + 16..e.offset + e.size;
                let ca = fde_code_align(block, &entries, e)?;
                let moved = rewrite_cfa(block.get(prog.clone())?, ca, |off| {
                    move_frame(start.checked_add(off)?)?.checked_sub(new_start)
                })?;
                let out = b.get_or_insert_with(|| block.to_vec());
                out[prog].copy_from_slice(&moved);
                // The range is data (its `R_CUDA_UNUSED_CLEAR64` writes nothing): the
                // finalizer writes the new size.
                let range = out.get_mut(loc + 8..loc + 16)?;
                let old_range = u64::from_le_bytes(range.try_into().ok()?);
                let new_range =
                    move_frame(start.checked_add(old_range)?)?.checked_sub(new_start)?;
                range.copy_from_slice(&new_range.to_le_bytes());
            }
            if let Some(b) = b {
                frame.push((df, k, b));
            }
        }
    }
    // Commit.
    let bytes: &[u8] = st.bump.alloc_slice_copy(&new.bytes);
    st.relayout_nodes(text, |_, _| Some(bytes));
    for (k, off) in relocs {
        st.relocs[k].offset = off;
    }
    for (k, addend) in addends {
        st.relocs[k].addend = addend;
    }
    for (global, pos, value, size) in syms {
        let mut x = if global {
            st.globals.at_mut(pos)
        } else {
            st.locals.at_mut(pos)
        };
        *x.value() = value;
        *x.size() = size;
    }
    if let Some(info) = info {
        for (which, k, p) in payloads {
            let list = match which {
                0 => st.section_info.get_mut(&info),
                1 => st.section_info_tail.get_mut(&info),
                _ => st.sass_info_tail.get_mut(&info),
            };
            if let Some(rec) = list.and_then(|l| l.get_mut(k)) {
                rec.payload = p;
            }
        }
    }
    if let Some((c2, b)) = bank2 {
        let b: &[u8] = st.bump.alloc_slice_copy(&b);
        st.relayout_nodes(c2, |_, _| Some(b));
    }
    for (df, k, b) in frame {
        let b: &[u8] = st.bump.alloc_slice_copy(&b);
        st.relayout_nodes(df, |i, _| (i == k).then_some(b));
    }
    let rows = new.start[..plan.dropped.len()]
        .iter()
        .map(|&k| k as u64 * 16)
        .chain([new_size])
        .collect();
    Some(Rewritten {
        text,
        sym,
        capsule,
        rows,
    })
}

/// An `EIATTR_INDIRECT_BRANCH_TARGETS` payload with its offsets moved: each `BRX`'s own with
/// `move_to`, its targets as branch targets (`move_target`: a target on a fenced `EXIT` lands on
/// the fence). Each `BRX`'s (old, new) targets go to `tables`. `None`: not the known form (a
/// zero second word, a count then the targets).
fn move_jump_targets(
    payload: &[u8],
    move_to: &impl Fn(u64) -> Option<u64>,
    move_target: &impl Fn(u64) -> Option<u64>,
    tables: &mut Vec<(Vec<u32>, Vec<u32>)>,
) -> Option<Vec<u8>> {
    if payload.len() % 4 != 0 {
        return None;
    }
    let w: Vec<u32> = payload
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = Vec::with_capacity(payload.len());
    let mut at = 0;
    let put = |out: &mut Vec<u8>, v: u64| -> Option<()> {
        out.extend_from_slice(&u32::try_from(v).ok()?.to_le_bytes());
        Some(())
    };
    while at < w.len() {
        let (&brx, &zero, &n) = (w.get(at)?, w.get(at + 1)?, w.get(at + 2)?);
        let n = n as usize;
        let old = w.get(at + 3..at + 3 + n)?;
        if zero != 0 || n == 0 {
            return None;
        }
        put(&mut out, move_to(brx as u64)?)?;
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&w[at + 2].to_le_bytes());
        let mut new = Vec::with_capacity(n);
        for &t in old {
            let to = u32::try_from(move_target(t as u64)?).ok()?;
            new.push(to);
            put(&mut out, to as u64)?;
        }
        tables.push((old.to_vec(), new));
        at += 3 + n;
    }
    Some(out)
}

/// Puts the rewritten kernels' capsules into the Mercury world (before its relocations).
/// The instructions the capsule's relocations patch move with the code (observed: the
/// constant-bank offsets of `LDC`s after a fenced `EXIT` land in their own stored records).
pub fn patch_capsules(w: &mut MercWorld, done: &[Rewritten]) {
    for r in done {
        let Some(k) = w
            .sections
            .iter()
            .position(|s| s.twin == r.text && s.kind == MercKind::Capsule)
        else {
            continue;
        };
        let sec = &mut w.sections[k];
        sec.size = r.capsule.len() as u64;
        sec.bytes = r.capsule.clone();
        let relas: Vec<bool> = w.relas.iter().map(|x| x.target == k).collect();
        for m in w.relocs.iter_mut() {
            if !relas.get(m.rela).copied().unwrap_or(false) {
                continue;
            }
            // (Relocated instructions are never fenced: their own new place.)
            if let Some(slot) = m.slot {
                let new = r.rows.get(slot as usize).map(|&o| (o / 16) as u32);
                m.slot = new.or(m.slot);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Against nvlink 13.5's images in `tests/corpus`: each kernel's code and capsule in the
    //! input, rewritten, must be nvlink's; kernels the rule leaves alone must be the input's.
    use super::*;
    use crate::elf::ElfFile;

    use crate::corpus_file as corpus;

    fn section<'d>(e: &ElfFile<'d>, name: &str) -> &'d [u8] {
        let i = e.section_by_name(name.as_bytes()).unwrap();
        e.section_data(i).unwrap()
    }

    /// (kernels rewritten, kernels left alone) of one case, checking every one.
    fn check(case: &str) -> (usize, usize) {
        let (input, output) = (corpus(case, "c.cubin"), corpus(case, "expected.cubin"));
        let (input, output) = (
            ElfFile::parse(&input).unwrap(),
            ElfFile::parse(&output).unwrap(),
        );
        let (mut rewritten, mut alone) = (0, 0);
        for i in 0..input.sections().len() as u32 {
            let name = String::from_utf8_lossy(input.section_name(i).unwrap()).into_owned();
            let Some(f) = name.strip_prefix(".text.") else {
                continue;
            };
            let code = input.section_data(i).unwrap();
            // (Functions nvlink removed as unused.)
            let Some(o) = output.section_by_name(name.as_bytes()) else {
                continue;
            };
            let want = output.section_data(o).unwrap();
            let cap = format!(".nv.capmerc.text.{f}");
            match plan(code) {
                Some(p) => {
                    let new = rewrite_code(code, &p).unwrap();
                    assert_eq!(new.bytes, want, "{case}: {name}");
                    let c = rewrite_capsule(section(&input, &cap), code, &p, &new).unwrap();
                    assert_eq!(c[4..], section(&output, &cap)[4..], "{case}: {cap}");
                    rewritten += 1;
                }
                None => {
                    assert_eq!(code, want, "{case}: {name}");
                    alone += 1;
                }
            }
        }
        (rewritten, alone)
    }

    /// Per instruction, its opcode and guard, and the whole body of a `MEMBAR` (the code before
    /// relocation and the scoreboard pass, as far as both leave it).
    fn shape(code: &[u8]) -> Vec<(u64, u64)> {
        code.chunks_exact(16)
            .map(|c| {
                let (lo, hi) = decode(c).unwrap()[0];
                if lo & 0xfff == OP_MEMBAR {
                    (lo, hi & BODY_HI)
                } else {
                    (lo & 0xffff, 0)
                }
            })
            .collect()
    }

    /// Kernels rewritten in a case where nvlink also allocates the scoreboards again and elfw
    /// does not (unvalidated opcodes), from a cubin whose code relocations are not applied yet:
    /// the instructions must be nvlink's (opcodes, guards, fences), the capsule nvlink's; every
    /// kernel of the case must be rewritten.
    fn check_bodies(case: &str) -> usize {
        let (input, output) = (corpus(case, "c.cubin"), corpus(case, "expected.cubin"));
        let (input, output) = (
            ElfFile::parse(&input).unwrap(),
            ElfFile::parse(&output).unwrap(),
        );
        let mut rewritten = 0;
        for i in 0..input.sections().len() as u32 {
            let name = String::from_utf8_lossy(input.section_name(i).unwrap()).into_owned();
            let Some(f) = name.strip_prefix(".text.") else {
                continue;
            };
            let code = input.section_data(i).unwrap();
            let want = section(&output, &name);
            let cap = format!(".nv.capmerc.text.{f}");
            let p = plan(code).unwrap_or_else(|| panic!("{case}: {name} not rewritten"));
            let new = rewrite_code(code, &p).unwrap();
            assert_eq!(shape(&new.bytes), shape(want), "{case}: {name}");
            let c = rewrite_capsule(section(&input, &cap), code, &p, &new).unwrap();
            assert_eq!(c[4..], section(&output, &cap)[4..], "{case}: {cap}");
            rewritten += 1;
        }
        rewritten
    }

    /// Re-scheduled kernels with `mbarrier` operations keep the `MEMBAR.ALL.CTA` of their GPU-
    /// and system-scope fences (grid barrier, `__threadfence`, `__threadfence_system`, a
    /// work-stealing loop); the placeholders go.
    #[test]
    fn mbarrier_kernels_keep_the_cta_membar() {
        assert_eq!(
            check_bodies("sm100_fence_placeholders_mbarrier_cta_membar"),
            4
        );
        assert_eq!(
            check_bodies("sm120_fence_placeholders_mbarrier_cta_membar"),
            4
        );
    }

    #[test]
    fn cluster_kernels() {
        assert_eq!(check("sm100_clusters"), (1, 2));
        assert_eq!(check("sm120_clusters"), (1, 2));
    }

    #[test]
    fn every_fence_kind() {
        assert_eq!(check("sm100_fence_placeholders"), (20, 1));
        assert_eq!(check("sm120_fence_placeholders"), (20, 1));
    }

    #[test]
    fn callers_and_callees_keep_them() {
        assert_eq!(check("sm100_fence_placeholders_kept").0, 0);
        assert_eq!(check("sm120_fence_placeholders_kept").0, 0);
    }

    /// (functions fenced, functions left alone) of one input of a case linked in `mode`: each
    /// function's code and capsule, rewritten, must be nvlink's.
    fn check_exits(case: &str, file: &str, mode: ExitFence) -> (usize, usize) {
        let (input, output) = (corpus(case, file), corpus(case, "expected.cubin"));
        let (input, output) = (
            ElfFile::parse(&input).unwrap(),
            ElfFile::parse(&output).unwrap(),
        );
        let kernels: Vec<u32> = input
            .symbols()
            .map(Result::unwrap)
            .filter(|s| s.other & 0x10 != 0 && s.info & 0xf == 2)
            .map(|s| s.shndx)
            .collect();
        let (mut fenced, mut alone) = (0, 0);
        for i in 0..input.sections().len() as u32 {
            let name = String::from_utf8_lossy(input.section_name(i).unwrap()).into_owned();
            let Some(f) = name.strip_prefix(".text.") else {
                continue;
            };
            let Some(o) = output.section_by_name(name.as_bytes()) else {
                continue;
            };
            let code = input.section_data(i).unwrap();
            let want = output.section_data(o).unwrap();
            let cap = format!(".nv.capmerc.text.{f}");
            match plan_function(code, kernels.contains(&i), mode) {
                Some(p) => {
                    assert!(
                        !p.inserted.is_empty() || !p.trimmed.is_empty(),
                        "{case}: {name}"
                    );
                    let new = rewrite_code(code, &p).unwrap();
                    assert_eq!(new.bytes, want, "{case}: {name}");
                    let c = rewrite_capsule(section(&input, &cap), code, &p, &new).unwrap();
                    assert_eq!(c[4..], section(&output, &cap)[4..], "{case}: {cap}");
                    fenced += 1;
                }
                None => {
                    assert_eq!(code, want, "{case}: {name}");
                    alone += 1;
                }
            }
        }
        (fenced, alone)
    }

    #[test]
    fn exits_fenced_next_to_debug_code() {
        // The eleven kernels and dev_exit; plain_fn, f1 and f2 have no EXIT.
        assert_eq!(
            check_exits(
                "sm100_exit_fence_debug_mix",
                "rel.cubin",
                ExitFence::Trimmed
            ),
            (12, 3)
        );
        assert_eq!(
            check_exits(
                "sm120_exit_fence_debug_mix",
                "rel.cubin",
                ExitFence::Trimmed
            ),
            (12, 3)
        );
        assert_eq!(
            check_exits(
                "sm100_exit_fence_dead_debug_input",
                "rel.cubin",
                ExitFence::Trimmed
            ),
            (2, 1)
        );
    }

    #[test]
    fn exits_fenced_under_g() {
        for case in ["sm100_exit_fence_g", "sm120_exit_fence_g"] {
            assert_eq!(check_exits(case, "a.cubin", ExitFence::Full), (9, 1));
            assert_eq!(check_exits(case, "b.cubin", ExitFence::Full), (3, 0));
        }
    }

    #[test]
    fn unscheduled_code_fenced_without_stall() {
        // rel.cu at -O0: the same twelve functions fenced as in the scheduled case, each
        // CGAERRBAR without stall.
        assert_eq!(
            check_exits(
                "sm100_exit_fence_unscheduled_debug_mix",
                "rel.cubin",
                ExitFence::Trimmed
            ),
            (12, 3)
        );
    }

    #[test]
    fn debug_code_is_not_fenced_again() {
        for case in ["sm100_exit_fence_debug_mix", "sm120_exit_fence_debug_mix"] {
            assert_eq!(check_exits(case, "dbg.cubin", ExitFence::Trimmed).0, 0);
            assert_eq!(check_exits(case, "dbg.cubin", ExitFence::Full).0, 0);
        }
    }

    #[test]
    fn debug_kernels_without_calls_trimmed() {
        // k_dbg_leaf and k_dbg_exits lose MEMBAR.SC.VC; k_dbg_fence (it calls __threadfence)
        // and __threadfence keep theirs.
        for case in [
            "sm100_exit_fence_debug_leaf_trim",
            "sm120_exit_fence_debug_leaf_trim",
        ] {
            assert_eq!(check_exits(case, "dbg.cubin", ExitFence::Trimmed), (2, 2));
            assert_eq!(check_exits(case, "rel.cubin", ExitFence::Trimmed), (2, 1));
        }
    }

    #[test]
    fn stored_exit_forms() {
        assert_eq!(stored_exit(7).map(|b| b[4]), Some(0xf8));
        assert_eq!(stored_exit(0).map(|b| b[4]), Some(0x00));
        assert_eq!(stored_exit(8).map(|b| b[4]), Some(0x01));
        assert_eq!(stored_exit(0xf), None);
    }

    #[test]
    fn jump_targets_move() {
        let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        // Two `BRX`s: one at 0x130 with three targets, one at 0x240 with one.
        let payload = words(&[0x130, 0, 3, 0x190, 0x140, 0x810, 0x240, 0, 1, 0x250]);
        let mut tables = Vec::new();
        let moved = move_jump_targets(
            &payload,
            &|o: u64| Some(o + 0x10),
            &|o: u64| Some(if o > 0x180 { o + 0x30 } else { o }),
            &mut tables,
        );
        assert_eq!(
            moved,
            Some(words(&[
                0x140, 0, 3, 0x1c0, 0x140, 0x840, 0x250, 0, 1, 0x280
            ]))
        );
        assert_eq!(tables.len(), 2);
        assert_eq!(
            tables[0],
            (vec![0x190, 0x140, 0x810], vec![0x1c0, 0x140, 0x840])
        );
        // A nonzero second word or a short list is not the known form.
        let mut t = Vec::new();
        let bad = words(&[0x130, 1, 1, 0x190]);
        assert_eq!(
            move_jump_targets(&bad, &|o: u64| Some(o), &|o: u64| Some(o), &mut t),
            None
        );
        let short = words(&[0x130, 0, 2, 0x190]);
        assert_eq!(
            move_jump_targets(&short, &|o: u64| Some(o), &|o: u64| Some(o), &mut t),
            None
        );
    }

    #[test]
    fn call_frame_steps_move() {
        // sm100_clusters' `_Z14cluster_kernelPi` frame program, input and nvlink's.
        let old = [
            0x04, 0x60, 0, 0, 0, 0x07, 0x85, 0x80, 0x80, 0x28, 0x04, 0x54, 0, 0, 0, 0x04, 0x08, 0,
            0, 0, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00,
        ];
        let mut want = old;
        want[1] = 0x4c;
        want[11] = 0x40;
        // Ten instructions went: five before 0x180 and five before 0x2d0.
        let moved = rewrite_cfa(&old, 4, |o| {
            Some(match o {
                0..=0xf0 => o,
                0x140..=0x270 => o - 0x50,
                _ => o - 0xa0,
            })
        });
        assert_eq!(moved.as_deref(), Some(&want[..]));
        assert_eq!(rewrite_cfa(&old, 4, |_| None), None);
        assert_eq!(rewrite_cfa(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0], 4, Some), None);
    }
}
