//! Engine configuration: user options, the switches of the search techniques that the
//! ablation study turns on and off (ordinary UCI options), and the pruning margins and
//! time-management constants (compile-time constants; runtime-tunable hidden UCI options
//! only in builds with the cargo feature `tune`).

/// Accessor of one boolean switch in [`SearchParams`].
pub type SwitchField = fn(&mut SearchParams) -> &mut bool;

/// The integer constants of the search's pruning and extension rules and of its aspiration
/// windows, in centipawns unless named otherwise.
///
/// A normal build compiles the search against [`Margins::DEFAULT`], the hand-set values,
/// so that the compiler folds them into the code. A build with the cargo feature `tune`
/// keeps a copy in [`SearchParams`] and exposes each constant as a hidden UCI option (see
/// `Margins::specs`), so that a tuner (SPSA through `bastion match`) can vary them
/// without a rebuild; Reckless and Viridithas handle their search constants the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// Razoring: drop to quiescence when `eval + base + mul·depth < alpha` …
    pub razor_base: i32,
    /// … (the per-depth part).
    pub razor_mul: i32,
    /// Reverse futility: prune when `eval − mul·(depth − improving) ≥ beta`.
    pub rfp_mul: i32,
    /// Null move is tried when `static eval ≥ beta − 20·depth + margin`.
    pub nmp_margin: i32,
    /// Null-move reduction grows by one per this much of `eval − beta` (at most 3).
    pub nmp_eval_div: i32,
    /// Futility pruning of quiet moves: `eval + base + mul·lmr_depth ≤ alpha` …
    pub futility_base: i32,
    /// … (the per-depth part).
    pub futility_mul: i32,
    /// Quiet moves with a history below `−this·depth` are pruned near the leaves.
    pub hist_prune: i32,
    /// Quiet moves losing more than `this·lmr_depth²` by SEE are pruned.
    pub see_quiet: i32,
    /// Captures losing more than `this·depth` by SEE are pruned.
    pub see_capture: i32,
    /// A singular move is extended twice when the others fail this far below.
    pub singular_double: i32,
    /// History points per ply of reduction removed from a quiet move.
    pub lmr_hist_div: i32,
    /// Half-width of the first aspiration window, before the part that grows with the score.
    pub asp_delta: i32,
}

impl Margins {
    /// The hand-set values the search is built with.
    pub const DEFAULT: Margins = Margins {
        razor_base: 200,
        razor_mul: 250,
        rfp_mul: 90,
        nmp_margin: 150,
        nmp_eval_div: 200,
        futility_base: 110,
        futility_mul: 100,
        hist_prune: 4000,
        see_quiet: 20,
        see_capture: 90,
        singular_double: 25,
        lmr_hist_div: 6000,
        asp_delta: 14,
    };
}

impl Default for Margins {
    fn default() -> Self {
        Margins::DEFAULT
    }
}

/// The constants of time allocation (`search/time.rs`) and of the decision, between
/// iterations, to start another one; percentages unless named otherwise.
///
/// Compiled in as [`TimeConstants::DEFAULT`] like [`Margins`], and hidden UCI options
/// (`TmHorizon`, `TmSoftCap`, …) in builds with the `tune` feature, so that time
/// management can be tuned by SPSA at the time controls it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeConstants {
    /// Moves the remaining clock is spread over without `movestogo` (fewer spends more
    /// per move early).
    pub horizon: i32,
    /// The target time of a move is at most this share of the clock left.
    pub soft_cap: i32,
    /// The hard limit is this share of the target …
    pub hard_ratio: i32,
    /// … and at most this share of the clock left.
    pub hard_cap: i32,
    /// No new iteration starts once this share of the target (times the factors below)
    /// has passed.
    pub stop_share: i32,
    /// Added to the instability factor when the best move changes …
    pub instability: i32,
    /// … which keeps this share of itself from one iteration to the next.
    pub instability_decay: i32,
    /// A score falling by this many centipawns since the last iteration adds 100 % …
    pub falling_div: i32,
    /// … and a falling score adds at most this much.
    pub falling_max: i32,
    /// From depth 8 the factor is `base + slope · (1 − share of nodes spent on the best
    /// move)`, kept within 0.6 … 1.7: this is the base …
    pub effort_base: i32,
    /// … and this the slope.
    pub effort_slope: i32,
}

impl TimeConstants {
    /// The hand-set values the engine is built with.
    pub const DEFAULT: TimeConstants = TimeConstants {
        horizon: 20,
        soft_cap: 45,
        hard_ratio: 450,
        hard_cap: 70,
        stop_share: 70,
        instability: 100,
        instability_decay: 60,
        falling_div: 120,
        falling_max: 80,
        effort_base: 50,
        effort_slope: 160,
    };

