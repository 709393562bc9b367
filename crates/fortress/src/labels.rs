//! The labelled position set used to measure the detector: one position a
//! line, `label<TAB>id<TAB>FEN<TAB>source`, `#` starts a comment line.

use std::path::Path;

use crate::error::FortressError;

/// The ground-truth class of a labelled position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// The side ahead cannot win (tablebase draw or a book fortress).
    Fortress,
    /// The side ahead wins.
    Progress,
    /// Nobody is ahead and nothing can change.
    DeadDraw,
}

impl Label {
    /// The verdict that is right for this label.
    pub fn verdict(self) -> crate::classify::Verdict {
        match self {
            Label::Fortress => crate::classify::Verdict::Fortress,
            Label::Progress => crate::classify::Verdict::Progress,
            Label::DeadDraw => crate::classify::Verdict::DeadDraw,
        }
    }
}

/// One line of the labelled set.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LabelledPosition {
    /// Short unique name.
    pub id: String,
    /// Ground truth.
    pub label: Label,
    /// The position.
    pub fen: String,
    /// Where the position and its label come from.
    pub source: String,
}

/// Parses the labelled set format; errors name the offending line.
pub fn parse_labelled(text: &str) -> Result<Vec<LabelledPosition>, FortressError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let bad = |why: &str| FortressError::LabelledSet { line: n + 1, why: why.to_owned() };
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != 4 {
            return Err(bad("expected 4 tab-separated columns: label, id, FEN, source"));
        }
        let label = match cols[0].trim() {
            "fortress" => Label::Fortress,
            "progress" => Label::Progress,
            "dead_draw" => Label::DeadDraw,
            other => return Err(bad(&format!("unknown label {other:?}"))),
        };
        let fen = cols[2].trim().to_owned();
        bastion_core::Position::from_fen(&fen).map_err(|e| bad(&format!("bad FEN: {e}")))?;
        out.push(LabelledPosition { id: cols[1].trim().to_owned(), label, fen, source: cols[3].trim().to_owned() });
    }
    Ok(out)
}

/// Reads and parses a labelled set file.
pub fn read_labelled(path: &Path) -> Result<Vec<LabelledPosition>, FortressError> {
    let text = bastion_core::io::read_to_string_bounded(path, bastion_core::io::TEXT_LIMIT)
        .map_err(|e| FortressError::Io { path: path.display().to_string(), source: e.into_io() })?;
    parse_labelled(&text)
}
