//! Engine configuration: user options, the switches of each search feature and the
//! pruning margins (both exposed as hidden UCI options, for ablation and tuning).

/// Accessor of one boolean switch in [`SearchParams`].
pub type SwitchField = fn(&mut SearchParams) -> &mut bool;

/// Accessor of one integer constant in [`Margins`].
pub type MarginField = fn(&mut Margins) -> &mut i32;

/// One tunable constant: hidden UCI option name, accessor and allowed range.
pub struct MarginSpec {
    /// The hidden UCI option's name.
    pub name: &'static str,
    /// Getter/setter of the field.
    pub field: MarginField,
    /// Smallest value accepted.
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
}

/// The integer constants of the search's pruning and extension rules, in centipawns
/// unless named otherwise. They are hidden UCI options so that a tuner (SPSA through
/// `bastion match`) can vary them without a rebuild; the defaults are the hand-set values.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
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
        }
    }
}

impl Margins {
    /// The tunable constants with their hidden UCI option names and ranges.
    pub fn specs() -> &'static [MarginSpec] {
        &MARGIN_SPECS
    }
}

const fn spec(name: &'static str, field: MarginField, min: i32, max: i32) -> MarginSpec {
    MarginSpec { name, field, min, max }
}

static MARGIN_SPECS: [MarginSpec; 12] = [
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
];

/// Feature switches and a few tunable constants of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Verification search after a null-move cutoff in low-material positions.
    pub null_verification: bool,
    /// Adaptive Depth Control (thesis §6): late quiet siblings at PV nodes raise null-move R by one in their subtree.
    pub adc: bool,
    /// Sibling index from which ADC marks a move as late.
    pub adc_threshold: usize,
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
    /// Recapture extension at PV nodes.
    pub recapture_extension: bool,
    /// Internal iterative reduction when no hash move exists.
    pub iir: bool,
    /// Enhanced transposition cutoff (probe children before searching).
    pub etc: bool,
    /// Mate-distance pruning.
    pub mate_distance_pruning: bool,
    /// Killer moves in ordering.
    pub killers: bool,
    /// Butterfly history in ordering.
    pub history: bool,
    /// Counter-move and continuation histories in ordering.
    pub counter_moves: bool,
    /// Correct the static evaluation by the correction histories (pawn structure and material).
    pub correction_history: bool,
    /// Reduce moves less at nodes that were once on a principal variation (the TT's PV flag).
    pub tt_pv: bool,
    /// Order quiet moves by threats too (escapes, stepping into attacks, checks).
    pub threat_ordering: bool,
    /// Lazy evaluation in quiescence.
    pub lazy_eval: bool,
    /// Quiet checks (not losing material) at the first quiescence ply.
    pub qsearch_checks: bool,
    /// Continuation history of the move 4 plies back in ordering and updates.
    pub cont_hist4: bool,
    /// Depth one more after a large reduction that did not pay, one less after one that did.
    pub hindsight: bool,
    /// The quiet score that steers pruning and reductions also counts the 2-ply continuation history.
    pub lmr_cont2: bool,
    /// Correction history also keyed by each side's non-pawn pieces (session 54).
    pub non_pawn_corr: bool,
    /// Margin of lazy evaluation in centipawns.
    pub lazy_margin: i32,
    /// Contempt in centipawns: draws count as this much worse for the side to move at the root.
    pub contempt: i32,
    /// Adjustments to the network's score (hidden options `EndgameEvalPct`, `HandEvalPct`,
    /// `NetTempo`; all off by default). Below [`crate::eval::FULL_WEIGHT_MATERIAL`] scores
    /// shrink linearly toward `endgame_pct`.
    pub net_adjust: crate::eval::NetAdjust,
    /// The pruning and extension constants.
    pub margins: Margins,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration: true,
            null_move: true,
            null_verification: true,
            adc: false,
            adc_threshold: 4,
            lmr: true,
            lmp: true,
            futility: true,
            reverse_futility: true,
            razoring: true,
            see_pruning: true,
            check_extension: true,
            singular_extension: true,
            recapture_extension: true,
            iir: true,
            etc: false,
            mate_distance_pruning: true,
            killers: true,
            history: true,
            counter_moves: true,
            correction_history: true,
            tt_pv: true,
            threat_ordering: true,
            lazy_eval: false,
            qsearch_checks: true,
            cont_hist4: true,
            hindsight: true,
            lmr_cont2: true,
            non_pawn_corr: true,
            lazy_margin: 400,
            contempt: 0,
            net_adjust: crate::eval::NetAdjust::default(),
            margins: Margins::default(),
        }
    }
}

impl SearchParams {
    /// The boolean switches as `(UCI option name, getter/setter)` for the UCI layer.
    pub fn switches() -> &'static [(&'static str, SwitchField)] {
        &[
            ("Aspiration", |p| &mut p.aspiration),
            ("NullMove", |p| &mut p.null_move),
            ("NullVerification", |p| &mut p.null_verification),
            ("ADC", |p| &mut p.adc),
            ("LMR", |p| &mut p.lmr),
            ("LMP", |p| &mut p.lmp),
            ("Futility", |p| &mut p.futility),
            ("ReverseFutility", |p| &mut p.reverse_futility),
            ("Razoring", |p| &mut p.razoring),
            ("SEEPruning", |p| &mut p.see_pruning),
            ("CheckExtension", |p| &mut p.check_extension),
            ("SingularExtension", |p| &mut p.singular_extension),
            ("RecaptureExtension", |p| &mut p.recapture_extension),
            ("IIR", |p| &mut p.iir),
            ("ETC", |p| &mut p.etc),
            ("MateDistancePruning", |p| &mut p.mate_distance_pruning),
            ("Killers", |p| &mut p.killers),
            ("History", |p| &mut p.history),
            ("CounterMoves", |p| &mut p.counter_moves),
            ("CorrectionHistory", |p| &mut p.correction_history),
            ("TtPv", |p| &mut p.tt_pv),
            ("ThreatOrdering", |p| &mut p.threat_ordering),
            ("LazyEval", |p| &mut p.lazy_eval),
            ("QSearchChecks", |p| &mut p.qsearch_checks),
            ("ContHist4", |p| &mut p.cont_hist4),
            ("Hindsight", |p| &mut p.hindsight),
            ("LmrCont2", |p| &mut p.lmr_cont2),
            ("NonPawnCorr", |p| &mut p.non_pawn_corr),
        ]
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
    /// Moves the remaining clock is spread over when the time control gives no
    /// `movestogo` (hidden option `TimeHorizon`; smaller spends more per move early).
    pub time_horizon: u64,
    /// Search feature switches.
    pub params: SearchParams,
}

impl Default for EngineOptions {
    fn default() -> Self {
        // 64 MiB: a game reuses the table for dozens of moves, and at 16 MiB a few
        // seconds of search already overwrite most of it (adopted in session 12 as part of
        // a measured bundle, not measured alone).
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            time_horizon: 20,
            params: SearchParams::default(),
        }
    }
}