    /// A percentage as a fraction (`pct(45)` is the same `f64` as `0.45`).
    pub fn pct(x: i32) -> f64 {
        f64::from(x) / 100.0
    }
}

impl Default for TimeConstants {
    fn default() -> Self {
        TimeConstants::DEFAULT
    }
}

#[cfg(feature = "tune")]
pub use tuning::{MarginSpec, TimeSpec, TunableSpec};

/// The hidden UCI options of the margins and time constants, in builds with the `tune`
/// feature.
#[cfg(feature = "tune")]
mod tuning {
    use super::{Margins, TimeConstants};

    /// One tunable integer constant of a struct `T`: hidden UCI option name, accessor and
    /// allowed range.
    pub struct TunableSpec<T: 'static> {
        /// The hidden UCI option's name.
        pub name: &'static str,
        /// Getter/setter of the field.
        pub field: fn(&mut T) -> &mut i32,
        /// Smallest value accepted.
        pub min: i32,
        /// Largest value accepted.
        pub max: i32,
    }

    /// One tunable constant of [`Margins`].
    pub type MarginSpec = TunableSpec<Margins>;
    /// One tunable constant of [`TimeConstants`].
    pub type TimeSpec = TunableSpec<TimeConstants>;

    impl Margins {
        /// The tunable constants with their hidden UCI option names and ranges.
        pub fn specs() -> &'static [MarginSpec] {
            &MARGIN_SPECS
        }
    }

    impl TimeConstants {
        /// The tunable constants with their hidden UCI option names and ranges.
        pub fn specs() -> &'static [TimeSpec] {
            &TIME_SPECS
        }
    }

    const fn spec<T>(name: &'static str, field: fn(&mut T) -> &mut i32, min: i32, max: i32) -> TunableSpec<T> {
        TunableSpec { name, field, min, max }
    }

    static MARGIN_SPECS: [MarginSpec; 13] = [
        spec("RazorBase", |m| &mut m.razor_base, 0, 1000),
        spec("RazorMul", |m| &mut m.razor_mul, 0, 1000),
        spec("RfpMul", |m| &mut m.rfp_mul, 10, 500),
        spec("NmpMargin", |m| &mut m.nmp_margin, -500, 1000),
        spec("NmpEvalDiv", |m| &mut m.nmp_eval_div, 20, 2000),
        spec("FutilityBase", |m| &mut m.futility_base, 0, 1000),
        spec("FutilityMul", |m| &mut m.futility_mul, 10, 1000),
        spec("HistPrune", |m| &mut m.hist_prune, 100, 50000),
        spec("SeeQuiet", |m| &mut m.see_quiet, 0, 500),
        spec("SeeCapture", |m| &mut m.see_capture, 0, 1000),
        spec("SingularDouble", |m| &mut m.singular_double, 0, 500),
        spec("LmrHistDiv", |m| &mut m.lmr_hist_div, 500, 50000),
        spec("AspDelta", |m| &mut m.asp_delta, 1, 2000),
    ];

    // The ranges keep every allocation inside the clock: the caps stay below 100 %, and
    // the time manager clamps the hard limit to its cap whatever the ratio.
    static TIME_SPECS: [TimeSpec; 11] = [
        spec("TmHorizon", |t| &mut t.horizon, 2, 100),
        spec("TmSoftCap", |t| &mut t.soft_cap, 5, 90),
        spec("TmHardRatio", |t| &mut t.hard_ratio, 100, 2000),
        spec("TmHardCap", |t| &mut t.hard_cap, 10, 95),
        spec("TmStopShare", |t| &mut t.stop_share, 10, 300),
        spec("TmInstability", |t| &mut t.instability, 0, 500),
        spec("TmInstabilityDecay", |t| &mut t.instability_decay, 0, 95),
        spec("TmFallingDiv", |t| &mut t.falling_div, 10, 2000),
        spec("TmFallingMax", |t| &mut t.falling_max, 0, 500),
        spec("TmEffortBase", |t| &mut t.effort_base, 0, 200),
        spec("TmEffortSlope", |t| &mut t.effort_slope, 0, 500),
    ];
}

/// The switches of the search techniques measured in the ablation study
/// (`docs/ablation.md`), their two numeric parameters, and contempt.
///
/// Every switch is an ordinary UCI option (see [`SearchParams::switches`]). The
/// techniques on by default are those the engine plays with; the three off by default
/// are techniques of the thesis kept for the ablation: Adaptive Depth Control (neutral in
/// games next to late-move reductions), the enhanced transposition cutoff and lazy
/// evaluation (which serves only the hand-written evaluation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// A fixed null-move reduction R (the thesis's R = 2, 3, 4 of Table 8.2), or 0 for the
    /// engine's own, which grows with depth and with the margin above beta.
    pub null_move_reduction: i32,
    /// The transposition table: probed for cutoffs and moves, and written. Off only for
    /// the ablation (the thesis's "αβ" column of Table 8.2).
    pub transposition_table: bool,
    /// Adaptive Depth Control (the thesis, §6.3): at PV nodes, quiet, non-checking,
    /// non-evasion siblings after the first [`Self::adaptive_depth_threshold`] raise the
    /// null-move reduction by one in their whole subtree.
    pub adaptive_depth_control: bool,
    /// Sibling index from which Adaptive Depth Control marks a move as late.
    pub adaptive_depth_threshold: usize,
    /// Late-move reductions (log-based table).
    pub lmr: bool,
    /// Late-move pruning of quiet moves at low depth.
    pub lmp: bool,
    /// Futility pruning of quiet moves near the leaves.
    pub futility: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// Razoring: drop to quiescence when far below alpha.
    pub razoring: bool,
    /// SEE-based pruning of losing moves at low depth (main search).
    pub see_pruning: bool,
    /// Check extension.
    pub check_extension: bool,
    /// Singular extension (and multi-cut).
    pub singular_extension: bool,
    /// Internal iterative reduction when no hash move exists.
    pub iir: bool,
    /// Enhanced transposition cutoff (the thesis, §4.6.5): before searching a non-PV
    /// node, probe every child in the transposition table for one that already refutes it.
    pub enhanced_tt_cutoff: bool,
    /// Killer moves in ordering.
    pub killers: bool,
    /// Butterfly history in ordering (and the history-based pruning of quiet moves).
    pub history: bool,
    /// Counter-move and continuation histories in ordering.
    pub counter_moves: bool,
    /// Lazy evaluation in quiescence (the thesis, §4.4.3): the hand-written evaluation
    /// stops after the cheap terms when they are [`Self::lazy_margin`] outside the window.
    /// It has no effect while a network evaluates.
    pub lazy_eval: bool,
    /// Quiet checks (not losing material) at the first quiescence ply.
    pub qsearch_checks: bool,
    /// The mop-up term against a bare king (drive it to the edge, bring the kings
    /// together). Off only for the ablation: every K+R v K win then scores almost alike,
    /// as the flat evaluation of Guid & Bratko 2012, §2, did.
    pub mop_up: bool,
    /// Repetition draws in the search (a position that repeats one of the game or the
    /// line scores as a draw). Off only for the ablation of the thesis's §6.1, Tables
    /// 6.2–6.3: the fifty-move rule still applies.
    pub repetition_draws: bool,
    /// Repetitions found by variant arrays (the thesis, §6.1: the moves since the last
    /// irreversible one, no keys) instead of Zobrist keys, for that section's experiment.
    /// It sees the moves from the root only: the game's moves before it reach the search as
    /// keys.
    pub variant_arrays: bool,
    /// Margin of lazy evaluation in centipawns.
    pub lazy_margin: i32,
    /// Contempt in centipawns: draws count as this much worse for the side to move at the root.
    pub contempt: i32,
    /// The pruning and extension constants (runtime values only with the `tune` feature).
    #[cfg(feature = "tune")]
    pub margins: Margins,
    /// The time-management constants (runtime values only with the `tune` feature).
    #[cfg(feature = "tune")]
    pub time: TimeConstants,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration: true,
            null_move: true,
            null_move_reduction: 0,
            transposition_table: true,
            adaptive_depth_control: false,
            adaptive_depth_threshold: 4,
            lmr: true,
            lmp: true,
            futility: true,
            reverse_futility: true,
            razoring: true,
            see_pruning: true,
            check_extension: true,
            singular_extension: true,
            iir: true,
            enhanced_tt_cutoff: false,
            killers: true,
            history: true,
            counter_moves: true,
            lazy_eval: false,
            qsearch_checks: true,
            mop_up: true,
            repetition_draws: true,
            variant_arrays: false,
            lazy_margin: 400,
            contempt: 0,
            #[cfg(feature = "tune")]
            margins: Margins::DEFAULT,
            #[cfg(feature = "tune")]
            time: TimeConstants::DEFAULT,
        }
    }
}

impl SearchParams {
    /// The boolean switches as `(UCI option name, getter/setter)`, in the order `uci`
    /// lists them.
    pub fn switches() -> &'static [(&'static str, SwitchField)] {
        &[
            ("Aspiration", |p| &mut p.aspiration),
            ("NullMove", |p| &mut p.null_move),
            ("TranspositionTable", |p| &mut p.transposition_table),
            ("AdaptiveDepthControl", |p| &mut p.adaptive_depth_control),
            ("LateMoveReductions", |p| &mut p.lmr),
            ("LateMovePruning", |p| &mut p.lmp),
            ("Futility", |p| &mut p.futility),
            ("ReverseFutility", |p| &mut p.reverse_futility),
            ("Razoring", |p| &mut p.razoring),
            ("SEEPruning", |p| &mut p.see_pruning),
            ("CheckExtension", |p| &mut p.check_extension),
            ("SingularExtension", |p| &mut p.singular_extension),
            ("InternalIterativeReduction", |p| &mut p.iir),
            ("EnhancedTTCutoff", |p| &mut p.enhanced_tt_cutoff),
            ("Killers", |p| &mut p.killers),
            ("History", |p| &mut p.history),
            ("CounterMoves", |p| &mut p.counter_moves),
            ("LazyEval", |p| &mut p.lazy_eval),
            ("QSearchChecks", |p| &mut p.qsearch_checks),
            ("MopUp", |p| &mut p.mop_up),
            ("RepetitionDraws", |p| &mut p.repetition_draws),
            ("VariantArrays", |p| &mut p.variant_arrays),
        ]
    }

    /// The pruning and extension constants in force: [`Margins::DEFAULT`], or in a build
    /// with the `tune` feature the values set through the hidden UCI options.
    #[inline(always)]
    pub fn margins(&self) -> &Margins {
        #[cfg(feature = "tune")]
        {
            &self.margins
        }
        #[cfg(not(feature = "tune"))]
        {
            &Margins::DEFAULT
        }
    }

    /// The time-management constants in force: [`TimeConstants::DEFAULT`], or in a build
    /// with the `tune` feature the values set through the hidden UCI options.
    #[inline(always)]
    pub fn time(&self) -> &TimeConstants {
        #[cfg(feature = "tune")]
        {
            &self.time
        }
        #[cfg(not(feature = "tune"))]
        {
            &TimeConstants::DEFAULT
        }
    }
}

/// User-level engine options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead_ms: u64,
    /// Search feature switches.
    pub params: SearchParams,
    /// Milliseconds into a search after which the main thread also reports aspiration-window
    /// failures (as bounds, with all MultiPV lines) and the root move it starts (`currmove`).
    /// Stockfish waits 3 s, so that short searches stay quiet.
    pub progress_after_ms: u64,
    /// How the search uses Syzygy tables (the options Stockfish names the same way).
    pub syzygy: SyzygyOptions,
    /// `FortressAware`: once one side is clearly ahead, part of the move's time goes to a
    /// progress test of the root moves, and moves that lead into a suspected fortress are
    /// scored towards the draw (`search/fortress.rs`).
    pub fortress_aware: bool,
    /// This engine's place among engines that search the same root together (a cluster
    /// rank; 0 for an engine alone). With `threads` T, its threads search as Lazy SMP threads
    /// `cluster_rank·T … cluster_rank·T + T − 1` of one engine would, skipping depths as those
    /// helpers do: otherwise every rank's single thread would search the same tree. Set by the
    /// cluster search, not a UCI option.
    pub cluster_rank: usize,
}

/// The Syzygy options, as Stockfish names and reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyzygyOptions {
    /// `SyzygyProbeDepth`: the least remaining depth at which the search probes
    /// positions with exactly [`Self::probe_limit`] men (fewer men: any depth).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: the most men a position may have to be probed (0: none);
    /// above the tables' largest, the tables' largest at any depth.
    pub probe_limit: u32,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws (true) or as
    /// wins and losses (false).
    pub fifty_move_rule: bool,
}

impl Default for SyzygyOptions {
    fn default() -> Self {
        SyzygyOptions { probe_depth: 1, probe_limit: 7, fifty_move_rule: true }
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        // 64 MiB: a game reuses the table for dozens of moves, and at 16 MiB a few
        // seconds of search already overwrite most of it (adopted as part of a measured
        // bundle of changes, not measured alone).
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            params: SearchParams::default(),
            progress_after_ms: 3000,
            syzygy: SyzygyOptions::default(),
            fortress_aware: false,
            cluster_rank: 0,
        }
    }
}
